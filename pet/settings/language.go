package settings

import "slices"

// Language is the global language setting (docs/product.md §13): the
// language of every window, the pill and the built-in characters' own
// lines. LanguageSystem follows the system's.
type Language string

// Languages Yui ships (assets/lang). The codes are BCP 47 tags, and the
// names of the translation files.
const (
	LanguageSystem   Language = ""
	LanguageEnglish  Language = "en"
	LanguageJapanese Language = "ja"
	LanguageKorean   Language = "ko"
	LanguageChinese  Language = "zh-Hans"
	LanguageSpanish  Language = "es"
	LanguageGerman   Language = "de"
)

// ShippedLanguages returns the languages Yui has translations for, in the
// order the App tab lists them (English, the fallback, first).
func ShippedLanguages() []Language {
	return []Language{LanguageEnglish, LanguageJapanese, LanguageKorean, LanguageChinese, LanguageSpanish, LanguageGerman}
}

// Valid reports whether l is LanguageSystem or a shipped language.
func (l Language) Valid() bool {
	return l == LanguageSystem || slices.Contains(ShippedLanguages(), l)
}

// validate is the language field's check, for Settings.Validate.
func (l Language) validate() []FieldError {
	if l.Valid() {
		return nil
	}
	return []FieldError{fieldErr("", "language", oneOf(append([]Language{LanguageSystem}, ShippedLanguages()...)...))}
}
