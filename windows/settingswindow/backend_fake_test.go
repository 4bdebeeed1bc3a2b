package settingswindow

import (
	"context"
	"sync"
	"testing"

	"yui/app/localserver"
	"yui/app/settings"
	"yui/pet"
	"yui/pet/speech"
	"yui/pet/transcript"
	"yui/pet/voice"
	"yui/tools/memory"
	"yui/transport"
	"yui/windows"
)

// fakeConn is a running preset for window tests: it records actions and
// lets the test publish views.
type fakeConn struct {
	mu       sync.Mutex
	view     pet.View
	watchers map[int]func(pet.View)
	next     int
	log      *transcript.Log

	sent       []string
	stops      int
	reconnects int
	resets     int
}

func newFakeConn() *fakeConn {
	return &fakeConn{watchers: map[int]func(pet.View){}, log: transcript.Open(transcript.Options{}),
		view: pet.View{Pill: pet.Pill{Conn: "ready", ConnState: transport.StateReady}}}
}

func (c *fakeConn) View() pet.View {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view
}

func (c *fakeConn) WatchView(fn func(pet.View)) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := c.next
	c.next++
	c.watchers[id] = fn
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.watchers, id)
	}
}

// publish sets the view and tells the watchers, as the app does.
func (c *fakeConn) publish(v pet.View) {
	c.mu.Lock()
	c.view = v
	var fns []func(pet.View)
	for _, fn := range c.watchers {
		fns = append(fns, fn)
	}
	c.mu.Unlock()
	for _, fn := range fns {
		fn(v)
	}
}

func (c *fakeConn) Transcript() *transcript.Log { return c.log }

func (c *fakeConn) SendText(text string, _ []transport.Image) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, text)
}

func (c *fakeConn) Stop()      { c.mu.Lock(); c.stops++; c.mu.Unlock() }
func (c *fakeConn) Reconnect() { c.mu.Lock(); c.reconnects++; c.mu.Unlock() }
func (c *fakeConn) Reset()     { c.mu.Lock(); c.resets++; c.mu.Unlock() }

// fakeBackend is the app for window tests: a real settings store in a
// temporary folder and fake connections for the presets the test runs.
type fakeBackend struct {
	store *settings.Store

	mu      sync.Mutex
	conns   map[string]*fakeConn
	probe   windows.Probe
	probed  []settings.Preset
	spoken  []settings.Preset
	voice   string
	opened  int
	shown   int
	watches map[int]func()
	next    int
	servers []localserver.Server // what FindServers finds
	scans   int
	demos   int
	facts   map[string]*memory.Store // the Memory page's stores, kept in memory
	metered []string                 // the devices metered
	meterCh chan string              // when set, gets each device metered
}

func newFakeBackend(t testing.TB) *fakeBackend {
	t.Helper()
	st, _, err := settings.Open(t.TempDir(), settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return &fakeBackend{store: st, conns: map[string]*fakeConn{}, watches: map[int]func(){}}
}

func (b *fakeBackend) Store() *settings.Store { return b.store }

func (b *fakeBackend) Conn(id string) windows.Conn {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.conns[id]; ok {
		return c
	}
	return nil // a nil interface, not a typed nil
}

// run makes preset id running with a fresh fake connection.
func (b *fakeBackend) run(id string) *fakeConn {
	c := newFakeConn()
	b.mu.Lock()
	b.conns[id] = c
	var fns []func()
	for _, fn := range b.watches {
		fns = append(fns, fn)
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
	return c
}

func (b *fakeBackend) WatchConns(fn func()) func() {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	b.watches[id] = fn
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.watches, id)
	}
}

func (b *fakeBackend) Probe(_ context.Context, p settings.Preset) windows.Probe {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probed = append(b.probed, p)
	return b.probe
}

func (b *fakeBackend) SpeakSample(_ context.Context, p settings.Preset) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.spoken = append(b.spoken, p)
	return nil
}

func (b *fakeBackend) TestVoice(context.Context, settings.Preset) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.voice, nil
}

func (b *fakeBackend) Voices(_ context.Context, engine string) ([]speech.Voice, error) {
	if engine == "system" {
		return []speech.Voice{{ID: "en-us", Language: "en-us", Name: "English (America)"}, {ID: "de", Language: "de", Name: "German"}}, nil
	}
	return speech.Voices(context.Background(), engine)
}

func (b *fakeBackend) AudioDevices() (voice.Devices, error) {
	return voice.Devices{Inputs: []voice.Device{{Name: "Built-in Microphone", Default: true}, {Name: "USB Headset"}}}, nil
}

func (b *fakeBackend) MeterVoice(ctx context.Context, p settings.Preset, fn func(voice.Reading)) error {
	b.mu.Lock()
	ch := b.meterCh
	b.mu.Unlock()
	if ch != nil { // a test that reads the meter; others leave the widget alone
		fn(voice.Reading{Level: -30, Floor: -60, Threshold: -52})
	}
	b.mu.Lock()
	b.metered = append(b.metered, p.Voice.Device)
	b.mu.Unlock()
	if ch != nil {
		select {
		case ch <- p.Voice.Device:
		case <-ctx.Done():
		}
	}
	<-ctx.Done()
	return nil
}

func (b *fakeBackend) ShowPets() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.shown++
}

func (b *fakeBackend) Memory(id string) *memory.Store {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.facts == nil {
		b.facts = map[string]*memory.Store{}
	}
	if b.facts[id] == nil {
		b.facts[id] = memory.Open(nil, nil, nil)
	}
	return b.facts[id]
}

func (b *fakeBackend) LogDir() string { return "/tmp/yui-logs" }

func (b *fakeBackend) OpenLogFolder() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.opened++
	return nil
}

func (b *fakeBackend) FindServers(context.Context) []localserver.Server {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.scans++
	return b.servers
}

func (b *fakeBackend) FoundServers() []localserver.Server {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.servers
}

func (b *fakeBackend) UseServer(id string, s localserver.Server) {
	b.store.UpdatePreset(id, func(p *settings.Preset) error {
		p.ChatBaseURL, p.Model = s.URL, s.Model
		return nil
	})
}

func (b *fakeBackend) TryDemo() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.demos++
	return nil
}

var _ windows.Backend = (*fakeBackend)(nil)
