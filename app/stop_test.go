package app

import (
	"log/slog"
	"strconv"
	"sync"
	"testing"

	"yui/pet"
	"yui/pet/settings"
	"yui/tools/look"
	"yui/transport"
)

// heldTransport is a transport whose turns run until they are interrupted.
type heldTransport struct {
	mu      sync.Mutex
	next    int
	running []string
	stopped []string
	events  chan transport.Event
}

func (f *heldTransport) Start() {}

func (f *heldTransport) Send(transport.Turn) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	id := strconv.Itoa(f.next)
	f.running = append(f.running, id)
	return id
}

func (f *heldTransport) Interrupt(bool) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := f.running
	f.running = nil
	f.stopped = append(f.stopped, ids...)
	return ids
}

func (f *heldTransport) Reset()                             {}
func (f *heldTransport) SetVocabulary(transport.Vocabulary) {}
func (f *heldTransport) ReportPlaybackFailed(string)        {}
func (f *heldTransport) Reconnect()                         {}
func (f *heldTransport) Events() <-chan transport.Event     { return f.events }
func (f *heldTransport) State() transport.StateEvent {
	return transport.StateEvent{State: transport.StateReady}
}
func (f *heldTransport) Close() error { return nil }

// A typed turn that carries a screenshot is prepared off the UI thread:
// meanwhile the session is busy (the composer's button stops), and a stop
// pressed before the turn went out stops it once it is sent.
func TestStopWhileATypedTurnIsPreparedStopsIt(t *testing.T) {
	release := make(chan struct{})
	tr := &heldTransport{events: make(chan transport.Event)}
	ctl := pet.New(pet.Options{Transport: tr, Screenshot: func(transport.Trigger) *transport.Screenshot {
		<-release // the capture takes a moment
		return nil
	}})
	log := slog.New(slog.DiscardHandler)
	y := &yui{log: log}
	s := &session{y: y, log: log, look: &look.Look{}}
	s.setPreset(settings.Preset{ScreenOnTurn: "always"})
	s.cur.Store(&conn{ctl: ctl})

	s.SendText("hello", nil)
	if !s.Busy() {
		t.Fatal("not busy while the typed turn is prepared")
	}
	s.Stop() // nothing was sent yet
	close(release)
	y.closing.Wait()
	tr.mu.Lock()
	running, stopped := tr.running, tr.stopped
	tr.mu.Unlock()
	if len(running) != 0 || len(stopped) != 1 {
		t.Fatalf("after the stop: running %v, stopped %v; want the prepared turn stopped", running, stopped)
	}
	if s.Busy() {
		t.Fatal("busy after the stopped turn")
	}

	// A turn sent after the stop runs.
	s.SendText("again", nil)
	y.closing.Wait()
	if !s.Busy() || len(tr.running) != 1 {
		t.Fatalf("the next turn: busy %v, running %v", s.Busy(), tr.running)
	}
}
