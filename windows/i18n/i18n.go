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

// English is loaded in init, before main, and each other language when
// Use picks it: parsing all six files took 23 ms of every start,
// before the pet's first frame (docs/performance.md), for one language
// used. The files go to Fyne's bundle through lang's own addLanguage,
// which leaves the localizer alone: lang.AddTranslations* also set it
// from the locale environment, which Fyne logs an error for when it
// cannot parse it (cmd/yui/localeenv keeps it quiet only until main).
func init() {
	if err := load(settings.LanguageEnglish); err != nil {
		slog.Error("translations", "language", string(settings.LanguageEnglish), "err", err)
	}
	Use(settings.LanguageEnglish) // until the app picks: never Fyne's own guess
}

// load adds language l's translations (assets/lang) to Fyne's bundle.
func load(l settings.Language) error {
	name := string(l) + ".json"
	data, err := assets.Lang.ReadFile("lang/" + name)
	if err != nil {
		return err
	}
	return addLanguage(data, name)
}

// addLanguage parses one translation file into Fyne's bundle, the
// language named by the file (fyne.io/fyne/v2/lang/lang.go); like
// setupLang, a Fyne without it fails to link.
//
//go:linkname addLanguage fyne.io/fyne/v2/lang.addLanguage
func addLanguage(data []byte, name string) error

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
	// Loaded each time it is picked (the app picks once, at start): 3 ms,
	// where asking lang whether it has a language's texts already logs a
	// "Translation failure" when it has not, and lang's own list of
	// languages holds Fyne's translations of its widgets too.
	if l != settings.LanguageEnglish {
		if err := load(l); err != nil {
			slog.Error("translations", "language", string(l), "err", err)
		}
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
