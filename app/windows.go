package app

import (
	"yui/tools/look"
	"yui/tools/mcp"
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
		y.wins.settings = settingswindow.NewSettingsWindow(y.app, y.settingsApp(), y.log)
	}
	y.wins.settings.Show(presetID)
}

// settingsApp is the app as the settings window's pages see it: y in
// every field, one small interface per page.
func (y *yui) settingsApp() settingswindow.App {
	return settingswindow.App{Presets: y, Connection: y, Speech: y, Voice: y, AudioServers: y,
		Welcomer: y, DesktopSetup: y, Housekeeping: y, Memory: y}
}

// The app implements every interface the windows declare of it.
var (
	_ messagewindow.App           = (*yui)(nil)
	_ settingswindow.Presets      = (*yui)(nil)
	_ settingswindow.Connection   = (*yui)(nil)
	_ settingswindow.Speech       = (*yui)(nil)
	_ settingswindow.Voice        = (*yui)(nil)
	_ settingswindow.AudioServers = (*yui)(nil)
	_ settingswindow.Welcomer     = (*yui)(nil)
	_ settingswindow.DesktopSetup = (*yui)(nil)
	_ settingswindow.Housekeeping = (*yui)(nil)
	_ settingswindow.Memory       = (*yui)(nil)
	// The optional abilities the settings window asserts (tools.go, screenlook.go).
	_ interface{ MCP() *mcp.Manager }               = (*yui)(nil)
	_ interface{ ScreenStatus() look.ScreenStatus } = (*yui)(nil)
)
