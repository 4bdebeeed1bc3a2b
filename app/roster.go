package app

import (
	"errors"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"

	"yui/pet/settings"
	"yui/tools/address"
	"yui/transport"
	"yui/transport/outbox"
	"yui/windows"
)

// roster is the running sessions, keyed by preset id, in the order of the
// settings. Sessions start, stop and restart on the UI thread as the
// settings change (yui.apply); everything else may read them from any
// goroutine. The zero value is empty.
type roster struct {
	mu       sync.Mutex
	sessions map[string]*session
	order    []string // preset ids in settings order

	changes outbox.Fanout[struct{}] // a preset started or stopped
}

// add records s as preset id's session.
func (r *roster) add(id string, s *session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions == nil {
		r.sessions = map[string]*session{}
	}
	r.sessions[id] = s
}

// remove takes preset id's session out and returns it; nil when none runs.
func (r *roster) remove(id string) *session {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sessions[id]
	delete(r.sessions, id)
	return s
}

// get returns the running session of preset id, or nil.
func (r *roster) get(id string) *session {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sessions[id]
}

// len is how many sessions run.
func (r *roster) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

// setOrder is the settings' order of the presets, ids.
func (r *roster) setOrder(ids []string) {
	r.mu.Lock()
	r.order = ids
	r.mu.Unlock()
}

// all returns the running sessions in the order of the settings.
func (r *roster) all() []*session {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*session, 0, len(r.sessions))
	for _, s := range r.sessions {
		out = append(out, s)
	}
	order := r.order
	slices.SortFunc(out, func(a, b *session) int {
		return slices.Index(order, a.cfg().ID) - slices.Index(order, b.cfg().ID)
	})
	return out
}

// changed tells the windows watching that a preset started or stopped.
func (r *roster) changed() { r.changes.Publish(struct{}{}) }

// watch calls fn whenever a preset starts or stops, until cancel.
func (r *roster) watch(fn func()) (cancel func()) {
	return r.changes.Subscribe(func(struct{}) { fn() })
}

// runnable returns the presets to run now (presetSource.runnable).
func (y *yui) runnable(st settings.Settings) []settings.Preset { return y.source().runnable(st) }

// startSession starts the session of preset p: window, transcript and
// connection. It runs on the UI thread.
func (y *yui) startSession(p settings.Preset, index int) (*session, error) {
	s, err := y.newSession(p, index)
	if err != nil {
		return nil, err
	}
	y.roster.add(p.ID, s)
	// Ready first: the connection opens as soon as the window shows,
	// while the character is scaled to it off the UI goroutine (what the
	// backend sends meanwhile waits in the window's view). Opened before
	// the window, ws_ready would announce a pet that does not take clicks
	// yet, and do-not-disturb would not know its monitor.
	s.win.Show()
	if err := s.connect(); err != nil {
		y.stopSession(p.ID)
		return nil, err
	}
	s.scalePack()
	s.useMCP() // mcp.go
	y.roster.changed()
	return s, nil
}

// stopSession closes the session of preset id, if it runs. UI thread.
func (y *yui) stopSession(id string) {
	s := y.roster.remove(id)
	if s == nil {
		return
	}
	s.log.Info("session_stop")
	s.close()
	y.mcp.Use(id, nil)
	y.roster.changed()
}

// what an edit of a running preset needs.
type restart int

const (
	restartNone    restart = iota
	restartConn            // a new connection, same window
	restartSession         // a new window too (name, character, poke)
)

// restartFor compares the configuration of a running preset with its
// edited form (settings.Preset.Config: what the app learns while running
// is no part of it).
func restartFor(old, next settings.Preset) restart {
	a, b := old.Config(), next.Config()
	// The composer's include-screen toggle and the gaze are built with the window.
	if a.Name != b.Name || a.Character != b.Character || a.Poke != b.Poke || a.Gaze != b.Gaze ||
		(a.ScreenOnTurn == "toggle") != (b.ScreenOnTurn == "toggle") {
		return restartSession
	}
	// Enabled starts and stops sessions (apply); gravity is read when the pet is dropped.
	a.Enabled, b.Enabled = true, true
	a.Gravity, b.Gravity = false, false
	a.Life, b.Life = settings.Life{}, settings.Life{} // applies live (life.go)
	if reflect.DeepEqual(a, b) {
		return restartNone
	}
	return restartConn
}

// apply brings the running sessions in line with a saved change: an
// enabled preset starts, a disabled or deleted one stops, an edit that
// changes how a preset connects reconnects it (the way out of a 4401 that
// a new key is), a rename or a new character restarts its pet, and a
// rename tells the other pets' address_character the new name. UI thread.
func (y *yui) apply(c settings.Change) {
	if !y.source().followsEdits() || y.quitting.Load() {
		return
	}
	y.roster.setOrder(presetIDs(c.New))
	want := map[string]settings.Preset{}
	for _, p := range y.runnable(c.New) {
		want[p.ID] = p
	}
	renamed := false
	for _, id := range c.Presets {
		p, enabled := want[id]
		if y.applyPreset(c, id, p, enabled) {
			renamed = true
		}
	}
	// The active preset's overrides and shortcut follow the active
	// preset; so do look and body_action, which only main declares.
	if c.Old.ActivePreset != c.New.ActivePreset {
		for _, id := range []string{c.Old.ActivePreset, c.New.ActivePreset} {
			p, ok := want[id]
			s := y.roster.get(id)
			switch {
			case !ok || s == nil:
			case len(y.cfg.overrides()) > 0:
				y.stopSession(id)
				y.start(p)
			default:
				if err := s.connect(); err != nil {
					y.log.Error("session_start_failed", "preset", id, "err", err.Error())
				}
			}
		}
	}
	y.mcp.Configure(mcpConfigs(c.New)) // the user's MCP servers follow the edit (mcp.go)
	y.updateWatching()
	if c.Old.StartAtLogin != c.New.StartAtLogin {
		y.setAutostart(c.New.StartAtLogin)
	}
	// The browser switch changes what every pet declares: all reconnect.
	renamed = renamed || c.Old.BrowserTool != c.New.BrowserTool
	if renamed {
		// address_character describes the other characters by name:
		// the others reconnect to declare it anew.
		for _, s := range y.roster.all() {
			if !slices.Contains(c.Presets, s.cfg().ID) {
				if err := s.connect(); err != nil {
					y.log.Error("session_start_failed", "preset", s.cfg().ID, "err", err.Error())
				}
			}
		}
	}
}

