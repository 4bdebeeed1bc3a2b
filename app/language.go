package app

import (
	"context"
	"errors"
	"log/slog"

	"fyne.io/fyne/v2"

	"yui/pet/settings"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// useLanguage puts the app in the language setting's language (the
// system's for ""; docs/product.md §13) and, for a CJK language, looks for
// a system font with its glyphs off the UI goroutine: found, the theme
// draws text in it; none, one log line (the App tab names the package).
func useLanguage(ctx context.Context, a fyne.App, setting settings.Language, log *slog.Logger) {
	l := i18n.Use(setting)
	log.Info("language", "setting", string(setting), "system", i18n.SystemLanguages(), "using", string(l))
	if !i18n.IsCJK(l) {
		return
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
}
