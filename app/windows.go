package app

import (
	"yui/windows/messagewindow"
	"yui/windows/settingswindow"
)

// windowSet holds the settings window and the message windows, opened on
// demand and reused. UI thread only.
type windowSet struct {
	settings *settingswindow.SettingsWindow
	messages map[string]*messagewindow.MessageWindow
}

// openMessages opens (or raises) the message window of a preset.
func (y *yui) openMessages(presetID string) {
	w, ok := y.wins.messages[presetID]
	if !ok {
		if y.wins.messages == nil {
			y.wins.messages = map[string]*messagewindow.MessageWindow{}
		}
		w = messagewindow.NewMessageWindow(y.app, y, presetID, y.log)
		y.wins.messages[presetID] = w
	}
	w.Show()
}

// openSettings opens (or raises) the settings window on a preset ("" is
// the active one).
// openPermissions opens the settings window on its App tab, where the
// screen-look permission is (the watching sign's tap).
func (y *yui) openPermissions() {
	y.openSettings("")
	y.wins.settings.ShowApp()
}

func (y *yui) openSettings(presetID string) {
	if y.wins.settings == nil {
		y.wins.settings = settingswindow.NewSettingsWindow(y.app, y, y.log)
	}
	y.wins.settings.Show(presetID)
}
