package push

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
	"yui/transport/pushsim"
)

// A barge-in stops a turn without a stop frame; the stop button pressed
// afterwards still names it, since it is outstanding and the backend may
// still be running it.
func TestStopNamesTurnsStoppedWithoutStopFrame(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	mustEqual(t, h.c.Interrupt(false), []string{id})
	mustEqual(t, expect[*transport.TurnEndEvent](h).Outcome, transport.TurnStopped)
	mustEqual(t, h.c.Interrupt(true), []string(nil))
	f := h.nextFrame("stop")
	mustEqual(t, string(f.Raw), `{"type":"stop","turn_ids":["`+id+`"]}`)
	h.logs.waitFor(t, "push.stop", "turns", 1)
	// No second TurnEndEvent for it.
	if evs := h.sentinel(); len(evs) != 0 {
		t.Fatalf("%v", evs)
	}
}

// Dropped render and speech records keep the fields of their kind.
func TestDroppedRecordsCarryTheirFields(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	h.c.Interrupt(false)
	expect[*transport.TurnEndEvent](h)
	h.send(render(id, "a", "b"))
	h.send(speechFrame(id, "c"))
	h.logs.waitFor(t, "push.render", "turn_id", id, "source", "hermes", "segments", 2, "dropped", "cut_turn", "stopped_count", 1)
	h.logs.waitFor(t, "push.speech", "turn_id", id, "segments", 1, "dropped", "cut_turn", "stopped_count", 1)
}

// A turn started while the socket is between attempts fails at once as a
// network failure and writes no turn record.
func TestSendWhileReconnectingFails(t *testing.T) {
	h := newHarness(t, setup{})
	h.conn.CloseWith(1011, "")
	h.waitState(transport.StateReconnecting)
	id := h.c.Send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: "x"})
	te := expect[*transport.TurnEndEvent](h)
	if te.TurnID != id || te.Outcome != transport.TurnFailed || !te.OwnTurn {
		t.Fatalf("%+v", te)
	}
	h.logs.waitFor(t, "network_drop", "turn_id", id, "stage", "push_wait")
	if len(h.logs.named("turn", "turn_id", id)) != 0 {
		t.Fatal("turn record for a turn never sent")
	}
}

// Reconnect while the dial hangs abandons it and dials again now, with no
// backoff.
func TestReconnectWhileDialing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c // never answers the upgrade: the dial hangs
		}
	}()
	logs := newLogSink()
	clk := clocktest.NewFake(t0)
	c, err := New(transport.Options{ChatBaseURL: "http://" + ln.Addr().String(), Clock: clk, Logger: slogOf(logs)})
	if err != nil {
		t.Fatal(err)
	}
	c.Start()
	first := acceptOne(t, accepted)
	defer first.Close()
	c.Reconnect()
	second := acceptOne(t, accepted)
	defer second.Close()
	if len(logs.named("ws_reconnect")) != 0 {
		t.Fatal("Reconnect waited for a backoff")
	}
	mustEqual(t, c.State().State, transport.StateConnecting)
	// Close does not wait out the stalled handshake either.
	start := time.Now()
	c.Close()
	if d := time.Since(start); d > handshakeWait/2 {
		t.Fatalf("Close took %v", d)
	}
}

func acceptOne(t *testing.T, ch <-chan net.Conn) net.Conn {
	t.Helper()
	select {
	case c := <-ch:
		return c
	case <-time.After(wait):
		t.Fatal("no dial")
		return nil
	}
}

// A client-initiated close (Reconnect, Close) is logged with the normal
// closure code it sent.
func TestOwnCloseLogsNormalClosure(t *testing.T) {
	h := newHarness(t, setup{})
	h.c.Reconnect()
	h.logs.waitFor(t, "ws_close", "code", 1000)
	<-h.conn.Done()
	mustEqual(t, h.conn.ClientCloseCode(), 1000)
}

// The consumer not reading Events never blocks the transport: the read
// loop keeps answering tool calls, API calls return, and the events come
// later, all of them, in order.
func TestUndrainedEventsNeverBlock(t *testing.T) {
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("look", 2*time.Second, okHandler)}
	}})
	const n = 2000
	for i := range n {
		h.send(speechFrame("b-1", fmt.Sprint(i)))
	}
	h.send(call("c-1", "b-1", "look", map[string]any{"action": "read"}))
	r, _ := h.toolResult()
	mustEqual(t, r.Result, "ok: look")
	id := h.c.Send(transport.Turn{Trigger: transport.TriggerPoke})
	h.nextFrame("turn")
	h.c.Interrupt(true)
	h.nextFrame("stop")
	for i := range n {
		re := expect[*transport.RenderEvent](h)
		mustEqual(t, re.Segments[0].Speech, fmt.Sprint(i))
	}
	te := expect[*transport.TurnEndEvent](h)
	if te.TurnID != id || te.Outcome != transport.TurnStopped {
		t.Fatalf("%+v", te)
	}
}

// Close returns with events still queued and unread.
func TestCloseWithUndrainedEvents(t *testing.T) {
	h := newHarness(t, setup{})
	for i := range 100 {
		h.send(speechFrame("b-1", fmt.Sprint(i)))
	}
	h.logs.waitFor(t, "push.speech", "segments", 1)
	done := make(chan struct{})
	go func() {
		h.c.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("Close blocked on unread events")
	}
}

