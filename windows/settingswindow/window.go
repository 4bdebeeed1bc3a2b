// Package settingswindow is the settings window: the preset list, each
// preset's editor (connection, character, speech, voice, screen), the
// running session's readout and delegation history, and the App tab. It
// sees the app through App (one small interface per page) and
// windows.Session and writes through
// the settings store.
package settingswindow

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"

	"yui/pet/settings"
	"yui/windows"
	"yui/windows/i18n"
)

// Settings window size: it fits a 1280x800 screen with room for the
// desktop's panels; every tab scrolls inside.
const (
	settingsWidth  = 1100
	settingsHeight = 720
)

// Waits of the buttons that ask the backend something.
const (
	probeTimeout = 10 * time.Second
	speakTimeout = 30 * time.Second
	voiceTimeout = 20 * time.Second
)

// SettingsWindow is the settings window (docs/product.md §3): the presets list
// on the left, the selected preset's editor, connection, session, speech
// and voice tabs on the right, and the app-wide settings. It edits through
// the App's settings store and mirrors the running presets'
// connections; it opens none of its own.
//
// Its methods are called on the Fyne UI thread.
type SettingsWindow struct {
	app fyne.App
	b   App
	log *slog.Logger

	win      fyne.Window // nil while closed
	ctx      context.Context
	cancel   context.CancelFunc
	unsub    []func()
	selected string

	list    *presetList
	ed      *presetEditor
	conn    *connSection
	session *delegationSection
	memory  *factsSection
	life    *lifeSection // the Life tab (life.go)
	global  *globalSection
	gallery *gallery
	tools   *toolsSection // tools.go
	tabs    *container.AppTabs
	welcome *welcomePage      // welcome.go
	main    fyne.CanvasObject // the presets and tabs, what the welcome page leaves for

	now func() time.Time // the clock; tests set their own

	// jobs counts the backend calls running (probe, speech and voice
	// tests), so that tests can wait for their results.
	jobs sync.WaitGroup
}

// App is the app as the settings window's pages see it: one small
// interface per page, each defined beside the page that uses it (net/http's
// Handler is the model), and the app in every field (app/windows.go). A
// page finds an optional ability by asserting it on the app in Presets
// (the Tools tab's MCP manager, tools.go; the App tab's screen-look
// status, screenlook.go).
type App struct {
	Presets      // every page: the settings store and the running presets
	Connection   // the connection test (editor.go, welcome.go)
	Speech       // the Speech tab (audio.go)
	Voice        // the Voice tab and the App tab's devices (audio.go)
	AudioServers // the speech and transcription servers (servers.go)
	Welcomer     // the welcome page (welcome.go)
	DesktopSetup // the App tab's desktop row (desktop.go)
	Housekeeping // the App tab's log folder and hidden pets (app.go)
	Memory       // the Memory tab (facts.go)
}

// Presets is what every page asks the app: the settings and the running
// presets.
type Presets interface {
	// Store is the settings store: read it, update it, subscribe to it.
	// An edit saved there applies live (the app subscribes too).
	Store() *settings.Store
	// Session returns the running preset's session, nil when the preset
	// is not running (disabled, or failed to start).
	Session(presetID string) windows.Session
	// WatchSessions calls fn (from any goroutine) whenever a preset starts or
	// stops running, until cancel.
	WatchSessions(fn func()) (cancel func())
}

// NewSettingsWindow returns the settings window, closed; Show opens it.
func NewSettingsWindow(a fyne.App, b App, log *slog.Logger) *SettingsWindow {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &SettingsWindow{app: a, b: b, log: log, now: time.Now}
}

// Show opens the window, or raises it, with preset presetID selected; ""
// selects the active preset.
func (w *SettingsWindow) Show(presetID string) {
	st := w.b.Store().Get()
	if _, ok := st.Preset(presetID); !ok {
		if p, ok := st.Active(); ok {
			presetID = p.ID
		}
	}
	if w.win == nil {
		w.open(st)
	} else {
		w.showMain() // off the welcome page
	}
	w.selectPreset(presetID)
	w.win.Show()
	w.win.RequestFocus()
	w.log.Info("window_open", "window", "settings", "preset", presetID)
}

