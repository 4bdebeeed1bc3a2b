// Package i18n puts Yui's windows in the user's language (docs/product.md
// §13): it loads the translations of assets/lang into Fyne's lang package,
// picks the language (the settings' language, else the system's, else
// English) and finds a system font with CJK glyphs for the theme.
//
// Every window string goes through lang.L (the English text is the key) or
// lang.N for plurals; the lower layers (pet, pet/settings) hand up English
// texts or codes that the windows translate with lang.L at the point they
// show them.
package i18n

import (
	"log/slog"
	_ "unsafe" // go:linkname

	"fyne.io/fyne/v2/lang"
	"golang.org/x/text/language"

	"yui/assets"
	"yui/pet/settings"
)

// codeKey is a key each translation file maps to its own code, so the
// language in use is read back from Fyne's lang itself: no state here.
const codeKey = "i18n.code"

// Loading happens in init, when Fyne's lang package has just initialised
// and before main: lang.AddTranslationsFS reads the locale environment,
// which cmd/yui/localeenv keeps quiet until main starts.
func init() {
	if err := lang.AddTranslationsFS(assets.Lang, "lang"); err != nil {
		slog.Error("translations", "err", err)
	}
	Use(settings.LanguageEnglish) // until the app picks: never Fyne's own guess
}

// setupLang is Fyne's own way to set the localizer to one language, which
// lang's tests use to override the system; lang has no exported setter
// (fyne.io/fyne/v2/lang/lang.go). A Fyne without it fails to link, not
// silently.
//
//go:linkname setupLang fyne.io/fyne/v2/lang.setupLang
func setupLang(lang string)

// Use makes l (a shipped language; the system's for LanguageSystem) the
// language of every string translated from now on, and returns the one in
// use. Call it before the windows open: Fyne keeps no record of which
// texts were translated, so an open window keeps its language.
func Use(l settings.Language) settings.Language {
	if l == settings.LanguageSystem || !l.Valid() {
		l = Match(SystemLanguages())
	}
	setupLang(string(l))
	return Current()
}

// Current is the language in use.
func Current() settings.Language {
	return settings.Language(lang.X(codeKey, string(settings.LanguageEnglish)))
}

// Match picks the shipped language closest to the given BCP 47 tags, the
// user's order first; English when none is close.
func Match(tags []string) settings.Language {
	shipped := settings.ShippedLanguages()
	supported := make([]language.Tag, len(shipped))
	for i, l := range shipped {
		supported[i] = language.MustParse(string(l))
	}
	m := language.NewMatcher(supported)
	for _, t := range tags {
		tag, err := language.Parse(t)
		if err != nil {
			continue
		}
		if _, i, conf := m.Match(tag); conf >= language.High {
			return shipped[i]
		}
	}
	return settings.LanguageEnglish
}

// IsCJK reports whether l is written in Chinese, Japanese or Korean
// script, which Fyne's own font has no glyphs for.
func IsCJK(l settings.Language) bool {
	return l == settings.LanguageJapanese || l == settings.LanguageKorean || l == settings.LanguageChinese
}
