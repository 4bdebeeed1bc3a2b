// Package app wires Yui together: the settings store, the log, one session
// per enabled preset (transport, pet controller, tools and pet window)
// started, stopped and restarted live as the settings change, the
// settings and message windows, the tray menu, the --demo simulator, one
// running Yui per config directory, and a clean shutdown.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"yui/app/applog"
	"yui/app/motionpref"
	"yui/assets"
	"yui/pet/secrets"
	"yui/pet/settings"
	"yui/tools/desktop"
	"yui/tools/look"
	"yui/tools/mcp"
	"yui/transport/clock"
	"yui/transport/outbox"
	"yui/windows/i18n"
	"yui/windows/widgets"
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
// SIGINT or SIGTERM.
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
	// The app and its theme first, so that the system's fonts are
	// scanned while the rest of start-up runs: the pet's first frame
	// waits for that scan (preload.go's warmFonts), not for the settings,
	// the log or the keyring.
	// Before the first window's GL context (softgl.go); put back once the
	// pets' windows have theirs.
	restoreSoftGL := useLeanSoftGL()
	a := fyneapp.NewWithID(AppID)
	// The windows' icon, 128 px: every window decodes it when it is made.
	a.SetIcon(fyne.NewStaticResource("window-icon.png", assets.WindowIcon))
	a.Settings().SetTheme(widgets.Theme())
	fonts := startLater(warmFonts) // preload.go

	secrets := applog.NewSecrets(cfg.Key)
	level := new(slog.LevelVar)
	store, notice, err := settings.Open(dir, settings.Options{})
	if err != nil {
		return fmt.Errorf("app: %w", err)
	}
	applySecrets := func(s settings.Settings) {
		secrets.Set(append(s.Secrets(), cfg.Key))
		if l, err := settings.ParseLogLevel(s.LogLevel); err == nil && !(cfg.Verbose && l > slog.LevelDebug) {
			level.Set(l)
		}
	}
	applySecrets(store.Get())
	// The characters load while the rest of start-up runs (preload.go).
	loads := startPackLoads(dir, startingPresets(store.Get(), cfg.Demo))
	defer loads.wait()
	if cfg.Verbose {
		level.Set(slog.LevelDebug)
	}

	logDir, err := applog.Dir(cfg.ConfigDir)
	if err != nil {
		return fmt.Errorf("app: %w", err)
	}
	var verbose io.Writer
	if cfg.Verbose {
		verbose = os.Stderr
	}
	lg, err := applog.Open(applog.Options{Dir: logDir, Level: level, Verbose: verbose, Secrets: secrets})
	if err != nil {
		return fmt.Errorf("app: %w", err)
	}
	defer lg.Close()
	log := lg.Logger
	log.Info("app_start", "config_dir", dir, "log", lg.Path(), "demo", cfg.Demo, "pid", os.Getpid())
	store.SetLog(log)
	defer store.Close() // on every way out; a second Close does nothing
	if kept := store.Migrated(); kept != "" {
		log.Info("settings_migrated", "kept_as", kept, "state_dir", filepath.Join(dir, settings.StateDir))
	}
	useKeyring(store, log)
	applySecrets(store.Get())
	logNotice(log, notice)
	// What waits on a device or another process starts now and is taken
	// where it is needed (preload.go): none of it needs Fyne.
	// The audio device opens once the font scan has ended: the first
	// frame waits for that scan, not for the device, which a pet needs
	// only once its window shows (speech.go's ready).
	out, err := newAudioOut(cfg.AudioOut, log)
	if err != nil {
		return err
	}
	defer out.close() // after the sessions, which play on it
	go func() {
		fonts.get()
		out.openDevice()
	}()
	deskLater := startLater(func() deskOpened { return openDeskSide(log) }) // desktop_session.go
	motionLater := startLater(motionpref.Reduced)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	l := useLanguage(ctx, a, store.Get().Language, log) // before any window (language.go)
	if store.FirstStart() {
		// Before the sessions start: the preset's voice follows the language.
		firstStartLanguage(ctx, store, store.Get().ActivePreset, l, log)
	}
	y := &yui{app: a, log: log, store: store, configDir: dir, logDir: logDir, cfg: cfg,
		sessions: map[string]*session{}, loads: loads}
	// Fyne stops its loop on SIGINT and SIGTERM by itself, and on Quit:
	// from then on nothing may ask the UI for anything.
	a.Lifecycle().SetOnStopped(func() { y.quitting.Store(true) })
	// Quiet after activity gives memory back (release.go); set before any
	// session publishes a view.
	y.release = newIdleRelease(clock.Real{}, releaseAfter, func() {
		debug.FreeOSMemory()
		rss, _ := residentBytes()
		log.Debug("memory_released", "rss_bytes", rss)
	})
	defer y.release.close()
	y.audio = out
	if runtime.GOOS == "windows" {
		// Under Wine, the device opening while the GL driver started
		// made the start hang (the e2e-wine group): on Windows the
		// device opens before the windows are made, as it did.
		out.ready()
	}
	y.pid = os.Getpid()
	if y.reducedMotion = motionLater.get(); y.reducedMotion {
		log.Info("reduced_motion", "gaze", "off", "idle_pace", reducedIdlePace)
	}

	y.browserPath = findBrowser(log)
	desk := deskLater.get()
	if y.desk, y.idle, y.screen = desk.desk, desk.idle, desk.screen; y.desk != nil {
		defer y.desk.Close() // last: the sessions' tools read it
	}
	defer desk.closeIdle() // after Away and the sampler, which read it
	y.quiet = desktop.NewQuiet(y.desk, nil, func(on bool) { fyne.Do(func() { y.quietChanged(on) }) })
	defer y.quiet.Close() // before the desktop it reads
	if y.idle != nil {
		y.away = desktop.NewAway(y.idle, nil, 0, y.awayChanged)
		defer y.away.Close()
	}
	defer y.startActivity()() // life's samples (life.go), stopped before the desktop closes

	// The simulator outlives the signal: the sessions close first.
	simCtx, stopSim := context.WithCancel(context.Background())
	defer stopSim()
	if y.src, err = y.openSource(simCtx); err != nil {
		log.Error("app_start_failed", "err", err.Error())
		return err
	}
	defer y.src.close()      // after the sessions, which talk to the simulator
	y.first.simCtx = simCtx  // "Try the demo" starts the simulator later (firstrun.go)
	defer y.closeTriedDemo() // after the sessions too
	// A first start looks for a local model server before the pet starts
	// (firstrun.go); one-run overrides and --demo say where to go already.
	welcome := false
	if store.FirstStart() && !cfg.Demo && len(y.overrides()) == 0 {
		welcome = y.firstStart()
	}
	y.startMCP()
	defer y.mcp.Close() // after the sessions, whose tools call it: no server outlives Yui
	st := store.Get()
	y.order = presetIDs(st)
	presets := y.runnable(st)
	if len(presets) == 0 {
		log.Warn("app_no_presets", "msg", "no preset is enabled")
	}
	for i, p := range presets {
		if _, err := y.startSession(p, i); err != nil {
			y.closeSessions()
			log.Error("app_start_failed", "err", err.Error())
			return err
		}
	}
	restoreSoftGL()
	// A load no pet took (its preset did not start) lets its files go.
	y.loads = nil
	// Edits apply live, on the UI thread, in save order.
	unsubscribe := store.Subscribe(func(c settings.Change) {
		applySecrets(c.New)
		fyne.Do(func() { y.apply(c) })
	})
	defer unsubscribe()
	inst.onEvent = y.lifeEvent // yui event (event.go)
	inst.serve(func() { fyne.Do(y.bringForward) })

	// Start-up decoded the packs at full size and scaled them: give the
	// garbage back to the OS now rather than over the next minutes, off
	// the UI goroutine, whose loop starts next.
	go func() {
		debug.FreeOSMemory()
		tuneGC()
	}()
	y.showStartNotices(notice)
	switch {
	case welcome:
		y.startWelcome(st.ActivePreset)
	case y.listFound():
		y.openWelcome() // several servers, or one with no model: the list, with its hint
	}
	y.setupTray()
	defer y.offerDesktopSetup()() // GNOME's Wayland without the extension: once (desktopsetup.go)
	y.updateWatching()
	if y.src.startAtLogin() {
		y.setAutostart(true) // the entry follows the program if it moved
	}

	y.runUntilQuit(ctx, stop)
	return nil
}

