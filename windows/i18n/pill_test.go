package i18n

import (
	"testing"

	"yui/pet"
	"yui/pet/settings"
)

// TestPillTranslated: the pill's English texts from pet and transport
// show in the language in use, a countdown's number and a tool's or a
// model's name kept; an unknown text (a server's error) stays as it is.
func TestPillTranslated(t *testing.T) {
	defer Use(settings.LanguageEnglish)
	Use(settings.LanguageJapanese)
	for in, want := range map[string]string{
		"ready":                     "接続済み",
		"ready · Ollama · qwen3:8b": "接続済み · Ollama · qwen3:8b",
		"ready · model qwen3:8b":    "接続済み · モデル qwen3:8b",
		"reconnecting in 4 s":       "再接続まで 4 秒",
		pet.OfflineText:             "オフライン: バックエンドに接続できません",
		"offline · retrying in 3 s": "オフライン · 再試行まで 3 秒",
		"read_file running":         "read_file 実行中",
		"thinking":                  "考え中",
		"Ollama has no model · run: ollama pull qwen3:4b": "Ollama にモデルがありません · ollama pull qwen3:4b を実行してください",
		"HTTP 500: the server said no":                    "HTTP 500: the server said no",
		"Jan needs its API key · paste Jan's API key (Jan → Settings → Local API Server) into the preset's key": "Jan には API キーが必要 · Jan の API キー（Jan → Settings → Local API Server）をプリセットのキー欄に貼り付けてください",
		"llama.cpp needs its API key · paste llama.cpp's API key into the preset's key":                         "llama.cpp には API キーが必要 · llama.cpp の API キーをプリセットのキー欄に貼り付けてください",
		"text-generation-webui has no model · load one in text-generation-webui's Model tab":                    "text-generation-webui にモデルがありません · text-generation-webui の Model タブで読み込んでください",
		"KoboldCpp has no model loaded · load a chat model in KoboldCpp":                                        "KoboldCpp にモデルが読み込まれていません · KoboldCpp にチャットモデルを読み込んでください",
	} {
		if got := Pill(in); got != want {
			t.Errorf("Pill(%q) = %q, want %q", in, got, want)
		}
	}
	Use(settings.LanguageEnglish)
	if got := Pill("reconnecting in 4 s"); got != "reconnecting in 4 s" {
		t.Errorf("English: %q", got)
	}
}
