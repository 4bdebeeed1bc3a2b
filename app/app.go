// Package app wires Yui together: the settings store, the log, one session
// per enabled preset (transport, pet controller, tools and pet window)
// started, stopped and restarted live as the settings change, the
// settings and message windows, the tray menu, the --demo simulator, one
// running Yui per config directory, and a clean shutdown.
package app

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"fyne.io/fyne/v2"

	"yui/app/motionpref"
	"yui/pet/settings"
	"yui/tools/desktop"
	"yui/tools/look"
	"yui/tools/mcp"
)

// AppID is Yui's application id (FyneApp.toml).
const AppID = "io.github.yui.desktop"

// Config is what the command line gives Run.
type Config struct {
	// ConfigDir isolates settings and logs; "" is os.UserConfigDir()/yui
	// (logs under os.UserCacheDir()/yui/logs).
	ConfigDir string
	// Demo starts the push simulator on loopback and runs a demo preset
	// against it instead of the saved presets, which stay untouched.
	Demo bool
	// Verbose mirrors the log to stderr.
	Verbose bool
	// ChatAPI, ChatBaseURL, Model and Key override the active preset's
	// fields for this run only; "" keeps the saved value. Nothing is saved.
	ChatAPI, ChatBaseURL, Model, Key string
	// AudioOut, when set, is a WAV file every pet's speech is also written to, mixed (speech.go).
	AudioOut string
	// VoiceIn is a WAV file that replaces the main pet's microphone (voice.go).
	VoiceIn string
	// VoiceDebug, when set, is a directory the main pet's voice input writes
	// its raw microphone, reference and cleaned stream to (handsfree.go).
	VoiceDebug string
	// StatsEvery, when positive, logs a runtime_stats record at that
	// interval (stats.go): what soak runs and the performance report read.
	StatsEvery time.Duration
}

// ErrAlreadyRunning is Run's error when another Yui runs on the same
// config directory; that Yui was asked to bring its pets forward.
var ErrAlreadyRunning = errors.New("Yui is already running with this config directory: its pets were brought forward")

// Run starts Yui and returns when the user quits or the process gets
// SIGINT or SIGTERM. Each step is a function of start.go; what a step
// opens is closed, in the reverse order, as Run returns.
func Run(cfg Config) error {
	dir, err := configDir(cfg)
	if err != nil {
		return err
	}
	// One Yui per config directory: a second start asks the first to
	// show its pets and leaves.
	inst, err := claimInstance(dir)
	if err != nil {
		return err
	}
	defer inst.Close()
	var down teardown
	defer down.run()

	// Before the first window's GL context (softgl.go); put back once the
	// pets' windows have theirs.
	restoreSoftGL := useLeanSoftGL()
	a, fonts := newFyneApp()
	base, err := openSettingsAndLog(cfg, dir, &down)
	if err != nil {
		return err
	}
	out, err := startAudioOut(cfg.AudioOut, base.log, fonts, &down)
	if err != nil {
		return err
	}
	// What waits on a device or another process starts now and is taken
	// where it is needed (preload.go): none of it needs Fyne.
	deskLater := startLater(func() deskOpened { return openDeskSide(base.log) }) // desktop_session.go
	motionLater := startLater(motionpref.Reduced)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	down.add(stop)
	chooseLanguage(ctx, a, base.store, base.log) // before any window (language.go)

	y := newYui(a, cfg, base, out, &down)
	y.useDesktop(motionLater.get(), deskLater, &down)
	welcomeID, err := y.startPets(&down)
	if err != nil {
		y.log.Error("app_start_failed", "err", err.Error())
		return err
	}
	restoreSoftGL()
	y.loads = nil // a load no pet took (its preset did not start) lets its files go
	// Edits apply live, on the UI thread, in save order.
	down.add(y.store.Subscribe(func(c settings.Change) {
		base.applySecrets(c.New)
		fyne.Do(func() { y.apply(c) })
	}))
	inst.onEvent = y.lifeEvent // yui event (event.go)
	inst.serve(func() { fyne.Do(y.bringForward) })
	go freeStartGarbage()
	y.showStart(base.notice, welcomeID, &down)
	y.runUntilQuit(ctx, stop)
	return nil
}

