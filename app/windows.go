package app

import (
	"fyne.io/fyne/v2"

	"yui/windows"
)

// windowSet holds the settings window and the message windows, opened on
// demand and reused. UI thread only.
type windowSet struct {
	settings *windows.SettingsWindow
	messages map[string]fyne.Window
}

// openMessages opens (or raises) the message window of a preset.
func (y *yui) openMessages(presetID string) {
	if w, ok := y.wins.messages[presetID]; ok {
		w.Show()
		w.RequestFocus()
		return
	}
	if y.wins.messages == nil {
		y.wins.messages = map[string]fyne.Window{}
	}
	w := windows.ShowPlaceholder(y.app, "Yui — messages", "The message window is on its way.")
	w.SetOnClosed(func() { delete(y.wins.messages, presetID) })
	y.wins.messages[presetID] = w
	y.log.Info("window_open", "window", "messages", "preset", presetID)
}

// openSettings opens (or raises) the settings window on a preset ("" is
// the active one).
func (y *yui) openSettings(presetID string) {
	if y.wins.settings == nil {
		y.wins.settings = windows.NewSettingsWindow(y.app, y, y.log)
	}
	y.wins.settings.Show(presetID)
}
