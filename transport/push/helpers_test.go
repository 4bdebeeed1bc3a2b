package push

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
	"yui/transport/pushsim"
)

// wait bounds every real-time wait in these tests.
const wait = 5 * time.Second

var t0 = time.Date(2026, 9, 14, 6, 4, 14, 0, time.UTC)

const testKey = "sk-secret-key-0123456789"

// record is one captured log record.
type record struct {
	Msg   string
	Attrs map[string]any
}

// logSink captures log records for assertions.
type logSink struct {
	mu      sync.Mutex
	records []record
	changed chan struct{}
	attrs   []slog.Attr
	root    *logSink
}

func newLogSink() *logSink {
	s := &logSink{changed: make(chan struct{})}
	s.root = s
	return s
}

func (s *logSink) Enabled(context.Context, slog.Level) bool { return true }

func (s *logSink) Handle(_ context.Context, r slog.Record) error {
	rec := record{Msg: r.Message, Attrs: map[string]any{}}
	for _, a := range s.attrs {
		rec.Attrs[a.Key] = a.Value.Any()
	}
	r.Attrs(func(a slog.Attr) bool {
		rec.Attrs[a.Key] = a.Value.Resolve().Any()
		return true
	})
	root := s.root
	root.mu.Lock()
	root.records = append(root.records, rec)
	close(root.changed)
	root.changed = make(chan struct{})
	root.mu.Unlock()
	return nil
}

func (s *logSink) WithAttrs(as []slog.Attr) slog.Handler {
	return &logSink{root: s.root, attrs: append(append([]slog.Attr(nil), s.attrs...), as...)}
}

func (s *logSink) WithGroup(string) slog.Handler { return s }

func (s *logSink) all() []record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]record(nil), s.records...)
}

// named returns the records with msg whose attrs include every pair of kv.
func (s *logSink) named(msg string, kv ...any) []record {
	var out []record
	for _, r := range s.all() {
		if r.Msg == msg && matches(r, kv...) {
			out = append(out, r)
		}
	}
	return out
}

func matches(r record, kv ...any) bool {
	for i := 0; i+1 < len(kv); i += 2 {
		v, ok := r.Attrs[kv[i].(string)]
		if !ok || fmt.Sprint(v) != fmt.Sprint(kv[i+1]) {
			return false
		}
	}
	return true
}

// waitFor waits until a record with msg and kv is logged and returns it.
func (s *logSink) waitFor(t *testing.T, msg string, kv ...any) record {
	t.Helper()
	deadline := time.After(wait)
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if rs := s.named(msg, kv...); len(rs) > 0 {
			return rs[0]
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no log record %s %v; have %v", msg, kv, s.all())
		}
	}
}

// harness is a client connected to a pushsim server on a fake clock.
type harness struct {
	t    *testing.T
	srv  *pushsim.Server
	clk  *clocktest.Fake
	c    *Client
	logs *logSink
	conn *pushsim.Conn
	ctx  context.Context
}

type setup struct {
	server pushsim.Options
	opts   func(*transport.Options)
	noWait bool // do not wait for ready
}