// A done item the backend sent without ended_at counts from started_at,
// and leaves the chip on time.
func TestDelegationDoneWithoutEndedAt(t *testing.T) {
	h := newHarness(t, setup{})
	h.send(map[string]any{"type": "delegations", "items": []any{
		map[string]any{"id": "d-1", "title": "t", "started_at": t0.Add(-10 * time.Minute).UnixMilli(), "state": "done", "status": "ok"},
	}})
	mustEqual(t, len(expect[*transport.DelegationsEvent](h).Items), 1)
	h.advance(1, 20*time.Minute)
	mustEqual(t, len(expect[*transport.DelegationsEvent](h).Items), 0)
}

// Even "error: result too large" can be over the text frame size when the
// call's ids filled its inbound frame: that answer is never sent either.
func TestToolResultAnswerOversizeNeverSent(t *testing.T) {
	h := newHarness(t, setup{})
	shell := `{"type":"tool_call","id":"","turn_id":"b-1","name":"nope"}`
	cid := strings.Repeat("i", TextFrameLimit-len(shell))
	h.conn.SendRaw([]byte(`{"type":"tool_call","id":"` + cid + `","turn_id":"b-1","name":"nope"}`))
	h.logs.waitFor(t, "push.tool_result", "dropped", "oversize")
	h.logs.waitFor(t, "frame_oversize", "direction", "out", "type", "tool_result")
	h.c.Reset()
	h.nextFrame("reset")
	for _, f := range h.conn.Received() {
		if f.Type == "tool_result" {
			t.Fatalf("oversize tool_result sent (%d bytes)", len(f.Raw))
		}
	}
}

// A stopped turn the runner no longer remembers (it keeps its latest 64)
// still gets "error: turn stopped": the client holds it until its turn_end.
func TestToolCallOfLongStoppedTurn(t *testing.T) {
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("look", 2*time.Second, okHandler)}
	}})
	for i := range 80 {
		h.send(map[string]any{"type": "reasoning", "turn_id": fmt.Sprintf("b-%d", i), "delta": "x"})
	}
	h.sentinel()
	h.c.Interrupt(false)
	h.send(call("c-1", "b-0", "look", map[string]any{"action": "read"}))
	r, _ := h.toolResult()
	mustEqual(t, r.Result, "error: turn stopped")
}

// A turn frame the socket's writer cannot take fails the turn at once
// instead of waiting out a frame wait for a frame that never left.
func TestSendFailsWhenWriteQueueFull(t *testing.T) {
	logs := newLogSink()
	c, cn := offlineClient(t, clocktest.NewFake(t0), slogOf(logs))
	defer c.Close()
	for range maxQueuedOut {
		cn.enqueue([]byte(`{"type":"reset"}`))
	}
	id := c.Send(transport.Turn{Trigger: transport.TriggerPoke})
	logs.waitFor(t, "network_drop", "turn_id", id, "reason", "not sent")
	logs.waitFor(t, "push.send_dropped", "type", "turn")
	c.mu.Lock()
	held := len(c.book.turns)
	c.mu.Unlock()
	mustEqual(t, held, 0)
}

// A ready decoded after the hello wait closed the socket does not make it
// ready.
func TestReadyAfterHelloWaitIgnored(t *testing.T) {
	logs := newLogSink()
	c, _ := offlineClient(t, clocktest.NewFake(t0), slogOf(logs))
	defer c.Close()
	cn := newConn(nil)
	cn.closed = true
	c.handleFrame(cn, []byte(`{"type":"ready"}`))
	c.onReady(cn, []byte(`{"type":"ready"}`))
	if cn.ready || len(logs.named("ws_ready")) != 0 || len(logs.named("frame_malformed", "reason", "repeated ready")) != 0 {
		t.Fatalf("ready on a closed socket: %v", logs.all())
	}
}

func TestWebSocketURLKeepsEscapedBasePath(t *testing.T) {
	got, err := WebSocketURL("https://host:8646/a%2Fb/")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, got, "wss://host:8646/a%2Fb/ws")
}

// A vocabulary set before Start goes out in the first hello, and no
// vocabulary frame follows ready.
func TestSetVocabularyBeforeStart(t *testing.T) {
	srv, err := pushsim.Start(pushsim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := New(transport.Options{ChatBaseURL: srv.URL, Clock: clocktest.NewFake(t0)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetVocabulary(transport.Vocabulary{EmotionIDs: []string{"sad"}, EmotionTextMode: "enum"})
	c.Start()
	cn := srv.NextConn(t, wait)
	mustEqual(t, string(cn.Hello.Vocabulary), `{"emotion_ids":["sad"],"motion_ids":[],"emotion_text_mode":"enum","emotion_text_map":{}}`)
	for ev := range c.Events() {
		if st, ok := ev.(*transport.StateEvent); ok && st.State == transport.StateReady {
			break
		}
	}
	c.Reset()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	f, err := cn.Next(ctx)
	if err != nil || f.Type != "reset" {
		t.Fatalf("first frame after hello: %v %v", f.Type, err)
	}
}

// Reconnect during the backoff wait dials now and drops the wait.
func TestReconnectDuringBackoff(t *testing.T) {
	h := newHarness(t, setup{})
	h.conn.CloseWith(1011, "")
	h.waitState(transport.StateReconnecting)
	h.c.Reconnect()
	h.waitState(transport.StateReady) // the fake clock never moved
	h.conn = h.nextConn()
	mustEqual(t, h.clk.Pending(), 0)
}
