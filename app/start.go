package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"yui/app/applog"
	"yui/assets"
	"yui/pet/secrets"
	"yui/pet/settings"
	"yui/tools/desktop"
	"yui/transport/clock"
	"yui/windows/i18n"
	"yui/windows/widgets"
)

// Run's steps, in the order it takes them (app.go).

// teardown is what start-up opened, closed in the reverse order as Run
// returns, as its defers would be.
type teardown []func()

// add closes f's thing after everything added later.
func (t *teardown) add(f func()) { *t = append(*t, f) }

// run closes everything, last added first. A pointer receiver, so that
// "defer down.run()" closes what is added after the defer too.
func (t *teardown) run() {
	for i := len(*t) - 1; i >= 0; i-- {
		(*t)[i]()
	}
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

// newFyneApp makes the app and its theme first, so that the system's
// fonts are scanned while the rest of start-up runs: the pet's first
// frame waits for that scan (preload.go's warmFonts), not for the
// settings, the log or the keyring.
func newFyneApp() (fyne.App, *later[struct{}]) {
	a := fyneapp.NewWithID(AppID)
	// The windows' icon, 128 px: every window decodes it when it is made.
	a.SetIcon(fyne.NewStaticResource("window-icon.png", assets.WindowIcon))
	a.Settings().SetTheme(widgets.Theme())
	return a, startLater(warmFonts) // preload.go
}

// startBase is what start-up opens first: the settings and the log.
type startBase struct {
	dir    string // the config directory
	store  *settings.Store
	notice *settings.Notice // what opening the settings had to say; nil
	log    *slog.Logger
	logDir string
	// applySecrets keeps the log's secrets and level those of the
	// settings s (the keys in them, and log_level).
	applySecrets func(s settings.Settings)
	loads        *packLoads // the characters loading meanwhile (preload.go)
}

// openSettingsAndLog opens the settings store and the log, which keeps
// the settings' keys out, and moves the keys to the system keyring where
// one answers. The characters start loading meanwhile (preload.go).
func openSettingsAndLog(cfg Config, dir string, down *teardown) (startBase, error) {
	secrets := applog.NewSecrets(cfg.Key)
	level := new(slog.LevelVar)
	store, notice, err := settings.Open(dir, settings.Options{})
	if err != nil {
		return startBase{}, fmt.Errorf("app: %w", err)
	}
	b := startBase{dir: dir, store: store, notice: notice}
	b.applySecrets = func(s settings.Settings) {
		secrets.Set(append(s.Secrets(), cfg.Key))
		if l, err := settings.ParseLogLevel(s.LogLevel); err == nil && !(cfg.Verbose && l > slog.LevelDebug) {
			level.Set(l)
		}
	}
	b.applySecrets(store.Get())
	b.loads = startPackLoads(dir, startingPresets(store.Get(), cfg.Demo))
	down.add(b.loads.wait)
	if cfg.Verbose {
		level.Set(slog.LevelDebug)
	}

	if b.logDir, err = applog.Dir(cfg.ConfigDir); err != nil {
		return startBase{}, fmt.Errorf("app: %w", err)
	}
	var verbose io.Writer
	if cfg.Verbose {
		verbose = os.Stderr
	}
	lg, err := applog.Open(applog.Options{Dir: b.logDir, Level: level, Verbose: verbose, Secrets: secrets})
	if err != nil {
		return startBase{}, fmt.Errorf("app: %w", err)
	}
	down.add(func() { lg.Close() })
	b.log = lg.Logger
	b.log.Info("app_start", "config_dir", dir, "log", lg.Path(), "demo", cfg.Demo, "pid", os.Getpid())
	store.SetLog(b.log)
	down.add(store.Close) // on every way out; a second Close does nothing
	if kept := store.Migrated(); kept != "" {
		b.log.Info("settings_migrated", "kept_as", kept, "state_dir", filepath.Join(dir, settings.StateDir))
	}
	useKeyring(store, b.log)
	b.applySecrets(store.Get())
	logNotice(b.log, notice)
	return b, nil
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

// startAudioOut makes the process's audio output. Its device opens once
// the font scan has ended: the first frame waits for that scan, not for
// the device, which a pet needs only once its window shows (speech.go's
// ready).
func startAudioOut(path string, log *slog.Logger, fonts *later[struct{}], down *teardown) (*audioOut, error) {
	out, err := newAudioOut(path, log)
	if err != nil {
		return nil, err
	}
	down.add(out.close) // after the sessions, which play on it
	go func() {
		fonts.get()
		out.openDevice()
	}()
	return out, nil
}

// chooseLanguage sets the app's language before any window opens; on a
// first start, before the sessions start, the active preset's voice
// follows it (language.go).
func chooseLanguage(ctx context.Context, a fyne.App, store *settings.Store, log *slog.Logger) {
	l := useLanguage(ctx, a, store.Get().Language, log)
	if store.FirstStart() {
		firstStartLanguage(ctx, store, store.Get().ActivePreset, l, log)
	}
}

// newYui is the running app over what start-up opened, its parts given
// what each needs.
func newYui(a fyne.App, cfg Config, b startBase, out *audioOut, down *teardown) *yui {
	y := &yui{app: a, log: b.log, store: b.store, configDir: b.dir, logDir: b.logDir, cfg: cfg,
		loads: b.loads, audio: out, pid: os.Getpid()}
	y.servers.log = b.log
	y.facts.dir, y.facts.runOnly, y.facts.log = b.dir, cfg.Demo, b.log
	y.first = &firstRun{store: b.store, log: b.log, servers: &y.servers, pets: &y.roster, app: y}
	// Fyne stops its loop on SIGINT and SIGTERM by itself, and on Quit:
	// from then on nothing may ask the UI for anything.
	a.Lifecycle().SetOnStopped(func() { y.quitting.Store(true) })
	// Quiet after activity gives memory back (release.go); set before any
	// session publishes a view.
	y.release = newIdleRelease(clock.Real{}, releaseAfter, func() {
		debug.FreeOSMemory()
		rss, _ := residentBytes()
		b.log.Debug("memory_released", "rss_bytes", rss)
	})
	down.add(y.release.close)
	if runtime.GOOS == "windows" {
		// Under Wine, the device opening while the GL driver started
		// made the start hang (the e2e-wine group): on Windows the
		// device opens before the windows are made, as it did.
		out.ready()
	}
	return y
}

// useDesktop takes what start-up read of the desktop: its reduced-motion
// wish, the browser the browser tool runs, and the desktop layer with
// its idle time and screen looks (desktop_session.go), on which
// do-not-disturb, the away watch and life's samples start.
func (y *yui) useDesktop(reducedMotion bool, deskLater *later[deskOpened], down *teardown) {
	if y.reducedMotion = reducedMotion; reducedMotion {
		y.log.Info("reduced_motion", "gaze", "off", "idle_pace", reducedIdlePace)
	}
	y.browserPath = findBrowser(y.log)
	desk := deskLater.get()
	if y.desk, y.idle, y.screen = desk.desk, desk.idle, desk.screen; y.desk != nil {
		down.add(func() { y.desk.Close() }) // last: the sessions' tools read it
	}
	down.add(desk.closeIdle) // after Away and the sampler, which read it
	y.quiet = desktop.NewQuiet(y.desk, nil, func(on bool) { fyne.Do(func() { y.quietChanged(on) }) })
	down.add(y.quiet.Close) // before the desktop it reads
	if y.idle != nil {
		y.away = desktop.NewAway(y.idle, nil, 0, y.awayChanged)
		down.add(y.away.Close)
	}
	down.add(y.startActivity()) // life's samples (life.go), stopped before the desktop closes
}

// startPets opens the preset source (the --demo simulator's, which
// outlives the signal: the sessions close first), runs a first start's
// scan (firstrun.go), starts the user's MCP servers and a session for
// each preset to run. welcomeID is the preset the welcome page is for,
// "" when there is none.
func (y *yui) startPets(down *teardown) (welcomeID string, err error) {
	simCtx, stopSim := context.WithCancel(context.Background())
	down.add(stopSim)
	if y.src, err = y.openSource(simCtx); err != nil {
		return "", err
	}
	down.add(y.src.close)      // after the sessions, which talk to the simulator
	y.tried.simCtx = simCtx    // "Try the demo" starts the simulator later (firstrun.go)
	down.add(y.closeTriedDemo) // after the sessions too
	// A first start looks for a local model server before the pet starts;
	// one-run overrides and --demo say where to go already.
	welcome := false
	if y.store.FirstStart() && !y.cfg.Demo && len(y.cfg.overrides()) == 0 {
		welcome = y.first.start()
	}
	y.mcp = startMCP(y.store.Get(), y.log, y.roster.changed)
	down.add(y.mcp.Close) // after the sessions, whose tools call it: no server outlives Yui
	st := y.store.Get()
	y.roster.setOrder(presetIDs(st))
	presets := y.runnable(st)
	if len(presets) == 0 {
		y.log.Warn("app_no_presets", "msg", "no preset is enabled")
	}
	for i, p := range presets {
		if _, err := y.startSession(p, i); err != nil {
			y.closeSessions()
			return "", err
		}
	}
	if welcome {
		welcomeID = st.ActivePreset
	}
	return welcomeID, nil
}

// freeStartGarbage gives back to the OS the garbage of start-up, which
// decoded the packs at full size and scaled them, now rather than over
// the next minutes, and sets the garbage collector for the idle life
// that follows (tuneGC).
func freeStartGarbage() {
	debug.FreeOSMemory()
	tuneGC()
}

// showStart shows what the user sees once the pets run: each pet's
// start-up notices, the welcome page (or the list of servers a first
// start found), the tray, the desktop setup's once-only offer (GNOME's
// Wayland without the extension), and the watching sign; and it puts the
// start-at-login entry where the program now is.
func (y *yui) showStart(notice *settings.Notice, welcomeID string, down *teardown) {
	showStartNotices(y.roster.all(), notice)
	if notice != nil && len(notice.Refused) > 0 {
		y.openSettings("") // a partly refused settings file
	}
	switch {
	case welcomeID != "":
		y.first.showWelcome(welcomeID)
	case y.first.listFound():
		y.openWelcome() // several servers, or one with no model: the list, with its hint
	}
	y.tray.start(y.app, y.log, y.trayMenu, y.WatchSessions)
	setup := desktopSetup{desk: y.desk, configDir: y.configDir, log: y.log}
	down.add(setup.offer(func() {
		fyne.Do(func() {
			if !y.quitting.Load() {
				y.openPermissions()
			}
		})
	}))
	y.updateWatching()
	if y.src.startAtLogin() {
		y.setAutostart(true) // the entry follows the program if it moved
	}
}

// showStartNotices has each pet say once what went wrong at start-up: a
// settings file kept aside or partly refused (the first pet), a character
// pack refused.
func showStartNotices(pets []*session, notice *settings.Notice) {
	for i, s := range pets {
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
}
