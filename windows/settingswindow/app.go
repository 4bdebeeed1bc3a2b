package settingswindow

import (
	"context"
	"errors"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
)

var (
	screenLookOptions = []option{{settings.ScreenLookUnset, "Ask"}, {settings.ScreenLookAllowed, "Allowed"},
		{settings.ScreenLookRefused, "Refused"}}
	logLevelOptions = []option{{"debug", "Debug"}, {"info", "Info"}, {"warn", "Warnings"}, {"error", "Errors"}}
)

// globalSection holds the settings of the whole app: permissions and
// logs. Each change saves at once.
type globalSection struct {
	w          *SettingsWindow
	screenLook *choice
	browser    *widget.Check
	// browserLocal lets the browser tool open pages on this computer and
	// the local network.
	browserLocal *widget.Check
	startup      *widget.Check
	logLevel     *choice
	logDir       *widget.Label
	openLogs     *widget.Button
	showPets     *widget.Button
	keys         *widget.Label // where the keys are: the keyring or settings.json
	result       *widget.Label
	speakers     *choice
	soundNote    *widget.Label
	filling      bool
}

func newGlobalSection(w *SettingsWindow) *globalSection {
	g := &globalSection{w: w}
	g.screenLook = newChoice(screenLookOptions, func(v string) {
		g.save(func(s *settings.Settings) bool { return set(&s.ScreenLook, v) })
	})
	g.browser = widget.NewCheck("Let the character browse the web (needs a Chromium-family browser)", func(b bool) {
		g.save(func(s *settings.Settings) bool { return set(&s.BrowserTool, b) })
	})
	g.browserLocal = widget.NewCheck("The browser may open pages on this computer and the local network", func(b bool) {
		g.save(func(s *settings.Settings) bool { return set(&s.BrowserLocal, b) })
	})
	g.startup = widget.NewCheck("Start Yui when I log in", func(b bool) {
		g.save(func(s *settings.Settings) bool { return set(&s.StartAtLogin, b) })
	})
	g.logLevel = newChoice(logLevelOptions, func(v string) {
		g.save(func(s *settings.Settings) bool { return set(&s.LogLevel, v) })
	})
	g.logDir = widget.NewLabel(w.b.LogDir())
	g.logDir.Selectable = true
	g.logDir.Wrapping = fyne.TextWrapBreak
	g.openLogs = widget.NewButtonWithIcon("Open log folder", theme.FolderOpenIcon(), func() {
		if err := w.b.OpenLogFolder(); err != nil {
			g.result.Importance = widget.DangerImportance
			g.result.SetText("Could not open it: " + err.Error())
			return
		}
		g.result.SetText("")
	})
	g.showPets = widget.NewButtonWithIcon("Show every pet", theme.VisibilityIcon(), w.b.ShowPets)
	g.result = widget.NewLabel("")
	g.result.Wrapping = fyne.TextWrapWord
	g.keys = helpText(w.b.Store().KeysNote())
	g.speakers = newChoice([]option{{defaultDevice, "System default"}}, func(v string) {
		g.save(func(s *settings.Settings) bool { return set(&s.Speakers, v) })
	})
	g.soundNote = helpText(speakersNote)
	return g
}

// speakersNote says why speech follows the system's default output: the
// audio library Yui plays through (oto) opens the default device only.
const speakersNote = "Speech plays through the system's default output on every platform: the audio library Yui " +
	"uses opens no other device. The choice is kept, and to hear Yui elsewhere, make that device the default in " +
	"the system's sound settings."

// loadSpeakers lists the audio outputs into the speakers picker, off the
// UI goroutine.
func (g *globalSection) loadSpeakers() {
	g.w.run(voiceListWait, func(context.Context) func() {
		d, err := g.w.b.AudioDevices()
		return func() {
			opts := []option{{defaultDevice, "System default"}}
			for _, o := range d.Outputs {
				opts = append(opts, option{o.Name, o.Name})
			}
			g.filling = true
			g.speakers.SetOptions(opts)
			g.speakers.SetValue(g.w.b.Store().Get().Speakers)
			g.filling = false
			if err != nil {
				g.soundNote.SetText("No audio devices: " + err.Error())
			} else if len(d.Outputs) == 0 {
				g.soundNote.SetText("This machine has no audio output: speech shows in the bubble.")
			}
		}
	})
}

func (g *globalSection) content() fyne.CanvasObject {
	note := helpText("These settings apply to every preset and save as soon as they change.")
	lookHelp := helpText("Whether the character may take a screenshot when it asks to look at the screen. " +
		"Ask shows a prompt the first time.")
	return page(note, rows(
		heading("Permissions"),
		[]fyne.CanvasObject{formLabel("Screen look"), container.NewVBox(g.screenLook.Select, lookHelp)},
		[]fyne.CanvasObject{formLabel("Browser tool"), container.NewVBox(g.browser, g.browserLocal, helpText(
			"Off, the browser opens public web pages only: a page on this computer (127.0.0.1, localhost) or "+
				"the local network (a router, a printer, 192.168.x.x, a cloud metadata address) is refused."))},
		[]fyne.CanvasObject{formLabel("Keys"), g.keys},
		heading("Pets"),
		[]fyne.CanvasObject{formLabel("Start at login"), g.startup},
		[]fyne.CanvasObject{formLabel("Hidden pets"), container.NewVBox(container.NewHBox(g.showPets),
			helpText("Brings back every pet hidden from its menu (so does Ctrl+Alt+Y, or the tray)."))},
		heading("Sound"),
		[]fyne.CanvasObject{formLabel("Speakers"), container.NewVBox(g.speakers.Select, g.soundNote)},
		heading("Logs"),
		[]fyne.CanvasObject{formLabel("Log level"), g.logLevel.Select},
		[]fyne.CanvasObject{formLabel("Log folder"), container.NewVBox(g.logDir,
			container.NewHBox(g.openLogs), g.result)},
	))
}

// refresh shows st's global settings.
func (g *globalSection) refresh(st settings.Settings) {
	g.filling = true
	defer func() { g.filling = false }()
	g.screenLook.SetValue(st.ScreenLook)
	g.browser.SetChecked(st.BrowserTool)
	g.browserLocal.SetChecked(st.BrowserLocal)
	g.startup.SetChecked(st.StartAtLogin)
	g.logLevel.SetValue(st.LogLevel)
	g.speakers.SetValue(st.Speakers)
}

// save applies fn to the settings; fn reports whether it changed them.
func (g *globalSection) save(fn func(s *settings.Settings) bool) {
	if g.filling {
		return
	}
	changed := false
	err := g.w.b.Store().Update(func(s *settings.Settings) error {
		changed = fn(s)
		if !changed {
			return errUnchanged
		}
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		g.result.Importance = widget.DangerImportance
		g.result.SetText(fmt.Sprintf("Not saved: %v", err))
		g.refresh(g.w.b.Store().Get())
	}
}

// errUnchanged stops an Update that would change nothing.
var errUnchanged = errors.New("unchanged")

// set stores v in *p and reports whether that changed it.
func set[T comparable](p *T, v T) bool {
	if *p == v {
		return false
	}
	*p = v
	return true
}
