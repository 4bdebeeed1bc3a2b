package settingswindow

import (
	"context"
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

var (
	screenLookOptions = []option{{settings.ScreenLookUnset, "Ask"}, {settings.ScreenLookAllowed, "Allowed"},
		{settings.ScreenLookRefused, "Refused"}}
	// languageOptions name each language in itself, the same in every
	// language file (assets/lang).
	languageOptions = []option{{string(settings.LanguageSystem), "The system's language"},
		{string(settings.LanguageEnglish), "English"}, {string(settings.LanguageJapanese), "日本語"},
		{string(settings.LanguageKorean), "한국어"}, {string(settings.LanguageChinese), "简体中文"},
		{string(settings.LanguageSpanish), "Español"}, {string(settings.LanguageGerman), "Deutsch"}}
	logLevelOptions = []option{{"debug", "Debug"}, {"info", "Info"}, {"warn", "Warnings"}, {"error", "Errors"}}
)

// Housekeeping is what the App tab asks the app beyond the devices and
// the desktop row.
type Housekeeping interface {
	// ShowPets shows every running pet, hidden ones included (the way
	// back for a pet hidden from its menu where there is no tray).
	ShowPets()
	// LogDir is the log folder; OpenLogFolder shows it in the file manager.
	LogDir() string
	OpenLogFolder() error
}

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
	language     *choice
	languageNote *widget.Label // applies after a restart; the font to install
	desktop      *desktopRow   // what Yui sees of the desktop's windows
	// lookNote says how screen looks work on this desktop (the portal on
	// Wayland), why they do not, and where the private-window rule
	// cannot be applied (screenlook.go); hidden when there is nothing to say.
	lookNote *widget.Label
	filling  bool
}

func newGlobalSection(w *SettingsWindow) *globalSection {
	g := &globalSection{w: w, desktop: newDesktopRow(w)}
	g.lookNote = helpText("")
	g.lookNote.Hide()
	g.screenLook = newChoice(screenLookOptions, func(v string) {
		g.save(func(s *settings.Settings) bool { return set(&s.ScreenLook, v) })
	})
	g.browser = widget.NewCheck(lang.L("Let the character browse the web (needs a Chromium-family browser)"), func(b bool) {
		g.save(func(s *settings.Settings) bool { return set(&s.BrowserTool, b) })
	})
	g.browserLocal = widget.NewCheck(lang.L("The browser may open pages on this computer and the local network"), func(b bool) {
		g.save(func(s *settings.Settings) bool { return set(&s.BrowserLocal, b) })
	})
	g.startup = widget.NewCheck(lang.L("Start Yui when I log in"), func(b bool) {
		g.save(func(s *settings.Settings) bool { return set(&s.StartAtLogin, b) })
	})
	g.logLevel = newChoice(logLevelOptions, func(v string) {
		g.save(func(s *settings.Settings) bool { return set(&s.LogLevel, v) })
	})
	g.logDir = widget.NewLabel(w.b.LogDir())
	g.logDir.Selectable = true
	g.logDir.Wrapping = fyne.TextWrapBreak
	g.openLogs = widget.NewButtonWithIcon(lang.L("Open log folder"), theme.FolderOpenIcon(), func() {
		if err := w.b.OpenLogFolder(); err != nil {
			g.result.Importance = widget.DangerImportance
			g.result.SetText(lang.L("Could not open it: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
			return
		}
		g.result.SetText("")
	})
	g.showPets = widget.NewButtonWithIcon(lang.L("Show every pet"), theme.VisibilityIcon(), w.b.ShowPets)
	g.result = widget.NewLabel("")
	g.result.Wrapping = fyne.TextWrapWord
	g.keys = helpText(w.b.Store().KeysNote())
	g.speakers = newChoice([]option{{defaultDevice, "System default"}}, func(v string) {
		g.save(func(s *settings.Settings) bool { return set(&s.Speakers, v) })
	})
	g.soundNote = helpText(lang.L(speakersNote))
	g.language = newChoice(languageOptions, func(v string) {
		g.save(func(s *settings.Settings) bool { return set(&s.Language, settings.Language(v)) })
	})
	g.languageNote = helpText(languageNote())
	fyne.CurrentApp().Settings().AddListener(func(fyne.Settings) {
		fyne.Do(func() { g.languageNote.SetText(languageNote()) })
	})
	return g
}

// languageNote says when a new language shows (Fyne keeps no record of
// which texts were translated, so open windows keep theirs) and, when the
// language's script found no font (app/language.go), what to install.
func languageNote() string {
	note := lang.L("A new language shows after a restart.")
	if i18n.IsCJK(i18n.Current()) && widgets.FontMissing(fyne.CurrentApp().Settings().Theme()) {
		note += "\n" + lang.L("No font with Chinese, Japanese or Korean characters was found, so they show as boxes. "+
			"Install {{.Package}} (or another CJK font) and restart Yui.", map[string]any{"Package": i18n.FontPackage})
	}
	return note
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
				g.soundNote.SetText(lang.L("No audio devices: {{.Reason}}", map[string]any{"Reason": i18n.Error(err)}))
			} else if len(d.Outputs) == 0 {
				g.soundNote.SetText(lang.L("This machine has no audio output: speech shows in the bubble."))
			}
		}
	})
}

