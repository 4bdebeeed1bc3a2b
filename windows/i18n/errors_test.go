package i18n

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"yui/pet/settings"
)

// sampleArgs fill every argument any code's text names.
var sampleArgs = map[string]any{"Schemes": "http://, https://", "API": "responses", "Values": `"a", "b"`, "Min": 1,
	"Max": 9, "Version": 4, "Value": `"25:00"`, "Name": `"srv"`, "Detail": "json: bad"}

// TestEveryReasonTranslated: every code settings gives reads in English
// as settings' own English (the same key), and in every other language
// as a translation with no argument left empty.
func TestEveryReasonTranslated(t *testing.T) {
	defer Use(settings.LanguageEnglish)
	for _, l := range settings.ShippedLanguages() {
		Use(l)
		for _, code := range settings.Codes() {
			if _, ok := reason(code, sampleArgs); !ok {
				t.Errorf("code %q has no text in windows/i18n/reasons.go", code)
				continue
			}
			got, en := Reason(code, sampleArgs), settings.English(code, sampleArgs)
			switch {
			case l == settings.LanguageEnglish && got != en:
				t.Errorf("code %q in English = %q, settings says %q", code, got, en)
			case l != settings.LanguageEnglish && got == en:
				t.Errorf("code %q in %s is the English %q", code, l, got)
			case strings.Contains(got, "<no value>") || strings.Contains(got, "{{"):
				t.Errorf("code %q in %s = %q: an argument is missing", code, l, got)
			}
		}
	}
}

type translatedErr struct{ error }

func (translatedErr) Translated() string { return "übersetzt" }

// TestError: one case per kind of error the windows show.
func TestError(t *testing.T) {
	defer Use(settings.LanguageEnglish)
	Use(settings.LanguageJapanese)
	p := settings.Preset{ID: "p"}
	ve := &settings.ValidationError{Fields: []settings.FieldError{{PresetID: "p", Field: "name", Code: settings.CodeEmpty}}}
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{fmt.Errorf("saving: %w", ve), "name: 入力してください"},
		{settings.CheckURL("ftp://x", "http", "https"), "http://, https:// のいずれかで始めてください"},
		{p.Validate()[0], "name: 入力してください"},
		{fmt.Errorf("deleting: %w", settings.ErrLastPreset), "最後のプリセットは削除できません。"},
		{translatedErr{errors.New("x")}, "übersetzt"},
		{errors.New("disk full"), "問題が発生しました（disk full）。"},
		{&settings.Invalid{Code: settings.CodeBetween, Args: map[string]any{"Min": 0.25, "Max": 192000}}, "0.25 から 192,000 の間にしてください"},
	} {
		if got := Error(c.err); got != c.want {
			t.Errorf("Error(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// TestReasonWritesNumbersAsTheLanguageDoes: German writes 0,25 and 192.000.
func TestReasonWritesNumbersAsTheLanguageDoes(t *testing.T) {
	defer Use(settings.LanguageEnglish)
	Use(settings.LanguageGerman)
	got := Reason(settings.CodeBetween, map[string]any{"Min": 0.25, "Max": 192000})
	if want := "muss zwischen 0,25 und 192.000 liegen"; got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
}

// TestNotice: the start-up notice of a partly refused file, in Japanese.
func TestNotice(t *testing.T) {
	defer Use(settings.LanguageEnglish)
	Use(settings.LanguageJapanese)
	n := &settings.Notice{KeptAs: "/cfg/settings.json.invalid-1", Refused: []settings.Refusal{{PresetID: "p", Name: "Mint",
		Fields: []settings.FieldError{{PresetID: "p", Field: "name", Code: settings.CodeEmpty}}}}}
	want := "一部の設定は受け付けられず、除外されました（元のファイルは settings.json.invalid-1 として残してあります）: プリセット「Mint」: name: 入力してください。"
	if got := Notice(n); got != want {
		t.Errorf("Notice = %q, want %q", got, want)
	}
	if Notice(nil) != "" {
		t.Error("no notice is not empty")
	}
}
