package app

import (
	"fmt"
	"os/exec"
	"runtime"

	"fyne.io/fyne/v2"

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

// settingsApp is the app as the settings window's pages see it: one
// small type per concern, each answering its page's interface.
func (y *yui) settingsApp() settingswindow.App {
	sound := soundCheck{out: y.audio, voiceIn: y.cfg.VoiceIn, log: y.log}
	return settingswindow.App{
		Presets:      y,
		Connection:   prober{log: y.log},
		Speech:       sound,
		Voice:        sound,
		AudioServers: &y.servers,
		Welcomer:     y.first,
		DesktopSetup: desktopSetup{desk: y.desk, configDir: y.configDir, log: y.log},
		Housekeeping: housekeeping{logDir: y.logDir, showPets: y.bringForward},
		Memory:       &y.facts,
	}
}

// The app's parts implement every interface the windows declare of them.
var (
	_ messagewindow.App           = (*yui)(nil)
	_ settingswindow.Presets      = (*yui)(nil)
	_ settingswindow.Connection   = prober{}
	_ settingswindow.Speech       = soundCheck{}
	_ settingswindow.Voice        = soundCheck{}
	_ settingswindow.AudioServers = (*localServers)(nil)
	_ settingswindow.Welcomer     = (*firstRun)(nil)
	_ settingswindow.DesktopSetup = desktopSetup{}
	_ settingswindow.Housekeeping = housekeeping{}
	_ settingswindow.Memory       = (*factStores)(nil)
	// The optional abilities the settings window asserts of its Presets
	// (tools.go, screenlook.go).
	_ interface{ MCP() *mcp.Manager }               = (*yui)(nil)
	_ interface{ ScreenStatus() look.ScreenStatus } = (*yui)(nil)
)

// housekeeping is the App tab's log folder and its way back to hidden
// pets (settingswindow.Housekeeping).
type housekeeping struct {
	logDir   string
	showPets func() // shows every running pet; UI thread
}

// ShowPets shows every running pet (the settings window's way back for a
// hidden pet).
func (h housekeeping) ShowPets() { fyne.Do(h.showPets) }

// LogDir is the log folder.
func (h housekeeping) LogDir() string { return h.logDir }

// OpenLogFolder shows the log folder in the file manager.
func (h housekeeping) OpenLogFolder() error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "windows":
		cmd = exec.Command("explorer", h.logDir)
	case "darwin":
		cmd = exec.Command("open", h.logDir)
	default:
		cmd = exec.Command("xdg-open", h.logDir)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open the log folder %s: %w", h.logDir, err)
	}
	go cmd.Wait() // reap it
	return nil
}