func (g *globalSection) content() fyne.CanvasObject {
	note := helpText(lang.L("These settings apply to every preset and save as soon as they change."))
	lookHelp := helpText(lang.L("Whether the character may take a screenshot when it asks to look at the screen. " +
		"Ask shows a prompt the first time."))
	return page(note, rows(
		heading(lang.L("Permissions")),
		[]fyne.CanvasObject{formLabel(lang.L("Screen look")), container.NewVBox(g.screenLook.Select, lookHelp, g.lookNote)},
		[]fyne.CanvasObject{formLabel(lang.L("Browser tool")), container.NewVBox(g.browser, g.browserLocal, helpText(
			lang.L("Off, the browser opens public web pages only: a page on this computer (127.0.0.1, localhost) or "+
				"the local network (a router, a printer, 192.168.x.x, a cloud metadata address) is refused.")))},
		[]fyne.CanvasObject{formLabel(lang.L("Keys")), g.keys},
		heading(lang.L("Pets")),
		[]fyne.CanvasObject{formLabel(lang.L("Start at login")), g.startup},
		[]fyne.CanvasObject{formLabel(lang.L("Hidden pets")), container.NewVBox(container.NewHBox(g.showPets),
			helpText(lang.L("Brings back every pet hidden from its menu (so does Ctrl+Alt+Y, or the tray).")))},
		[]fyne.CanvasObject{formLabel(lang.L("Desktop")), g.desktop.box},
		heading(lang.L("Sound")),
		[]fyne.CanvasObject{formLabel(lang.L("Speakers")), container.NewVBox(g.speakers.Select, g.soundNote)},
		heading(lang.L("Language")),
		[]fyne.CanvasObject{formLabel(lang.L("Language")), container.NewVBox(g.language.Select, g.languageNote)},
		heading(lang.L("Logs")),
		[]fyne.CanvasObject{formLabel(lang.L("Log level")), g.logLevel.Select},
		[]fyne.CanvasObject{formLabel(lang.L("Log folder")), container.NewVBox(g.logDir,
			container.NewHBox(g.openLogs), g.result)},
	))
}

// refresh shows st's global settings.
func (g *globalSection) refresh(st settings.Settings) {
	g.filling = true
	defer func() { g.filling = false }()
	g.screenLook.SetValue(st.ScreenLook)
	g.showLookNote()
	g.browser.SetChecked(st.BrowserTool)
	g.browserLocal.SetChecked(st.BrowserLocal)
	g.startup.SetChecked(st.StartAtLogin)
	g.logLevel.SetValue(st.LogLevel)
	g.speakers.SetValue(st.Speakers)
	g.language.SetValue(string(st.Language))
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
		g.result.SetText(lang.L("Not saved: {{.Err}}", map[string]any{"Err": i18n.Error(err)}))
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
