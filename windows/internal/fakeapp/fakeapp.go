// Package fakeapp is the app as the window packages' tests see it: a
// the small interfaces the message and settings windows declare
// (messagewindow.App, settingswindow.App's) on a real settings store in a
// temporary folder, and
// windows.Session fakes that record what a window asks of a running preset.
// One copy for the settings and the message window's tests.
package fakeapp

import (
	"context"
	"sync"
	"testing"

	"yui/pet"
	"yui/pet/settings"
	"yui/pet/speech"
	"yui/pet/transcript"
	"yui/pet/voice"
	"yui/tools/facts"
	"yui/transport"
	"yui/transport/localserver"
	"yui/transport/outbox"
	"yui/windows"
)

// Session is a running preset: it records what the window asks of it, and
// the test publishes views through it.
type Session struct {
	Mu       sync.Mutex
	view     pet.View
	views    outbox.Fanout[pet.View]
	watchers int // subscribed to views
	log      *transcript.Log

	Sent       []string // what SendText got
	Stops      int
	Reconnects int
	Resets     int
}

// NewConn is a ready connection with an empty transcript.
func NewConn() *Session {
	return &Session{log: transcript.Open(transcript.Options{}),
		view: pet.View{Pill: pet.Pill{Conn: "ready", ConnState: transport.StateReady}}}
}

func (c *Session) View() pet.View {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.view
}

func (c *Session) WatchView(fn func(pet.View)) func() {
	c.Mu.Lock()
	c.watchers++
	c.Mu.Unlock()
	cancel := c.views.Subscribe(fn)
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			c.Mu.Lock()
			c.watchers--
			c.Mu.Unlock()
		})
	}
}

// Publish sets the view and tells the watchers, as the app does.
func (c *Session) Publish(v pet.View) {
	c.Mu.Lock()
	c.view = v
	c.Mu.Unlock()
	c.views.Publish(v)
}

func (c *Session) Transcript() *transcript.Log { return c.log }

func (c *Session) SendText(text string, _ []transport.Image) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	c.Sent = append(c.Sent, text)
}

func (c *Session) Stop() { c.Mu.Lock(); c.Stops++; c.Mu.Unlock() }

// Busy is the published view's Running, as the app's is while no turn is
// on its way.
func (c *Session) Busy() bool { c.Mu.Lock(); defer c.Mu.Unlock(); return c.view.Running }

func (c *Session) Reconnect() { c.Mu.Lock(); c.Reconnects++; c.Mu.Unlock() }
func (c *Session) Reset()     { c.Mu.Lock(); c.Resets++; c.Mu.Unlock() }

// Backend is the app: a real settings store in a temporary folder and
// fake connections for the presets the test runs.
type Backend struct {
	Settings *settings.Store

	Mu           sync.Mutex // guards the fields below
	conns        map[string]*Session
	ProbeResult  windows.Probe             // what Probe answers
	Probed       []settings.Preset         // what Probe was asked
	Spoken       []settings.Preset         // what SpeakSample was asked
	HeardVoice   string                    // what TestVoice hears
	Opened       int                       // OpenLogFolder calls
	Shown        int                       // ShowPets calls
	changes      outbox.Fanout[struct{}]   // a preset started or stopped
	Servers      []localserver.Server      // what FindServers finds
	AudioServers []localserver.AudioServer // what FindAudioServers finds
	ServerVoices []speech.Voice            // what an openai server at a base URL lists
	AudioScans   int
	Scans        int
	Demos        int
	facts        map[string]*facts.Store // the Memory page's stores, kept in memory
	Metered      []string                // the devices metered
	MeterCh      chan string             // when set, gets each device metered
	Desktop      windows.DesktopState    // what DesktopState answers; "" Session: X11's
	Installs     int                     // InstallDesktop calls
}

