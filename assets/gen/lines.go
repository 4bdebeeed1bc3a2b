package main

// manifestLines are a pack's filler and failure lines in one language
// (pet/character/lines.go): character.json's "lines" maps each shipped
// language but English (the top-level lines) to them.
type manifestLines struct {
	Filler  []string `json:"filler_lines"`
	Failure []string `json:"failure_lines"`
}

// yuiLines are Yui's lines in every shipped language but English:
// cheerful, a little playful, as her English ones.
func yuiLines() map[string]manifestLines {
	return map[string]manifestLines{
		"ja": {
			Filler:  []string{"うーん、ちょっと考えるね。", "おっ、いい質問！", "ちょっと待ってね！", "えーっと…"},
			Failure: []string{"今は考えがまとまらないみたい。", "ごめんね、頭がぼんやりしてる。少ししたらもう一回聞いてくれる？", "あれ、何を考えてたか忘れちゃった。"},
		},
		"ko": {
			Filler:  []string{"음, 생각 좀 해 볼게요.", "오, 좋은 질문이에요…", "잠깐만요!", "어디 보자…"},
			Failure: []string{"지금은 생각이 잘 안 나요.", "미안해요, 머리가 좀 멍해요. 조금 있다가 다시 물어봐 줄래요?", "음, 무슨 생각을 하고 있었는지 잊어버렸어요."},
		},
		"zh-Hans": {
			Filler:  []string{"嗯，让我想想。", "哦，好问题……", "稍等一下！", "我看看……"},
			Failure: []string{"我现在想不出来。", "抱歉，我脑子有点糊涂。过一会儿再问我好吗？", "嗯，我想到哪儿忘了。"},
		},
		"es": {
			Filler:  []string{"Mmm, déjame pensar.", "¡Uy, buena pregunta…", "¡Un momento!", "A ver…"},
			Failure: []string{"Ahora mismo no me llegan las ideas.", "Perdona, tengo la cabeza nublada. ¿Me lo preguntas otra vez en un rato?", "Vaya, se me fue el hilo."},
		},
		"de": {
			Filler:  []string{"Hmm, lass mich nachdenken.", "Oh, gute Frage…", "Einen Moment!", "Mal sehen…"},
			Failure: []string{"Ich komme gerade nicht an meine Gedanken.", "Tut mir leid, mein Kopf ist wie im Nebel. Fragst du gleich noch mal?", "Hmm, jetzt hab ich den Faden verloren."},
		},
	}
}

// mintLines are Mint's: calm and brief.
func mintLines() map[string]manifestLines {
	return map[string]manifestLines{
		"ja": {
			Filler:  []string{"ん、ちょっと待って。", "確認するね。", "考え中…", "少しだけ待ってて。"},
			Failure: []string{"今はメモに手が届かないみたい。", "こっちで何かおかしいみたい。また少ししたら試してくれる？"},
		},
		"ko": {
			Filler:  []string{"음, 잠깐만요.", "확인해 볼게요.", "생각하는 중…", "잠시만 기다려 줘요."},
			Failure: []string{"지금은 메모를 볼 수가 없어요.", "제 쪽에 뭔가 문제가 있어요. 조금 뒤에 다시 해 볼래요?"},
		},
		"zh-Hans": {
			Filler:  []string{"嗯，等一下。", "我查一下。", "思考中……", "稍等片刻。"},
			Failure: []string{"我现在拿不到我的笔记。", "我这边好像出了点问题。过会儿再试试？"},
		},
		"es": {
			Filler:  []string{"Mm, un segundo.", "Déjame mirarlo.", "Pensando…", "Espera un momento."},
			Failure: []string{"Ahora mismo no llego a mis notas.", "Algo falla por mi lado. ¿Lo intentas otra vez en un rato?"},
		},
		"de": {
			Filler:  []string{"Mm, eine Sekunde.", "Ich schau kurz nach.", "Denke nach…", "Einen kleinen Moment."},
			Failure: []string{"Ich komme gerade nicht an meine Notizen.", "Bei mir stimmt gerade etwas nicht. Versuchst du es gleich noch mal?"},
		},
	}
}