// runUntilQuit runs the UI loop until Quit or a signal (ctx; stop ends the
// signal watch), then closes the sessions and waits for them.
func (y *yui) runUntilQuit(ctx context.Context, stop context.CancelFunc) {
	running := make(chan struct{})
	statsDone := make(chan struct{})
	if y.cfg.StatsEvery > 0 {
		go func() { defer close(statsDone); logStats(y.log, y.cfg.StatsEvery, running) }()
	} else {
		close(statsDone)
	}
	go func() {
		select {
		case <-ctx.Done(): // SIGINT or SIGTERM
			// Fyne stops its own loop on these signals; closing the
			// windows from here as well races with that stop and can
			// call into a GLFW already terminated. So only mark the
			// quit, and Run returns through Fyne's handler.
			y.log.Info("app_signal")
			y.markQuit()
		case <-running:
		}
	}()
	// Fyne starts watching for signals only in Run: one that came
	// during start-up quits here, on the UI goroutine, once the loop runs.
	y.app.Lifecycle().SetOnStarted(func() {
		if ctx.Err() != nil {
			y.markQuit()
			y.app.Quit()
		}
	})
	y.app.Run()
	y.tray.stop() // after a signal, or if Run ended any other way

	close(running)
	<-statsDone
	stop()
	y.quitting.Store(true)
	y.first.close()
	y.closeSessions()
	y.closing.Wait()
	y.store.Close() // what the app learned last is on disk before app_quit
	y.log.Info("app_quit")
}

// yui is the running app: it composes the sessions, one per running
// preset, with the windows, the tray and the desktop, and hands each
// window the small types that answer its pages (windows.go).
type yui struct {
	app       fyne.App
	log       *slog.Logger
	release   *idleRelease
	store     *settings.Store
	configDir string
	logDir    string
	cfg       Config
	src       presetSource // the user's presets, or the demo's (source.go)
	audio     *audioOut    // the process's audio output (speech.go)
	desktopSide
	packs packCache  // scaled packs shared by the pets showing them (packs.go)
	loads *packLoads // the characters read during start-up (preload.go)
	pid   int
	mcp   *mcp.Manager // the user's MCP servers (mcp.go)

	roster roster // the running sessions (roster.go)

	shutdown

	wins windowSet // the settings and message windows (UI thread only)
	tray petTray   // the system tray, where there is one (tray.go)

	facts   factStores   // each preset's remembered facts (facts.go)
	servers localServers // the local servers found (servers.go)
	first   *firstRun    // the first start's scan and welcome page (firstrun.go); nil in tests
	tried   triedDemo    // the demo "Try the demo" started (firstrun.go)
}

// desktopSide is what the app knows of the desktop it runs on, read at
// start: the parts of yui the pets' tools and gates ask.
type desktopSide struct {
	desk  desktop.Desktop // the desktop layer; nil where there is none (tools.go)
	quiet *desktop.Quiet  // do-not-disturb (quiet.go)
	// reducedMotion is the desktop's reduced-motion wish, read at start:
	// the eyes then stay still.
	reducedMotion bool
	away          *desktop.Away // the user away from the keyboard; nil without idle time (quiet.go)
	// idle is the session's idle time, nil without one; screen its way
	// of screen looks, nil without a desktop layer (desktop_session.go).
	idle   desktop.IdleReader
	screen *look.SessionScreen
	// browserPath is the Chromium-family browser the browser tool runs; "" when none was found.
	browserPath string
}

// shutdown is the app's way out: the background closes it waits for and
// the flag that keeps anything from asking the UI once Fyne's loop ended.
type shutdown struct {
	closing  sync.WaitGroup // connections and transcripts closing in the background
	quitting atomic.Bool
	quitOnce sync.Once
}

// bringForward shows every pet (a second start, the shortcut, the tray).
func (y *yui) bringForward() {
	y.log.Info("pets_shown")
	for _, s := range y.roster.all() {
		s.win.Show()
	}
}

// quit closes every window and stops the app; Run then shuts down.
func (y *yui) quit() {
	if y.markQuit() {
		y.tray.stop() // while Fyne's loop still runs, which on Windows takes the icon away
		y.app.Quit()
	}
}

// markQuit records the quit once; it says whether this call was the first.
func (y *yui) markQuit() bool {
	first := false
	y.quitOnce.Do(func() {
		first = true
		y.log.Info("app_quit_requested")
		y.quitting.Store(true)
	})
	return first
}

// closeSessions closes every session.
func (y *yui) closeSessions() {
	for _, s := range y.roster.all() {
		y.stopSession(s.cfg().ID)
	}
}
