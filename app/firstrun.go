package app

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet/settings"
	"yui/transport/localserver"
)

// First start: with no settings file, Yui looks for a model server on this
// machine before its first pet starts and points the default preset at
// the first one with a chat model. With none found, the settings window
// opens on its welcome page, and the scan runs again on the reconnect
// schedule until a server turns up, the user picks a way in, or the
// preset is changed by hand.

// firstScanWait bounds the first start's scan: every port is asked at
// once with localserver's short timeout, so it takes well under it.
const firstScanWait = 3 * time.Second

// rescanFirst and rescanCap are the reconnect schedule (docs/protocol/push-transport.md).
const (
	rescanFirst = 1 * time.Second
	rescanCap   = 30 * time.Second
)

// firstRun is the first start's flow: the scan before the first pet
// starts, the welcome page, and the rescan behind it until a server turns
// up. It is the settings window's welcome page (settingswindow.Welcomer).
// welcoming, stopRescan and close are safe on nil: a session asks them,
// and a yui a test builds by hand has no first run.
type firstRun struct {
	store   *settings.Store
	log     *slog.Logger
	servers *localServers // the scans and what they found (servers.go)
	pets    *roster       // the running sessions, one of which may get ready by itself
	app     welcomeHost

	mu sync.Mutex
	// welcome is set while the welcome page is what the settings window
	// shows first: nothing was set up yet.
	welcome bool
	// waitID is the preset the rescan may still set up; "" once a server
	// was adopted, the user chose, or the rescan stopped.
	waitID string
	cancel context.CancelFunc // stops the rescan
	wg     sync.WaitGroup
}

// welcomeHost is what the first-run flow asks of the app.
type welcomeHost interface {
	// openWelcome shows the settings window on its welcome page. UI thread.
	openWelcome()
	// serversFound tells the settings window what the rescan found; any
	// goroutine.
	serversFound(found []localserver.Server)
	// tryDemo starts the demo in this run (the welcome page's button).
	tryDemo() error
}

// start runs before the first pet starts on a first start with no
// one-run overrides: it scans and sets up the active preset. It reports
// whether nothing was found (the welcome page then opens).
func (f *firstRun) start() bool {
	ctx, cancel := context.WithTimeout(context.Background(), firstScanWait)
	defer cancel()
	defer f.servers.startAudioScan(ctx)() // speech servers too, for the Speech and Voice tabs (servers.go)
	found := f.servers.scan(ctx, false)
	id := f.store.Get().ActivePreset
	if s, ok := localserver.FirstWithModel(found); ok {
		f.adopt(id, s)
		return false
	}
	if len(found) > 0 {
		// A server with no chat model (Ollama freshly installed): point
		// at it; the pill and the welcome page's list say how to get a
		// model, and the probe picks it up once one is there. The list
		// stands in for the settings the missing model would open.
		f.adopt(id, found[0])
		f.setWelcome()
		return false
	}
	// The welcome page stands in for the settings an unreachable
	// server would open, from the first pet's start on.
	f.setWelcome()
	return true
}

// setWelcome marks the welcome page as what the settings window shows
// first.
func (f *firstRun) setWelcome() {
	f.mu.Lock()
	f.welcome = true
	f.mu.Unlock()
}

// listFound says whether the first start's servers are worth showing:
// several to choose from, or one with no chat model and its hint.
func (f *firstRun) listFound() bool {
	found := f.servers.FoundServers()
	_, chat := localserver.FirstWithModel(found)
	return len(found) > 1 || (len(found) == 1 && !chat)
}

// adopt points preset id at server s, with its first chat model.
func (f *firstRun) adopt(id string, s localserver.Server) {
	err := f.store.UpdatePreset(id, func(p *settings.Preset) error {
		p.ChatAPI = settings.ChatAPIChatCompletions
		p.ChatBaseURL = s.URL
		p.Model = s.Model
		return nil
	})
	if err != nil {
		f.log.Warn("server_adopt_failed", "url", s.URL, "err", err.Error())
		return
	}
	f.log.Info("server_chosen", "preset", id, "url", s.URL, "kind", string(s.Kind), "model", s.Model)
}

// showWelcome opens the welcome page and scans again on the reconnect
// schedule for preset id. UI thread.
func (f *firstRun) showWelcome(id string) {
	ctx, cancel := context.WithCancel(context.Background())
	f.mu.Lock()
	f.welcome, f.waitID, f.cancel = true, id, cancel
	f.mu.Unlock()
	f.log.Info("welcome_shown", "preset", id)
	f.app.openWelcome()
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		f.rescan(ctx, id)
	}()
}