// configDir is the config directory of the run, created when missing.
func configDir(cfg Config) (string, error) {
	dir := cfg.ConfigDir
	if dir == "" {
		d, err := settings.DefaultDir()
		if err != nil {
			return "", fmt.Errorf("app: %w", err)
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("app: creating %s: %w", dir, err)
	}
	return dir, nil
}

// logNotice logs what opening the settings had to say; nil says nothing.
func logNotice(log *slog.Logger, notice *settings.Notice) {
	if notice == nil {
		return
	}
	args := []any{"message", notice.Message, "kept_as", notice.KeptAs}
	if notice.Err != nil {
		args = append(args, "err", notice.Err.Error())
	}
	for _, r := range notice.Refused {
		args = append(args, "refused", r.String())
	}
	log.Warn("settings_notice", args...)
}

// showStartNotices has each pet say once what went wrong at start-up: a
// settings file kept aside or partly refused (the first pet), a character
// pack refused; a partly refused file opens the settings window.
func (y *yui) showStartNotices(notice *settings.Notice) {
	for i, s := range y.running() {
		var lines []string
		if i == 0 && notice != nil {
			lines = append(lines, i18n.Notice(notice))
		}
		if s.packNotice != "" {
			lines = append(lines, s.packNotice)
			s.log.Info("character_refused_notice", "character", s.cfg().Character)
		}
		if len(lines) > 0 {
			s.win.SetNotice(strings.Join(lines, "\n"))
		}
	}
	if notice != nil && len(notice.Refused) > 0 {
		y.openSettings("")
	}
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
	y.stopTray() // after a signal, or if Run ended any other way

	close(running)
	<-statsDone
	stop()
	y.quitting.Store(true)
	y.closeFirstRun()
	y.closeSessions()
	y.closing.Wait()
	y.store.Close() // what the app learned last is on disk before app_quit
	y.log.Info("app_quit")
}

// useKeyring gives the store the system keyring, where one answers: the
// keys move there and settings.json keeps only the names of their entries.
// Where none answers they stay in the file; the log says which (never a
// key). Keyring calls may block until their timeout: this runs before
// Fyne's loop starts.
func useKeyring(store *settings.Store, log *slog.Logger) {
	if ring, why := secrets.System(); ring != nil {
		store.UseKeyring(ring, "")
	} else {
		store.UseKeyring(nil, why)
	}
	where, why := store.KeysWhere()
	args := []any{"where", string(where)}
	if why != "" {
		args = append(args, "reason", why)
	}
	log.Info("keys_stored", args...)
}

// idleGCPercent is the GC target once Yui runs (see tuneGC).
const idleGCPercent = 25

// tuneGC sets the garbage collector for the long idle life of a desktop
// pet, unless GOGC is set in the environment. Once started, Yui keeps a
// small live heap (about 12 MiB: fonts, the packed character, Fyne's
// caches) and allocates little (the idle animation and a status pill that
// ticks each second): with the default target the heap grows to twice
// the live heap between collections, which stays resident. At 25% it
// stays within 1.25 times, about 3 MiB less for three pets than at 50%
// (measured side by side); a collection, about a millisecond of CPU,
// then comes every half a minute or so, as an idle pet's shape is worked
// out in reused buffers (shape.go). Start-up, which decodes the packs at
// full size, runs with the default so that it collects less often.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(idleGCPercent)
	}
}

