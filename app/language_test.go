package app

import (
	"testing"

	"yui/pet/settings"
	"yui/pet/speech"
)

// TestFirstStartVoiceFollowsTheLanguage: the system voice picked for each
// language, from espeak-ng's list (ids as languages) and SAPI's (cultures).
func TestFirstStartVoiceFollowsTheLanguage(t *testing.T) {
	espeak := []speech.Voice{{ID: "en", Language: "en"}, {ID: "cmn", Language: "cmn"}, {ID: "ja", Language: "ja"},
		{ID: "ko", Language: "ko"}, {ID: "es", Language: "es"}, {ID: "es-419", Language: "es-419"}, {ID: "de", Language: "de"}}
	sapi := []speech.Voice{{ID: "Microsoft Zira Desktop", Language: "en-US"},
		{ID: "Microsoft Haruka Desktop", Language: "ja-JP"}, {ID: "Microsoft Huihui Desktop", Language: "zh-CN"}}
	for _, c := range []struct {
		vs   []speech.Voice
		l    settings.Language
		want string
	}{
		{espeak, settings.LanguageJapanese, "ja"},
		{espeak, settings.LanguageKorean, "ko"},
		{espeak, settings.LanguageChinese, "cmn"},
		{espeak, settings.LanguageSpanish, "es"},
		{espeak, settings.LanguageGerman, "de"},
		{sapi, settings.LanguageJapanese, "Microsoft Haruka Desktop"},
		{sapi, settings.LanguageChinese, "Microsoft Huihui Desktop"},
		{sapi, settings.LanguageKorean, ""}, // no Korean voice installed: the engine's default
		{espeak, settings.LanguageEnglish, ""},
	} {
		if got := voiceFor(c.vs, c.l); got != c.want {
			t.Errorf("voiceFor(%s) = %q, want %q", c.l, got, c.want)
		}
	}
	if whisperLanguage(settings.LanguageChinese) != "zh" || whisperLanguage(settings.LanguageJapanese) != "ja" {
		t.Error("whisper language codes")
	}
}
