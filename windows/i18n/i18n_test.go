package i18n

import (
	"testing"

	"yui/pet/settings"
)

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		tags []string
		want settings.Language
	}{
		{[]string{"ja-JP"}, settings.LanguageJapanese},
		{[]string{"ko-KR"}, settings.LanguageKorean},
		{[]string{"zh-CN"}, settings.LanguageChinese},
		{[]string{"zh-SG"}, settings.LanguageChinese},
		{[]string{"es-MX"}, settings.LanguageSpanish},
		{[]string{"de-AT"}, settings.LanguageGerman},
		{[]string{"fr-FR"}, settings.LanguageEnglish},
		{[]string{"fr-FR", "de-DE"}, settings.LanguageGerman},
		{nil, settings.LanguageEnglish},
		{[]string{"not a tag!"}, settings.LanguageEnglish},
	} {
		if got := Match(c.tags); got != c.want {
			t.Errorf("Match(%q) = %q, want %q", c.tags, got, c.want)
		}
	}
}

func TestSystemLanguagesFromTheEnvironment(t *testing.T) {
	for _, c := range []struct {
		lcAll, lang, language string
		want                  settings.Language
	}{
		{"", "ja_JP.UTF-8", "", settings.LanguageJapanese},
		{"", "ko_KR.UTF-8", "", settings.LanguageKorean},
		{"", "zh_CN.UTF-8", "", settings.LanguageChinese},
		{"de_DE.UTF-8", "ja_JP.UTF-8", "", settings.LanguageGerman},
		{"", "C.UTF-8", "ja", settings.LanguageEnglish},
		{"", "en_US.UTF-8", "es:en", settings.LanguageSpanish},
		{"", "", "", settings.LanguageEnglish},
		{"", "POSIX", "", settings.LanguageEnglish},
	} {
		t.Setenv("LC_ALL", c.lcAll)
		t.Setenv("LC_MESSAGES", "")
		t.Setenv("LANG", c.lang)
		t.Setenv("LANGUAGE", c.language)
		if got := Match(SystemLanguages()); got != c.want {
			t.Errorf("LC_ALL=%q LANG=%q LANGUAGE=%q: %q, want %q", c.lcAll, c.lang, c.language, got, c.want)
		}
	}
}

// TestUseOverridesTheSystem: the language setting wins over the system's,
// "" follows the system's, and the translation of a key follows.
func TestUseOverridesTheSystem(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANGUAGE", "")
	t.Setenv("LANG", "ja_JP.UTF-8")
	defer Use(settings.LanguageEnglish)
	if got := Use(settings.LanguageSystem); got != settings.LanguageJapanese {
		t.Fatalf("Use(system) under ja_JP = %q", got)
	}
	if got := Use(settings.LanguageGerman); got != settings.LanguageGerman {
		t.Fatalf("Use(de) = %q", got)
	}
	if got := Use("fr"); got != settings.LanguageJapanese {
		t.Fatalf("Use(fr) = %q, want the system's", got)
	}
}