// yui is the running app.
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
	farEnd    farEnd       // the echo canceller's reference (handsfree.go)
	desktopSide
	packs packCache  // scaled packs shared by the pets showing them (packs.go)
	loads *packLoads // the characters read during start-up (preload.go)
	pid   int
	mcp   *mcp.Manager // the user's MCP servers (mcp.go)

	mu       sync.Mutex // guards the fields below
	sessions map[string]*session
	order    []string // preset ids in settings order

	conns outbox.Fanout[struct{}] // a preset started or stopped

	shutdown

	wins windowSet // the settings and message windows (UI thread only)
	trayState

	factStores factStores // each preset's remembered facts (facts.go)

	first  firstRun  // the first start's scan, welcome and tried demo (firstrun.go)
	voices audioScan // the speech and transcription servers found (servers.go)
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

// trayState is the system tray, when the desktop has one.
type trayState struct {
	tray        *sysTray // nil without a tray
	trayRefresh func()   // redraws the tray menu; nil without a tray (UI thread only)
}

// bringForward shows every pet (a second start, the shortcut, the tray).
func (y *yui) bringForward() {
	y.log.Info("pets_shown")
	for _, s := range y.running() {
		s.win.Show()
	}
}

// quit closes every window and stops the app; Run then shuts down.
func (y *yui) quit() {
	if y.markQuit() {
		y.stopTray() // while Fyne's loop still runs, which on Windows takes the icon away
		y.app.Quit()
	}
}

// stopTray takes the tray's icon away, where there is one.
func (y *yui) stopTray() {
	if y.tray != nil {
		y.tray.Stop()
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
	for _, s := range y.running() {
		y.stopSession(s.cfg().ID)
	}
}
