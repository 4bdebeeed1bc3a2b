package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet/settings"
	"yui/transport"
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

// firstRun is the first start's state and the local servers last found.
type firstRun struct {
	mu    sync.Mutex
	found []localserver.Server // the last scan's servers
	// welcome is set while the welcome page is what the settings window
	// shows first: nothing was set up yet.
	welcome bool
	// waitID is the preset the rescan may still set up; "" once a server
	// was adopted, the user chose, or the rescan stopped.
	waitID string
	cancel context.CancelFunc // stops the rescan
	wg     sync.WaitGroup
	// demo is the demo "Try the demo" started in this run; nil until then.
	demo atomic.Pointer[demoSource]
	// ports are the ports a scan asks; nil is localserver.KnownPorts
	// (tests give their own).
	ports []localserver.Port
	// simCtx is what the demo simulator started from the welcome page
	// runs under (Run's, which outlives the sessions).
	simCtx context.Context
}

// tryDemo starts the demo in this run, no restart: the simulator
// in-process and the demo preset's pet in place of the saved presets,
// which stay as they are for the next start. UI thread.
func (y *yui) tryDemo() error {
	if y.cfg.Demo || y.first.demo.Load() != nil {
		return nil
	}
	y.stopRescan()
	src, err := y.startDemoSource(y.first.simCtx)
	if err != nil {
		y.log.Error("demo_failed", "err", err.Error())
		return err
	}
	y.closeSessions()
	y.first.demo.Store(src) // y.source() is the demo's from here on
	for i, p := range src.runnable(settings.Settings{}) {
		if _, err := y.startSession(p, i); err != nil {
			y.log.Error("demo_failed", "err", err.Error())
			return err
		}
	}
	y.log.Info("demo_started", "from", "welcome")
	if y.trayRefresh != nil {
		y.trayRefresh()
	}
	return nil
}

// closeTriedDemo stops the simulator "Try the demo" started, after the
// sessions that talk to it.
func (y *yui) closeTriedDemo() {
	if d := y.first.demo.Load(); d != nil {
		d.close()
	}
}

// scanServers asks the usual local ports and keeps the answer for the
// settings window. Never on the UI thread.
func (y *yui) scanServers(ctx context.Context, repeat bool) []localserver.Server {
	found := localserver.Scan(ctx, localserver.Options{Ports: y.first.ports, Logger: y.log, Repeat: repeat})
	y.first.mu.Lock()
	y.first.found = found
	y.first.mu.Unlock()
	return found
}

// FoundServers is the last scan's answer.
func (y *yui) foundServers() []localserver.Server {
	y.first.mu.Lock()
	defer y.first.mu.Unlock()
	return append([]localserver.Server(nil), y.first.found...)
}

// firstStart runs before the first pet starts on a first start with no
// one-run overrides: it scans and sets up the active preset. It reports
// whether nothing was found (the welcome page then opens).
func (y *yui) firstStart() bool {
	ctx, cancel := context.WithTimeout(context.Background(), firstScanWait)
	defer cancel()
	defer y.startAudioScan(ctx)() // speech servers too, for the Speech and Voice tabs (servers.go)
	found := y.scanServers(ctx, false)
	id := y.store.Get().ActivePreset
	if s, ok := localserver.FirstWithModel(found); ok {
		y.adoptServer(id, s)
		return false
	}
	if len(found) > 0 {
		// A server with no chat model (Ollama freshly installed): point
		// at it; the pill and the welcome page's list say how to get a
		// model, and the probe picks it up once one is there. The list
		// stands in for the settings the missing model would open.
		y.adoptServer(id, found[0])
		y.first.mu.Lock()
		y.first.welcome = true
		y.first.mu.Unlock()
		return false
	}
	// The welcome page stands in for the settings an unreachable
	// server would open, from the first pet's start on.
	y.first.mu.Lock()
	y.first.welcome = true
	y.first.mu.Unlock()
	return true
}

// listFound says whether the first start's servers are worth showing:
// several to choose from, or one with no chat model and its hint.
func (y *yui) listFound() bool {
	found := y.foundServers()
	_, chat := localserver.FirstWithModel(found)
	return len(found) > 1 || (len(found) == 1 && !chat)
}

// adoptServer points preset id at server s, with its first chat model.
func (y *yui) adoptServer(id string, s localserver.Server) {
	err := y.store.UpdatePreset(id, func(p *settings.Preset) error {
		p.ChatAPI = settings.ChatAPIChatCompletions
		p.ChatBaseURL = s.URL
		p.Model = s.Model
		return nil
	})
	if err != nil {
		y.log.Warn("server_adopt_failed", "url", s.URL, "err", err.Error())
		return
	}
	y.log.Info("server_chosen", "preset", id, "url", s.URL, "kind", string(s.Kind), "model", s.Model)
}