// ShowApp opens the window, or raises it, on the App tab: the app-wide
// settings, the screen-look permission among them.
func (w *SettingsWindow) ShowApp() {
	if w.win == nil {
		w.Show("")
	}
	for i, it := range w.tabs.Items {
		if it.Text == lang.L("App") {
			w.tabs.SelectIndex(i)
		}
	}
	w.win.Show()
}

// Close closes the window; Show opens it again.
func (w *SettingsWindow) Close() {
	if w.win != nil {
		w.win.Close()
	}
}

func (w *SettingsWindow) open(st settings.Settings) {
	w.ctx, w.cancel = context.WithCancel(context.Background())
	w.win = w.app.NewWindow(lang.L("Yui settings"))
	w.list = newPresetList(w)
	w.ed = newPresetEditor(w)
	w.conn = newConnSection(w)
	w.session = newSessionSection(w)
	w.memory = newFactsSection(w)
	w.life = newLifeSection(w)
	w.global = newGlobalSection(w)
	w.gallery = newGallery(w)

	w.tabs = container.NewAppTabs(
		container.NewTabItem(lang.L("Preset"), w.ed.presetTab()),
		container.NewTabItem(lang.L("Connection"), w.conn.content()),
		container.NewTabItem(lang.L("Session"), w.session.content()),
		container.NewTabItem(lang.L("Speech"), w.ed.speechTab()),
		container.NewTabItem(lang.L("Voice"), w.ed.voiceTab()),
		container.NewTabItem(lang.L("App"), w.global.content()),
		// New tabs come last so that the tabs before them keep their
		// places: Memory and Characters, then Life and Tools.
		container.NewTabItem(lang.L("Memory"), w.memory.content()),
		container.NewTabItem(lang.L(charactersTab), w.gallery.content()),
		container.NewTabItem(lang.L("Life"), w.life.content()),
		container.NewTabItem(lang.L(toolsTab), w.toolsContent()), // tools.go
	)
	w.tabs.OnSelected = func(t *container.TabItem) {
		w.log.Debug("settings_tab", "tab", t.Text)
		// The level meter listens only while the Voice tab shows; the
		// voices and the speakers are listed when their tab first shows
		// (listing runs a program or asks the audio system).
		if t.Text == lang.L("Voice") {
			w.ed.audioTabShown() // servers.go
			w.ed.startMeter()
		} else {
			w.ed.stopMeter()
		}
		if t.Text == lang.L(charactersTab) {
			w.gallery.refresh() // packs are read when the tab is shown
		}
		switch t.Text {
		case lang.L("Speech"):
			w.ed.audioTabShown() // servers.go
			w.ed.loadVoices()
		case lang.L("App"):
			w.global.loadSpeakers()
			w.global.desktop.load()
		case lang.L(toolsTab):
			w.tools.refresh() // the selected preset's servers
		}
	}
	right := container.NewBorder(nil, w.ed.bar(), nil, nil, w.tabs)
	split := container.NewHSplit(w.list.content(), right)
	split.Offset = 0.24
	w.main = split
	w.welcome = newWelcomePage(w)
	if found := w.b.FoundServers(); len(found) > 0 {
		w.welcome.showFound(found)
	}
	w.win.SetContent(split)
	w.win.Resize(fyne.NewSize(settingsWidth, settingsHeight))
	w.win.SetOnClosed(w.closed)
	w.win.SetCloseIntercept(w.closeRequested)
	w.win.SetOnDropped(w.gallery.dropped)

	w.list.refresh(st)
	w.global.refresh(st)
	store := w.b.Store()
	w.unsub = append(w.unsub,
		store.Subscribe(func(c settings.Change) { fyne.Do(func() { w.storeChanged(c) }) }),
		w.b.WatchSessions(func() { fyne.Do(w.connsChanged) }),
	)
}