func newHarness(t *testing.T, s setup) *harness {
	t.Helper()
	srv, err := pushsim.Start(s.server)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	h := &harness{t: t, srv: srv, clk: clocktest.NewFake(t0), logs: newLogSink()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	h.ctx = ctx
	opts := transport.Options{
		ChatBaseURL: srv.URL,
		Key:         testKey,
		ChatID:      "yui-3f9a2c1d",
		Vocabulary: transport.Vocabulary{
			EmotionIDs: []string{"neutral", "happy"}, MotionIDs: []string{"idle"},
			EmotionTextMode: "enum", EmotionTextMap: map[string]string{"😆": "joyfully"},
		},
		Clock:    h.clk,
		Logger:   slog.New(h.logs),
		Location: time.UTC,
	}
	if s.opts != nil {
		s.opts(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.c = c
	t.Cleanup(func() { c.Close() })
	c.Start()
	if !s.noWait {
		h.waitState(transport.StateReady)
		h.conn = h.nextConn()
	}
	return h
}

func (h *harness) nextConn() *pushsim.Conn {
	h.t.Helper()
	select {
	case cn := <-h.srv.Conns():
		return cn
	case <-time.After(wait):
		h.t.Fatal("no connection")
		return nil
	}
}

// next returns the next event.
func (h *harness) next() transport.Event {
	h.t.Helper()
	select {
	case ev, ok := <-h.c.Events():
		if !ok {
			h.t.Fatal("events closed")
		}
		return ev
	case <-time.After(wait):
		h.t.Fatal("no event")
		return nil
	}
}

// nextNonState returns the next event that is not a StateEvent.
func (h *harness) nextNonState() transport.Event {
	h.t.Helper()
	for {
		ev := h.next()
		if _, ok := ev.(*transport.StateEvent); !ok {
			return ev
		}
	}
}

func (h *harness) waitState(want transport.ConnState) *transport.StateEvent {
	h.t.Helper()
	for {
		if st, ok := h.next().(*transport.StateEvent); ok && st.State == want {
			return st
		}
	}
}

// expect reads the next non-state event and checks its type.
func expect[T transport.Event](h *harness) T {
	h.t.Helper()
	ev := h.nextNonState()
	v, ok := ev.(T)
	if !ok {
		h.t.Fatalf("got %T %+v, want %T", ev, ev, *new(T))
	}
	return v
}

// send sends a frame from the backend.
func (h *harness) send(frame any) {
	h.t.Helper()
	if err := h.conn.Send(frame); err != nil {
		h.t.Fatal(err)
	}
}

// sentinel sends a reasoning frame for a backend turn and waits for its
// event: every frame sent before it has been handled. It returns the
// events that came before it.
func (h *harness) sentinel() []transport.Event {
	h.t.Helper()
	id := fmt.Sprintf("sentinel-%d", time.Now().UnixNano())
	h.send(map[string]any{"type": "reasoning", "turn_id": id, "delta": "x"})
	var before []transport.Event
	for {
		ev := h.next()
		if r, ok := ev.(*transport.ReasoningEvent); ok && r.TurnID == id {
			return before
		}
		if _, ok := ev.(*transport.StateEvent); !ok {
			before = append(before, ev)
		}
	}
}

// nextFrame returns the next frame the client sent of type typ.
func (h *harness) nextFrame(typ string) pushsim.Frame {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, wait)
	defer cancel()
	f, err := h.conn.NextOfType(ctx, typ)
	if err != nil {
		h.t.Fatalf("no %s frame: %v", typ, err)
	}
	return f
}

func decodeMap(t *testing.T, f pushsim.Frame) map[string]any {
	t.Helper()
	var m map[string]any
	if err := f.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// sendTurn sends a poke turn (which stops nothing) and returns its id
// after the turn frame arrived at the server.
func (h *harness) sendTurn(text string) string {
	h.t.Helper()
	id := h.c.Send(transport.Turn{Trigger: transport.TriggerPoke, Text: text})
	f := h.nextFrame("turn")
	if got := decodeMap(h.t, f)["turn_id"]; got != id {
		h.t.Fatalf("turn frame id %v, want %s", got, id)
	}
	return id
}

func render(id string, speech ...string) map[string]any {
	segs := []map[string]any{}
	for _, s := range speech {
		segs = append(segs, map[string]any{"cues": []map[string]any{{"emotion_id": "happy"}}, "speech": s})
	}
	return map[string]any{"type": "render", "turn_id": id, "source": "hermes", "segments": segs}
}

func speechFrame(id, s string) map[string]any {
	return map[string]any{"type": "speech", "turn_id": id, "segments": []map[string]any{{"speech": s}}}
}

func turnEnd(id string) map[string]any { return map[string]any{"type": "turn_end", "turn_id": id} }

// advance moves the fake clock once n timers are pending.
func (h *harness) advance(n int, d time.Duration) {
	h.t.Helper()
	if !h.clk.WaitPending(n, wait) {
		h.t.Fatalf("want %d pending timers, have %d", n, h.clk.Pending())
	}
	h.clk.Advance(d)
}

func mustEqual(t *testing.T, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func slogOf(s *logSink) *slog.Logger { return slog.New(s) }

// takeQueued returns and clears the queued frames (the fuzz test has no socket).
func (cn *conn) takeQueued() [][]byte {
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	q := cn.queue
	cn.queue = nil
	return q
}
