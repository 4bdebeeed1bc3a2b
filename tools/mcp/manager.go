package mcp

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"

	"yui/transport/clock"
)

// Options configure a Manager.
type Options struct {
	// Clock times starts, calls and backoffs; nil is the wall clock.
	Clock clock.Clock
	// Log gets mcp_server, mcp_call and mcp_stderr; nil discards.
	Log *slog.Logger
	// Dial makes connections; nil is Dial (processes and HTTP).
	Dial Dialer
	// OnChange is told, on any goroutine and with no lock held, that a
	// server's state or tools changed.
	OnChange func(name string)
}

// Manager owns the configured servers: it runs those some preset uses.
// Its methods do not block on a server; Close waits for them all.
type Manager struct {
	env *env

	mu      sync.Mutex
	cfgs    map[string]ServerConfig
	users   map[string][]string // preset id → the server names it uses
	servers map[string]*server  // running (or starting, or failed)
	closed  bool
	stops   sync.WaitGroup // servers stopping in the background
}

// NewManager returns a manager with no servers.
func NewManager(o Options) *Manager {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Dial == nil {
		o.Dial = Dial
	}
	m := &Manager{cfgs: map[string]ServerConfig{}, users: map[string][]string{}, servers: map[string]*server{}}
	m.env = &env{clk: o.Clock, log: o.Log, dial: o.Dial, changed: func(name string) {
		if o.OnChange != nil {
			o.OnChange(name)
		}
	}}
	return m
}

// Configure sets the servers of the mcp_servers setting. A server whose
// configuration changed restarts; one removed stops. Invalid configs are
// left out (the settings validation names them to the user).
func (m *Manager) Configure(cfgs []ServerConfig) {
	m.mu.Lock()
	next := map[string]ServerConfig{}
	for _, c := range cfgs {
		if c.Validate() == nil {
			next[c.Name] = c
		}
	}
	for name, s := range m.servers {
		if c, ok := next[name]; !ok || !c.equal(s.cfg) {
			m.stopLocked(name)
		}
	}
	m.cfgs = next
	m.reconcileLocked()
	m.mu.Unlock()
}

// Use sets the servers preset uses (its mcp setting): the first preset
// that uses a server starts it, and a server no preset uses stops.
// names nil releases the preset.
func (m *Manager) Use(preset string, names []string) {
	m.mu.Lock()
	if len(names) == 0 {
		delete(m.users, preset)
	} else {
		m.users[preset] = slices.Clone(names)
	}
	m.reconcileLocked()
	m.mu.Unlock()
}

// reconcileLocked starts the wanted servers and stops the others.
func (m *Manager) reconcileLocked() {
	if m.closed {
		return
	}
	want := map[string]bool{}
	for _, names := range m.users {
		for _, n := range names {
			if _, ok := m.cfgs[n]; ok {
				want[n] = true
			}
		}
	}
	for name := range m.servers {
		if !want[name] {
			m.stopLocked(name)
		}
	}
	for name := range want {
		if _, ok := m.servers[name]; !ok {
			m.servers[name] = newServer(m.cfgs[name], m.env)
		}
	}
}

// stopLocked stops a server in the background; Close waits for it.
func (m *Manager) stopLocked(name string) {
	s := m.servers[name]
	delete(m.servers, name)
	m.stops.Add(1)
	go func() {
		defer m.stops.Done()
		s.stop()
	}()
}

// Restart restarts a server now, forgetting its backoff and failure.
func (m *Manager) Restart(name string) {
	m.mu.Lock()
	s := m.servers[name]
	m.mu.Unlock()
	if s != nil {
		s.kick()
	}
}

// Status is a server's state; a configured server that no preset uses
// is stopped.
func (m *Manager) Status(name string) (Status, bool) {
	m.mu.Lock()
	s, running := m.servers[name]
	_, ok := m.cfgs[name]
	m.mu.Unlock()
	if running {
		return s.status(), true
	}
	return Status{Name: name, State: StateStopped}, ok
}

// Statuses are every configured server's states, by name.
func (m *Manager) Statuses() []Status {
	m.mu.Lock()
	names := slices.Sorted(maps.Keys(m.cfgs))
	m.mu.Unlock()
	out := make([]Status, 0, len(names))
	for _, n := range names {
		if st, ok := m.Status(n); ok {
			out = append(out, st)
		}
	}
	return out
}

// server returns the running server named name, or nil.
func (m *Manager) server(name string) *server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.servers[name]
}

// Test connects to cfg once, lists its tools and disconnects: the Tools
// tab's Test, for a server that may not be saved yet. ctx bounds it.
func (m *Manager) Test(ctx context.Context, cfg ServerConfig) ([]ToolInfo, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := *m.env
	e.changed = func(string) {}
	s := &server{cfg: cfg, env: &e, ctx: ctx, cancel: func() {}, relist: make(chan struct{}, 1)}
	s.stderr = newStderrLog(e.log, cfg.Name)
	sess, end, err := s.connect()
	if err != nil {
		return nil, err
	}
	defer func() {
		sess.Close()
		if end != nil {
			end()
		}
	}()
	return s.list(sess)
}

// Close stops every server and waits until they have exited.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	for name := range m.servers {
		m.stopLocked(name)
	}
	m.mu.Unlock()
	m.stops.Wait()
}