// NewBackend is a backend on a fresh store, closed when the test ends.
func NewBackend(t testing.TB) *Backend {
	t.Helper()
	st, _, err := settings.Open(t.TempDir(), settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return NewBackendOn(st)
}

// NewBackendOn is a backend on the store st, which the caller closes.
func NewBackendOn(st *settings.Store) *Backend {
	return &Backend{Settings: st, conns: map[string]*Session{}}
}

func (b *Backend) Store() *settings.Store { return b.Settings }

func (b *Backend) Session(id string) windows.Session {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	if c, ok := b.conns[id]; ok {
		return c
	}
	return nil // a nil interface, not a typed nil
}

// Run makes preset id running with a fresh connection and tells the
// watchers.
func (b *Backend) Run(id string) *Session {
	c := NewConn()
	b.Mu.Lock()
	b.conns[id] = c
	b.Mu.Unlock()
	b.changes.Publish(struct{}{})
	return c
}

func (b *Backend) WatchSessions(fn func()) func() {
	return b.changes.Subscribe(func(struct{}) { fn() })
}

func (b *Backend) Probe(_ context.Context, p settings.Preset) windows.Probe {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.Probed = append(b.Probed, p)
	return b.ProbeResult
}

func (b *Backend) SpeakSample(_ context.Context, p settings.Preset) error {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.Spoken = append(b.Spoken, p)
	return nil
}

func (b *Backend) TestVoice(context.Context, settings.Preset) (string, error) {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	return b.HeardVoice, nil
}

// Voices answers ServerVoices for an openai engine with a base URL, when
// set; the usual lists otherwise (no program runs).
func (b *Backend) Voices(_ context.Context, engine, base string) ([]speech.Voice, bool, error) {
	b.Mu.Lock()
	listed := b.ServerVoices
	b.Mu.Unlock()
	switch {
	case engine == "system":
		return []speech.Voice{{ID: "en-us", Language: "en-us", Name: "English (America)"}, {ID: "de", Language: "de", Name: "German"}}, false, nil
	case engine == "openai" && base != "" && len(listed) > 0:
		return listed, true, nil
	}
	vs, err := speech.Voices(context.Background(), engine)
	return vs, false, err
}

func (b *Backend) AudioDevices() (voice.Devices, error) {
	return voice.Devices{Inputs: []voice.Device{{Name: "Built-in Microphone", Default: true}, {Name: "USB Headset"}}}, nil
}

func (b *Backend) MeterVoice(ctx context.Context, p settings.Preset, fn func(voice.Reading)) error {
	b.Mu.Lock()
	ch := b.MeterCh
	b.Mu.Unlock()
	if ch != nil { // a test that reads the meter; others leave the widget alone
		fn(voice.Reading{Level: -30, Floor: -60, Threshold: -52})
	}
	b.Mu.Lock()
	b.Metered = append(b.Metered, p.Voice.Device)
	b.Mu.Unlock()
	if ch != nil {
		select {
		case ch <- p.Voice.Device:
		case <-ctx.Done():
		}
	}
	<-ctx.Done()
	return nil
}

func (b *Backend) ShowPets() {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.Shown++
}

func (b *Backend) Facts(id string) *facts.Store {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	if b.facts == nil {
		b.facts = map[string]*facts.Store{}
	}
	if b.facts[id] == nil {
		b.facts[id] = facts.Open(nil, nil, nil)
	}
	return b.facts[id]
}

func (b *Backend) LogDir() string { return "/tmp/yui-logs" }

func (b *Backend) OpenLogFolder() error {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.Opened++
	return nil
}

func (b *Backend) FindServers(context.Context) []localserver.Server {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.Scans++
	return b.Servers
}

func (b *Backend) FoundServers() []localserver.Server {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	return b.Servers
}

func (b *Backend) UseServer(id string, s localserver.Server) {
	b.Settings.UpdatePreset(id, func(p *settings.Preset) error {
		p.ChatBaseURL, p.Model = s.URL, s.Model
		return nil
	})
}

func (b *Backend) TryDemo() error {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.Demos++
	return nil
}

// Replace makes c preset id's connection without telling the watchers,
// as when a preset restarts between two of their calls.
func (b *Backend) Replace(id string, c *Session) {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.conns[id] = c
}

// StopRunning makes preset id not running and tells the watchers, as the
// app does when a preset stops.
func (b *Backend) StopRunning(id string) {
	b.Mu.Lock()
	delete(b.conns, id)
	b.Mu.Unlock()
	b.changes.Publish(struct{}{})
}

// Watchers is how many watch the connection's view.
func (c *Session) Watchers() int {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.watchers
}

// Backend implements the message window's App and every interface of the
// settings window's App; their tests hold that (backend_fake_test.go),
// since this package cannot import the packages whose tests import it.
var _ windows.Session = (*Session)(nil)

// DesktopState is b.Desktop, or an X11 session's: every window seen.
func (b *Backend) DesktopState(context.Context) windows.DesktopState {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	if b.Desktop.Session == "" {
		return windows.DesktopState{Session: "X11", Status: windows.DesktopSeen}
	}
	return b.Desktop
}

// InstallDesktop counts the call; the desktop then waits for the next login.
func (b *Backend) InstallDesktop(context.Context) error {
	b.Mu.Lock()
	defer b.Mu.Unlock()
	b.Installs++
	b.Desktop.Status, b.Desktop.CanInstall = windows.DesktopNextLogin, false
	return nil
}
