package i18n

import (
	"log/slog"

	"golang.org/x/sys/windows"
)

// SystemLanguages are the user's UI languages as BCP 47 tags, most wanted
// first (GetUserPreferredUILanguages: the display language the user chose
// in Windows' settings, then the others listed there).
func SystemLanguages() []string {
	langs, err := windows.GetUserPreferredUILanguages(windows.MUI_LANGUAGE_NAME)
	if err != nil {
		slog.Warn("ui_languages", "err", err)
		return nil
	}
	return langs
}