// UseServer points preset id at a server the settings window listed.
func (y *yui) useServer(id string, s localserver.Server) {
	y.stopRescan()
	y.adoptServer(id, s)
}

// startWelcome opens the welcome page and scans again on the reconnect
// schedule for preset id. UI thread.
func (y *yui) startWelcome(id string) {
	ctx, cancel := context.WithCancel(context.Background())
	y.first.mu.Lock()
	y.first.welcome, y.first.waitID, y.first.cancel = true, id, cancel
	y.first.mu.Unlock()
	y.log.Info("welcome_shown", "preset", id)
	y.openWelcome()
	y.first.wg.Add(1)
	go func() {
		defer y.first.wg.Done()
		y.rescan(ctx, id)
	}()
}

// rescan scans on the reconnect schedule until a server with a chat model
// answers (the preset is pointed at it, if still untouched), the preset
// became ready by itself, or ctx ends.
func (y *yui) rescan(ctx context.Context, id string) {
	delay := rescanFirst
	for {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if y.readyOnce(id) || !y.untouched(id) {
			y.stopRescan()
			return
		}
		found := y.scanServers(ctx, true)
		if s, ok := localserver.FirstWithModel(found); ok && ctx.Err() == nil && y.untouched(id) {
			y.first.mu.Lock()
			y.first.waitID = ""
			y.first.mu.Unlock()
			y.adoptServer(id, s)
			fyne.Do(func() {
				if !y.quitting.Load() && y.wins.settings != nil {
					y.wins.settings.ServersFound(found) // the welcome page says so too
				}
			})
			return
		}
		delay = min(delay*2, rescanCap)
	}
}

// readyOnce says whether preset id's session was ready once.
func (y *yui) readyOnce(id string) bool {
	s := y.session(id)
	return s != nil && s.everReady.Load()
}

// untouched says whether preset id is still the first start's default,
// which the rescan may set up.
func (y *yui) untouched(id string) bool {
	y.first.mu.Lock()
	wait := y.first.waitID == id
	y.first.mu.Unlock()
	p, ok := y.store.Preset(id)
	return wait && ok && p.ChatAPI == settings.DefaultChatAPI && p.ChatBaseURL == settings.DefaultChatBaseURL && p.Model == ""
}

// stopRescan ends the welcome's rescan: the user chose a way in.
func (y *yui) stopRescan() {
	y.first.mu.Lock()
	cancel := y.first.cancel
	y.first.waitID, y.first.welcome = "", false
	y.first.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// welcoming says whether the welcome page stands in for the settings a
// connection problem would open.
func (y *yui) welcoming() bool {
	y.first.mu.Lock()
	defer y.first.mu.Unlock()
	return y.first.welcome
}

// closeFirstRun stops the rescan and waits for it (shutdown).
func (y *yui) closeFirstRun() {
	y.stopRescan()
	y.first.wg.Wait()
}

// serverInfo is a request transport's Options.Server: it names a local
// server by what it answers, with the hint for one with no chat model.
func serverInfo(base string) func(ctx context.Context) transport.ServerInfo {
	return func(ctx context.Context) transport.ServerInfo {
		k := localserver.Describe(ctx, base, localserver.DefaultTimeout)
		if k == "" {
			return transport.ServerInfo{}
		}
		return transport.ServerInfo{Name: string(k), NoModelHint: localserver.NoModelHint(k), KeyHint: localserver.APIKeyHint(k),
			NoneLoaded: localserver.LoadsOne(k)}
	}
}

// openWelcome shows the settings window on its welcome page. UI thread.
func (y *yui) openWelcome() {
	y.openSettings("")
	y.wins.settings.ShowWelcome()
}

// The settings window's welcome page (settingswindow.Welcomer).

// FindServers scans the local ports (the "Find local servers" button).
func (y *yui) FindServers(ctx context.Context) []localserver.Server { return y.scanServers(ctx, false) }

// FoundServers is the last scan's answer.
func (y *yui) FoundServers() []localserver.Server { return y.foundServers() }

// UseServer points preset id at a server the user chose.
func (y *yui) UseServer(id string, s localserver.Server) { y.useServer(id, s) }

// TryDemo starts the demo in this run.
func (y *yui) TryDemo() error {
	err := y.tryDemo()
	return err
}
