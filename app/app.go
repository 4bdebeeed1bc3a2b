// Package app wires Yui together: the settings store, the log, one session
// per enabled preset (transport, pet controller, tools and pet window), the
// tray menu, the --demo simulator, and a clean shutdown.
package app

import (
	"context"
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
	"syscall"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/driver/desktop"

	"yui/app/applog"
	"yui/app/settings"
	"yui/assets"
	"yui/transport/pushtest"
	"yui/windows"
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
	// VoiceIn is a WAV file that replaces the main pet's microphone (voice.go).
	VoiceIn string
}

// Run starts Yui and returns when the user quits or the process gets
// SIGINT or SIGTERM.
func Run(cfg Config) error {
	dir := cfg.ConfigDir
	if dir == "" {
		base, err := os.UserConfigDir()
		if err != nil {
			return fmt.Errorf("app: finding the config directory: %w", err)
		}
		dir = filepath.Join(base, "yui")
	}

	secrets := applog.NewSecrets(cfg.Key)
	level := new(slog.LevelVar)
	store, notice, err := settings.Open(dir, settings.Options{OnChange: func(s settings.Settings) {
		secrets.Set(append(s.Secrets(), cfg.Key))
		if l, err := settings.ParseLogLevel(s.LogLevel); err == nil {
			level.Set(l)
		}
	}})
	if err != nil {
		return fmt.Errorf("app: %w", err)
	}
	st := store.Get()
	secrets.Set(append(st.Secrets(), cfg.Key))
	if l, err := settings.ParseLogLevel(st.LogLevel); err == nil {
		level.Set(l)
	}
	if cfg.Verbose && level.Level() > slog.LevelDebug {
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
	if notice != nil {
		args := []any{"message", notice.Message, "kept_as", notice.KeptAs}
		if notice.Err != nil {
			args = append(args, "err", notice.Err.Error())
		}
		log.Warn("settings_notice", args...)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	a := fyneapp.NewWithID(AppID)
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	a.Settings().SetTheme(windows.Theme())
	y := &yui{app: a, log: log, store: store, configDir: dir, cfg: cfg}

	// The simulator outlives the signal: the sessions close first.
	simCtx, stopSim := context.WithCancel(context.Background())
	defer stopSim()
	presets, err := y.presets(simCtx)
	if err != nil {
		log.Error("app_start_failed", "err", err.Error())
		return err
	}
	if err := y.startSessions(presets); err != nil {
		y.closeSessions()
		log.Error("app_start_failed", "err", err.Error())
		return err
	}
	// Start-up decoded the packs at full size and scaled them: give the
	// garbage back to the OS now rather than over the next minutes.
	debug.FreeOSMemory()
	tuneGC()
	// Each pet says once what went wrong at start-up: a settings file
	// kept aside (the first pet), a character pack refused.
	for i, s := range y.sessions {
		var lines []string
		if i == 0 && notice != nil {
			lines = append(lines, notice.Message)
		}
		if s.packNotice != "" {
			lines = append(lines, s.packNotice)
			s.log.Info("character_refused_notice", "character", s.preset.Character)
		}
		if len(lines) > 0 {
			s.win.SetNotice(strings.Join(lines, "\n"))
		}
	}
	y.setupTray()

	running := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done(): // SIGINT or SIGTERM
			y.log.Info("app_signal")
			fyne.Do(y.quit)
		case <-running:
		}
	}()
	a.Run()

	close(running)
	stop()
	y.closeSessions()
	if y.sim != nil {
		y.sim.Close()
	}
	log.Info("app_quit")
	return nil
}

// idleGCPercent is the GC target once Yui runs (see tuneGC).
const idleGCPercent = 50

// tuneGC sets the garbage collector for the long idle life of a desktop
// pet, unless GOGC is set in the environment. Once started, Yui keeps a
// small live heap (about 12 MiB: fonts, the packed character, Fyne's
// caches) and allocates little (the idle animation and a status pill that
// ticks each second): with the default target the heap grows to twice
// the live heap between collections, which stays resident. At 50% it
// stays within 1.5 times; a collection then comes every few seconds
// instead of every ten or so and costs about a millisecond of CPU.
// Start-up, which decodes the packs at full size, runs with the default
// so that it collects less often.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(idleGCPercent)
	}
}

// yui is the running app.
type yui struct {
	app       fyne.App
	log       *slog.Logger
	store     *settings.Store
	configDir string
	cfg       Config
	sim       *pushtest.Server

	mu       sync.Mutex // guards sessions after start (address_character)
	sessions []*session
	quitOnce sync.Once

	messages, prefs fyne.Window // placeholder windows
}

