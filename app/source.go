package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"yui/pet/settings"
	"yui/pet/transcript"
	"yui/tools/relation"
	"yui/transport"
	"yui/transport/pushsim"
	"yui/windows/petwindow"
)

// presetSource is where the pets come from and where what they learn
// goes: the user's settings store and the files beside it (userSource),
// or, under --demo, the in-process simulator's preset and stores that
// last for the run (demoSource). Run picks one (openSource); nothing else
// asks whether the demo runs.
type presetSource interface {
	// settings are the settings the pets run from.
	settings() settings.Settings
	// runnable returns the presets to run under st, with this run's
	// command-line overrides on the active one.
	runnable(st settings.Settings) []settings.Preset
	// activeID is the active preset's id: its pet is the main one.
	activeID() string
	// followsEdits reports whether saved settings apply to the running pets.
	followsEdits() bool
	// startAtLogin reports whether Yui should start when the user logs in.
	startAtLogin() bool
	// screenLook is the screen-look permission; setScreenLook keeps the
	// user's answer.
	screenLook() string
	setScreenLook(v string) error
	// stores are preset p's stores of what the app learns.
	stores(p settings.Preset) presetStores
	// close stops what the source runs (the demo's simulator).
	close()
}

// presetStores are one preset's stores of what the app learns. A nil
// store keeps nothing.
type presetStores struct {
	scores     relation.Scores
	positions  petwindow.PositionStore
	history    transcript.Storage
	delegation transport.DelegationStore
	memory     transport.Conversation
}

// source is the running presetSource; tests that build a yui by hand get
// the user's.
func (y *yui) source() presetSource {
	if d := y.tried.demo.Load(); d != nil {
		return d // "Try the demo" on the welcome page (firstrun.go)
	}
	if y.src != nil {
		return y.src
	}
	return userSource{y}
}

// openSource picks the preset source for the run: the demo's when cfg
// asks for it (starting its simulator, which ctx stops), else the user's.
func (y *yui) openSource(ctx context.Context) (presetSource, error) {
	if !y.cfg.Demo {
		return userSource{y}, nil
	}
	return startDemoSource(ctx, y.cfg, y.log)
}

// startDemoSource starts the demo's simulator, which ctx stops, and its
// source, the command line's one-run overrides applied: for --demo, and
// for "Try the demo" on the welcome page.
func startDemoSource(ctx context.Context, cfg Config, log *slog.Logger) (*demoSource, error) {
	sim, err := pushsim.StartSim(ctx, pushsim.SimOptions{
		Addr:   "127.0.0.1:0",
		Script: pushsim.Demo(pushsim.DefaultDemo()),
		Logger: log.With("component", "sim"),
	})
	if err != nil {
		return nil, fmt.Errorf("app: starting the demo simulator: %w", err)
	}
	log.Info("demo_sim", "url", sim.URL)
	p := demoPreset(sim.URL)
	cfg.override(&p)
	return &demoSource{preset: p, sim: sim}, nil
}

// userSource is the user's settings store and the files beside it.
type userSource struct{ y *yui }

func (u userSource) settings() settings.Settings { return u.y.store.Get() }

func (u userSource) runnable(st settings.Settings) []settings.Preset {
	out := enabledPresets(st)
	for i := range out {
		if out[i].ID == st.ActivePreset {
			u.y.cfg.override(&out[i])
		}
	}
	return out
}

// enabledPresets are st's enabled presets, in order.
func enabledPresets(st settings.Settings) []settings.Preset {
	var out []settings.Preset
	for _, p := range st.Presets {
		if p.Enabled {
			out = append(out, p)
		}
	}
	return out
}

func (u userSource) activeID() string   { return u.y.store.Get().ActivePreset }
func (u userSource) followsEdits() bool { return true }
func (u userSource) startAtLogin() bool { return u.y.store.Get().StartAtLogin }
func (u userSource) screenLook() string { return u.y.store.Get().ScreenLook }
func (u userSource) close()             {}

func (u userSource) setScreenLook(v string) error {
	return u.y.store.Update(func(st *settings.Settings) error { st.ScreenLook = v; return nil })
}

func (u userSource) stores(p settings.Preset) presetStores {
	y := u.y
	return presetStores{
		scores:     y.store.Relation(p.ID),
		positions:  storePositions{store: y.store, id: p.ID, log: y.log.With("preset", p.ID)},
		history:    historyFile{dir: y.configDir, id: p.ID},
		delegation: y.store.DelegationStore(p.ID),
		memory:     conversationFile{dir: y.configDir, id: p.ID},
	}
}

// demoSource is --demo: one preset pointed at the in-process simulator,
// and stores that keep what the pet learns for the run only; the saved
// settings stay untouched.
type demoSource struct {
	preset settings.Preset
	sim    *pushsim.Server

	mu   sync.Mutex
	look string // the screen-look answer, kept for the run
}

func (d *demoSource) settings() settings.Settings {
	return settings.Settings{Presets: []settings.Preset{d.preset}}
}

func (d *demoSource) runnable(settings.Settings) []settings.Preset {
	return []settings.Preset{d.preset}
}

func (d *demoSource) activeID() string   { return d.preset.ID }
func (d *demoSource) followsEdits() bool { return false }
func (d *demoSource) startAtLogin() bool { return false }

func (d *demoSource) screenLook() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.look == "" {
		return settings.ScreenLookUnset
	}
	return d.look
}

func (d *demoSource) setScreenLook(v string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.look = v
	return nil
}

func (d *demoSource) stores(settings.Preset) presetStores {
	return presetStores{scores: &memScores{score: settings.RelationDefault}, positions: &memPositions{}}
}

func (d *demoSource) close() {
	if d.sim != nil {
		d.sim.Close()
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
		Learned:     settings.Learned{Relation: settings.RelationDefault},
		Speech:      settings.Speech{Engine: settings.SpeechEngineSystem, Rate: 1, Volume: 1}, // speaks where a system voice is found
	}
}