// applyPreset brings preset id's session in line with the change c: p
// is the preset as it would run, enabled whether it should. It reports
// whether the names of the running characters changed (a pet started or
// stopped, or was renamed). UI thread.
func (y *yui) applyPreset(c settings.Change, id string, p settings.Preset, enabled bool) (renamed bool) {
	s := y.roster.get(id)
	switch {
	case s == nil && !enabled:
		if _, kept := c.New.Preset(id); !kept {
			y.forget(id) // deleted while not running
		}
	case s == nil && enabled:
		y.log.Info("preset_enabled", "preset", id)
		y.start(p)
		return true
	case s != nil && !enabled:
		if _, kept := c.New.Preset(id); !kept {
			s.deleted.Store(true) // its history and memory go with it
		}
		y.log.Info("preset_disabled", "preset", id)
		y.stopSession(id)
		return true
	case s != nil:
		s.setLife(p.Life)
		switch restartFor(s.cfg(), p) {
		case restartSession:
			y.log.Info("preset_restart", "preset", id)
			renamed = s.cfg().Name != p.Name
			y.stopSession(id)
			y.start(p)
		case restartConn:
			y.log.Info("preset_reconnect", "preset", id)
			s.setPreset(p)
			if err := s.connect(); err != nil {
				y.log.Error("session_start_failed", "preset", id, "err", err.Error())
			}
			s.useMCP()
		}
	}
	return renamed
}

// forget removes the message history and conversation memory of a
// deleted preset.
func (y *yui) forget(id string) {
	for _, path := range []string{historyFile{dir: y.configDir, id: id}.path(), conversationFile{dir: y.configDir, id: id}.path()} {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			y.log.Warn("preset_forget", "preset", id, "err", err.Error())
		}
	}
	y.facts.drop(id)
	y.log.Info("preset_deleted", "preset", id)
}

// start starts p's session and logs a failure (apply's helper).
func (y *yui) start(p settings.Preset) {
	if _, err := y.startSession(p, y.roster.len()); err != nil {
		y.log.Error("session_start_failed", "preset", p.ID, "err", err.Error())
	}
}

func presetIDs(st settings.Settings) []string {
	ids := make([]string, len(st.Presets))
	for i, p := range st.Presets {
		ids[i] = p.ID
	}
	return ids
}

// overrides lists the command line's one-run overrides in force.
func (c Config) overrides() []string {
	var out []string
	for _, v := range []string{c.ChatAPI, c.ChatBaseURL, c.Model, c.Key} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// override applies the command line's one-run overrides to p.
func (c Config) override(p *settings.Preset) {
	if c.ChatAPI != "" {
		p.ChatAPI = c.ChatAPI
	}
	if c.ChatBaseURL != "" {
		p.ChatBaseURL = c.ChatBaseURL
	}
	if c.Model != "" {
		p.Model = c.Model
	}
	if c.Key != "" {
		p.Key = c.Key
	}
}

func (y *yui) activeID() string { return y.source().activeID() }

// For the settings and message windows (app/windows.go).

func (y *yui) Store() *settings.Store { return y.store }

func (y *yui) Session(presetID string) windows.Session {
	if s := y.roster.get(presetID); s != nil {
		return s
	}
	return nil
}

func (y *yui) WatchSessions(fn func()) func() { return y.roster.watch(fn) }

// address_character.

// addressTool is address_character for preset self; its description names
// the other characters that run now.
func (y *yui) addressTool(self settings.Preset) transport.Tool {
	return address.New(self.Name, y.otherNames(self), directory{y: y})
}

// otherNames are the names of the characters other than self that run now.
func (y *yui) otherNames(self settings.Preset) []string {
	var others []string
	for _, p := range y.runnable(y.source().settings()) {
		if p.ID != self.ID {
			others = append(others, p.Name)
		}
	}
	return others
}

// directory finds characters for address_character: the running sessions,
// then the presets that are not running.
type directory struct{ y *yui }

func (d directory) Find(name string) (string, func(from, text string)) {
	for _, s := range d.y.roster.all() {
		if strings.EqualFold(s.cfg().Name, name) {
			target := s
			return s.cfg().Name, func(from, text string) {
				if c := target.ctl(); c != nil {
					c.Address(from, text)
					d.y.log.Info("address_character", "from", from, "to", target.cfg().ID)
				}
			}
		}
	}
	for _, p := range d.y.source().settings().Presets {
		if strings.EqualFold(p.Name, name) {
			return p.Name, nil
		}
	}
	return "", nil
}