// presets returns the presets to run: the enabled ones with this run's
// overrides on the active one, or the demo preset under --demo.
func (y *yui) presets(ctx context.Context) ([]settings.Preset, error) {
	if y.cfg.Demo {
		sim, err := pushtest.StartSim(ctx, pushtest.SimOptions{
			Addr:   "127.0.0.1:0",
			Script: pushtest.Demo(pushtest.DefaultDemo()),
			Logger: y.log.With("component", "sim"),
		})
		if err != nil {
			return nil, fmt.Errorf("app: starting the demo simulator: %w", err)
		}
		y.sim = sim
		y.log.Info("demo_sim", "url", sim.URL)
		p := demoPreset(sim.URL)
		y.override(&p)
		return []settings.Preset{p}, nil
	}
	st := y.store.Get()
	var out []settings.Preset
	for _, p := range st.Presets {
		if !p.Enabled {
			continue
		}
		if p.ID == st.ActivePreset {
			y.override(&p)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		y.log.Warn("app_no_presets", "msg", "no preset is enabled")
	}
	return out, nil
}

// override applies the command line's one-run overrides to p.
func (y *yui) override(p *settings.Preset) {
	if y.cfg.ChatAPI != "" {
		p.ChatAPI = y.cfg.ChatAPI
	}
	if y.cfg.ChatBaseURL != "" {
		p.ChatBaseURL = y.cfg.ChatBaseURL
	}
	if y.cfg.Model != "" {
		p.Model = y.cfg.Model
	}
	if y.cfg.Key != "" {
		p.Key = y.cfg.Key
	}
}

// demoPreset is the --demo preset: push, pointed at the in-process
// simulator. It lives for the run only and is never saved.
func demoPreset(url string) settings.Preset {
	return settings.Preset{
		ID:          "demo",
		Name:        "Yui",
		Enabled:     true,
		Character:   settings.DefaultCharacter,
		ChatAPI:     settings.ChatAPIPush,
		ChatBaseURL: url,
		ChatID:      "yui-00demo00",
		Poke:        true,
		Relation:    settings.RelationDefault,
	}
}

// quit closes every window and stops the app; Run then shuts down.
func (y *yui) quit() {
	y.quitOnce.Do(func() {
		y.log.Info("app_quit_requested")
		y.app.Quit()
	})
}

// setupTray adds the tray menu where the desktop has a tray. On Linux and
// the BSDs the tray speaks D-Bus: with no session bus there is no tray,
// and Fyne's systray would crash on quit, so none is set up.
func (y *yui) setupTray() {
	d, ok := y.app.(desktop.App)
	if !ok {
		return
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		y.log.Info("tray_unavailable", "reason", "no D-Bus session bus")
		return
	}
	d.SetSystemTrayMenu(fyne.NewMenu("Yui",
		fyne.NewMenuItem("Show pets", func() {
			for _, s := range y.sessions {
				s.win.Show()
			}
		}),
		fyne.NewMenuItem("Hide pets", func() {
			for _, s := range y.sessions {
				s.win.Hide()
			}
		}),
		fyne.NewMenuItem("Messages", func() { y.openMessages("") }),
		fyne.NewMenuItem("Settings", func() { y.openSettings("") }),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Quit", y.quit),
	))
}

// openMessages opens the message window of a preset (a placeholder until
// the message window lands).
func (y *yui) openMessages(presetID string) {
	if y.messages != nil {
		y.messages.Show()
		y.messages.RequestFocus()
		return
	}
	y.messages = windows.ShowPlaceholder(y.app, "Yui — messages",
		"The message window comes in a later version. It will show the conversation, reasoning and token usage.")
	y.messages.SetOnClosed(func() { y.messages = nil })
	y.log.Info("window_open", "window", "messages", "preset", presetID)
}

// openSettings opens the settings window on a preset (a placeholder until
// the settings window lands).
func (y *yui) openSettings(presetID string) {
	if y.prefs != nil {
		y.prefs.Show()
		y.prefs.RequestFocus()
		return
	}
	body := "The settings window comes in a later version. Settings are in " + y.store.Path() + "."
	y.prefs = windows.ShowPlaceholder(y.app, "Yui — settings", body)
	y.prefs.SetOnClosed(func() { y.prefs = nil })
	y.log.Info("window_open", "window", "settings", "preset", presetID)
}