// rescan scans on the reconnect schedule until a server with a chat model
// answers (the preset is pointed at it, if still untouched), the preset
// became ready by itself, or ctx ends.
func (f *firstRun) rescan(ctx context.Context, id string) {
	delay := rescanFirst
	for {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if f.readyOnce(id) || !f.untouched(id) {
			f.stopRescan()
			return
		}
		found := f.servers.scan(ctx, true)
		if s, ok := localserver.FirstWithModel(found); ok && ctx.Err() == nil && f.untouched(id) {
			f.mu.Lock()
			f.waitID = ""
			f.mu.Unlock()
			f.adopt(id, s)
			f.app.serversFound(found) // the welcome page says so too
			return
		}
		delay = min(delay*2, rescanCap)
	}
}

// readyOnce says whether preset id's session was ready once.
func (f *firstRun) readyOnce(id string) bool {
	s := f.pets.get(id)
	return s != nil && s.everReady.Load()
}

// untouched says whether preset id is still the first start's default,
// which the rescan may set up.
func (f *firstRun) untouched(id string) bool {
	f.mu.Lock()
	wait := f.waitID == id
	f.mu.Unlock()
	p, ok := f.store.Preset(id)
	return wait && ok && p.ChatAPI == settings.DefaultChatAPI && p.ChatBaseURL == settings.DefaultChatBaseURL && p.Model == ""
}

// stopRescan ends the welcome's rescan: the user chose a way in.
func (f *firstRun) stopRescan() {
	if f == nil {
		return
	}
	f.mu.Lock()
	cancel := f.cancel
	f.waitID, f.welcome = "", false
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// welcoming says whether the welcome page stands in for the settings a
// connection problem would open.
func (f *firstRun) welcoming() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.welcome
}

// close stops the rescan and waits for it (shutdown).
func (f *firstRun) close() {
	if f == nil {
		return
	}
	f.stopRescan()
	f.wg.Wait()
}

// The settings window's welcome page (settingswindow.Welcomer).

// FindServers scans the local ports (the "Find local servers" button).
func (f *firstRun) FindServers(ctx context.Context) []localserver.Server {
	return f.servers.FindServers(ctx)
}

// FoundServers is the last scan's answer.
func (f *firstRun) FoundServers() []localserver.Server { return f.servers.FoundServers() }

// UseServer points preset id at a server the user chose.
func (f *firstRun) UseServer(id string, s localserver.Server) {
	f.stopRescan()
	f.adopt(id, s)
}

// TryDemo starts the demo in this run.
func (f *firstRun) TryDemo() error { return f.app.tryDemo() }

// triedDemo is the demo "Try the demo" started in this run.
type triedDemo struct {
	// demo is nil until the button was pressed.
	demo atomic.Pointer[demoSource]
	// simCtx is what its simulator runs under (Run's, which outlives the
	// sessions).
	simCtx context.Context
}

// tryDemo starts the demo in this run, no restart: the simulator
// in-process and the demo preset's pet in place of the saved presets,
// which stay as they are for the next start. UI thread.
func (y *yui) tryDemo() error {
	if y.cfg.Demo || y.tried.demo.Load() != nil {
		return nil
	}
	y.first.stopRescan()
	src, err := startDemoSource(y.tried.simCtx, y.cfg, y.log)
	if err != nil {
		y.log.Error("demo_failed", "err", err.Error())
		return err
	}
	y.closeSessions()
	y.tried.demo.Store(src) // y.source() is the demo's from here on
	for i, p := range src.runnable(settings.Settings{}) {
		if _, err := y.startSession(p, i); err != nil {
			y.log.Error("demo_failed", "err", err.Error())
			return err
		}
	}
	y.log.Info("demo_started", "from", "welcome")
	y.tray.refresh()
	return nil
}

// closeTriedDemo stops the simulator "Try the demo" started, after the
// sessions that talk to it.
func (y *yui) closeTriedDemo() {
	if d := y.tried.demo.Load(); d != nil {
		d.close()
	}
}

// serversFound tells the settings window, if open, what the rescan found.
func (y *yui) serversFound(found []localserver.Server) {
	fyne.Do(func() {
		if !y.quitting.Load() && y.wins.settings != nil {
			y.wins.settings.ServersFound(found)
		}
	})
}

// openWelcome shows the settings window on its welcome page. UI thread.
func (y *yui) openWelcome() {
	y.openSettings("")
	y.wins.settings.ShowWelcome()
}