// closeRequested is the user closing the window: unsaved edits are not
// dropped without asking. Close (the app's) does not ask.
func (w *SettingsWindow) closeRequested() {
	if !w.ed.dirty() {
		w.win.Close()
		return
	}
	d := dialog.NewConfirm(lang.L("Unsaved changes"),
		lang.L("Preset “{{.Name}}” has changes that are not saved.\nClose the window and leave them?", map[string]any{"Name": w.ed.draft.Name}),
		func(ok bool) {
			if ok && w.win != nil {
				w.win.Close()
			}
		}, w.win)
	d.SetConfirmText(lang.L("Close without saving"))
	d.SetDismissText(lang.L("Keep editing"))
	d.Show()
}

// closed drops what the open window held: subscriptions, the watch of the
// selected preset's connection, and backend calls under way.
func (w *SettingsWindow) closed() {
	for _, fn := range w.unsub {
		fn()
	}
	w.unsub = nil
	w.conn.detach()
	w.memory.detach()
	w.cancel()
	if w.gallery.anim != nil {
		w.gallery.anim.Stop()
	}
	w.win = nil
	w.selected = ""
}

// selectPreset shows preset id in the editor and the sections. Unsaved
// edits of another preset are kept unless the user lets them go.
func (w *SettingsWindow) selectPreset(id string) {
	if id == w.selected {
		w.list.sync(id)
		return
	}
	if w.selected != "" && w.ed.dirty() {
		prev := w.selected
		w.list.sync(prev)
		name := w.ed.draft.Name
		d := dialog.NewConfirm(lang.L("Unsaved changes"),
			lang.L("Preset “{{.Name}}” has changes that are not saved.\nLeave them and open the other preset?", map[string]any{"Name": name}),
			func(ok bool) {
				if ok && w.win != nil && w.selected == prev {
					w.setSelected(id)
				}
			}, w.win)
		d.SetConfirmText(lang.L("Leave them"))
		d.SetDismissText(lang.L("Keep editing"))
		d.Show()
		return
	}
	w.setSelected(id)
}

func (w *SettingsWindow) setSelected(id string) {
	w.selected = id
	w.list.sync(id)
	p, ok := w.b.Store().Preset(id)
	if !ok {
		return
	}
	w.ed.load(p)
	w.conn.attach(id)
	w.memory.attach(id, p)
	w.life.attach(id, p)
}

// storeChanged follows a saved change made here or anywhere else.
func (w *SettingsWindow) storeChanged(c settings.Change) {
	if w.win == nil {
		return
	}
	w.list.refresh(c.New)
	if c.Global {
		w.global.refresh(c.New)
	}
	if _, ok := c.New.Preset(w.selected); !ok {
		// Deleted (here or elsewhere): its edits go with it.
		w.selected = ""
		w.ed.forget()
		if p, ok := c.New.Active(); ok {
			w.setSelected(p.ID)
		}
		return
	}
	if c.PresetChanged(w.selected) {
		p, _ := c.New.Preset(w.selected)
		w.ed.changedElsewhere(*p)
	}
	if w.conn.running() == nil {
		w.session.show(c.New.DelegationHistory[w.selected])
	}
}

func (w *SettingsWindow) connsChanged() {
	if w.win != nil && w.selected != "" {
		w.conn.attach(w.selected)
	}
}

// run does work off the UI thread with a timeout and hands its result
// function to the UI thread; results arriving after the window closed
// are dropped.
func (w *SettingsWindow) run(timeout time.Duration, work func(ctx context.Context) func()) {
	ctx, cancel := context.WithTimeout(w.ctx, timeout)
	win := w.win
	w.jobs.Add(1)
	go func() {
		defer w.jobs.Done()
		defer cancel()
		done := work(ctx)
		fyne.Do(func() {
			if w.win == win && done != nil {
				done()
			}
		})
	}()
}

func (w *SettingsWindow) showError(err error) {
	if w.win != nil {
		dialog.ShowError(errors.New(i18n.Error(err)), w.win) // the dialog shows err.Error()
	}
}
