package i18n

import (
	"testing"
	"time"

	"yui/pet/settings"
	"yui/windows/widgets"
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

// TestNumbersAndDatesInTheLanguage: token counts group their digits and
// dates take the order of the language in use.
func TestNumbersAndDatesInTheLanguage(t *testing.T) {
	defer Use(settings.LanguageEnglish)
	at := time.Date(2026, 3, 9, 14, 5, 0, 0, time.UTC)
	for _, c := range []struct {
		l         settings.Language
		num, date string
	}{
		{settings.LanguageEnglish, "128,000", "9 Mar 2026 14:05"},
		{settings.LanguageGerman, "128.000", "9.3.2026 14:05"},
		{settings.LanguageSpanish, "128.000", "9/3/2026 14:05"},
		{settings.LanguageJapanese, "128,000", "2026年3月9日 14:05"},
		{settings.LanguageKorean, "128,000", "2026년 3월 9일 14:05"},
		{settings.LanguageChinese, "128,000", "2026年3月9日 14:05"},
	} {
		Use(c.l)
		if got := widgets.GroupThousands(128000); got != c.num {
			t.Errorf("%s: GroupThousands = %q, want %q", c.l, got, c.num)
		}
		if got := widgets.FormatDateTime(at); got != c.date {
			t.Errorf("%s: FormatDateTime = %q, want %q", c.l, got, c.date)
		}
	}
}

// Every repair the settings make has words of its own in the windows,
// not the log's English.
func TestEveryFixWorded(t *testing.T) {
	for _, c := range []settings.FixCode{settings.FixAddedPreset, settings.FixPresetID, settings.FixDuplicatePresetID,
		settings.FixChatID, settings.FixDuplicateChatID, settings.FixRelation, settings.FixActivePreset} {
		f := settings.Fix{Code: c, Preset: "Yui", Old: "1", New: "2"}
		if got := Fix(f); got == "" || got == f.String() {
			t.Errorf("%s: worded %q, the log's English", c, got)
		}
	}
}

// The speech sliders' figures: English 1.25 and 100%, German 1,25 and
// 100 % (with a no-break space).
func TestDecimalAndPercentFollowTheLanguage(t *testing.T) {
	defer Use(settings.LanguageEnglish)
	if got, pct := Decimal(1.25, 2), Percent(1); got != "1.25" || pct != "100%" {
		t.Errorf("English: %q, %q", got, pct)
	}
	Use(settings.LanguageGerman)
	if got, pct := Decimal(1.25, 2), Percent(0.5); got != "1,25" || (pct != "50 %" && pct != "50\u00a0%") {
		t.Errorf("German: %q, %q", got, pct)
	}
}

// TestUseLoadsEachLanguage: only English is parsed at start; each other
// shipped language is loaded when Use picks it, and picked again after
// another, it is the one in use again.
func TestUseLoadsEachLanguage(t *testing.T) {
	defer Use(settings.LanguageEnglish)
	for range 2 {
		for _, l := range settings.ShippedLanguages() {
			if got := Use(l); got != l {
				t.Fatalf("Use(%q) = %q", l, got)
			}
		}
	}
}
