package app

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"fyne.io/fyne/v2"

	"yui/pet/settings"
	"yui/pet/speech"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// useLanguage puts the app in the language setting's language (the
// system's for ""; docs/product.md §13) and, for a CJK language, looks for
// a system font with its glyphs off the UI goroutine: found, the theme
// draws text in it; none, one log line (the App tab names the package).
func useLanguage(ctx context.Context, a fyne.App, setting settings.Language, log *slog.Logger) settings.Language {
	l := i18n.Use(setting)
	log.Info("language", "setting", string(setting), "system", i18n.SystemLanguages(), "using", string(l))
	if !i18n.IsCJK(l) {
		return l
	}
	go func() {
		f, err := i18n.FindFont(ctx, l)
		if err != nil {
			if errors.Is(err, i18n.ErrNoFont) {
				log.Warn("cjk_font_missing", "language", string(l), "install", i18n.FontPackage)
			} else {
				log.Warn("cjk_font_missing", "language", string(l), "err", err.Error(), "install", i18n.FontPackage)
			}
			fyne.Do(func() { a.Settings().SetTheme(widgets.ThemeFontMissing()) })
			return
		}
		log.Info("cjk_font", "language", string(l), "path", f.Path, "index", f.Index)
		fyne.Do(func() { a.Settings().SetTheme(widgets.ThemeWithFont(f.Resource)) })
	}()
	return l
}

// speechLanguages are the language codes system voices name each shipped
// language by, best first: espeak-ng's ("ja", "cmn" for Mandarin) and, as
// prefixes of a culture, SAPI's ("ja-JP", "zh-CN").
func speechLanguages(l settings.Language) []string {
	switch l {
	case settings.LanguageJapanese:
		return []string{"ja"}
	case settings.LanguageKorean:
		return []string{"ko"}
	case settings.LanguageChinese:
		return []string{"cmn", "zh-cn", "zh"}
	case settings.LanguageSpanish:
		return []string{"es"}
	case settings.LanguageGerman:
		return []string{"de"}
	}
	return nil
}

// voiceFor picks the system voice that speaks l: a voice of exactly that
// language first, then one of a region of it; "" when none does.
func voiceFor(vs []speech.Voice, l settings.Language) string {
	want := speechLanguages(l)
	for _, w := range want {
		for _, v := range vs {
			if strings.EqualFold(v.Language, w) {
				return v.ID
			}
		}
	}
	for _, w := range want {
		for _, v := range vs {
			if strings.HasPrefix(strings.ToLower(v.Language), w+"-") {
				return v.ID
			}
		}
	}
	return ""
}

// whisperLanguage is the ISO 639-1 code a Whisper-compatible server takes
// in its "language" form field (pet/voice/openai.go).
func whisperLanguage(l settings.Language) string {
	if l == settings.LanguageChinese {
		return "zh"
	}
	return string(l)
}

// firstStartLanguage gives the first start's preset the language's voice
// (docs/product.md §13): the system engine's voice of l where the OS has
// one, and l for voice input. It lists the voices (a subprocess): call it
// off the UI goroutine. English keeps the engine's default.
func firstStartLanguage(ctx context.Context, store *settings.Store, id string, l settings.Language, log *slog.Logger) {
	if l == settings.LanguageEnglish {
		return
	}
	vs, err := speech.Voices(ctx, speech.EngineSystem)
	if err != nil {
		log.Info("first_start_voice", "language", string(l), "err", err.Error())
	}
	voice := voiceFor(vs, l)
	err = store.UpdatePreset(id, func(p *settings.Preset) error {
		if p.Speech.Engine == speech.EngineSystem && p.Speech.Voice == "" {
			p.Speech.Voice = voice
		}
		if p.Voice.Language == "" {
			p.Voice.Language = whisperLanguage(l)
		}
		return nil
	})
	if err != nil {
		log.Warn("first_start_voice", "language", string(l), "err", err.Error())
		return
	}
	log.Info("first_start_voice", "language", string(l), "voice", voice, "stt_language", whisperLanguage(l))
}
