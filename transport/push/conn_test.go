package push

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
	"yui/transport/pushsim"
)

func TestWebSocketURL(t *testing.T) {
	good := []struct{ in, want string }{
		{"https://host:8646", "wss://host:8646/ws"},
		{"http://host:8646", "ws://host:8646/ws"},
		{"ws://host:8646", "ws://host:8646/ws"},
		{"wss://host:8646/", "wss://host:8646/ws"},
		{"https://h/base", "wss://h/base/ws"},
		{"https://h/base/", "wss://h/base/ws"},
		{"HTTPS://h", "wss://h/ws"},
		{" http://127.0.0.1:1 ", "ws://127.0.0.1:1/ws"},
	}
	for _, tc := range good {
		got, err := WebSocketURL(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("WebSocketURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "ftp://h", "h:8646", "://x", "http://", "file:///tmp", "https://u:pw@h\x7f"} {
		if got, err := WebSocketURL(in); err == nil {
			t.Errorf("WebSocketURL(%q) = %q, want an error", in, got)
		}
	}
	// A user's credentials never reach the error text.
	_, err := WebSocketURL("ftp://user:hunter2@h")
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %v", err)
	}
}

func TestInvalidURLNoDial(t *testing.T) {
	for _, base := range []string{"ftp://127.0.0.1:1", "not a url", "%zz"} {
		logs := newLogSink()
		c, err := New(transport.Options{ChatBaseURL: base, Clock: clocktest.NewFake(t0), Logger: slogOf(logs)})
		if err != nil {
			t.Fatal(err)
		}
		c.Start()
		ev := <-c.Events()
		st, ok := ev.(*transport.StateEvent)
		if !ok || st.State != transport.StateInvalid || st.Err == nil {
			t.Fatalf("%q: got %#v", base, ev)
		}
		if c.State().State != transport.StateInvalid {
			t.Fatal(c.State())
		}
		c.Reconnect() // still invalid, still no dial
		if len(logs.named("ws_open")) != 0 || len(logs.named("ws_dial_failed")) != 0 {
			t.Fatal("dialed")
		}
		id := c.Send(transport.Turn{Trigger: transport.TriggerPoke})
		te := (<-c.Events()).(*transport.TurnEndEvent)
		if te.TurnID != id || te.Outcome != transport.TurnFailed {
			t.Fatal(te)
		}
		c.Close()
	}
}

func TestHelloFirst(t *testing.T) {
	tools := []transport.Tool{{
		Name: "look", Description: "Read body state",
		Parameters: json.RawMessage(`{"type":"object","properties":{"at":{"type":"string","enum":["body"]}},"required":["at"],"additionalProperties":false}`),
		Wait:       2 * time.Second,
		Handler: func(context.Context, transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: "ok"}
		},
	}}
	h := newHarness(t, setup{opts: func(o *transport.Options) { o.Tools = tools }})
	hello := h.conn.Hello
	mustEqual(t, hello.Key, testKey)
	mustEqual(t, hello.ChatID, "yui-3f9a2c1d")
	mustEqual(t, hello.Accepts, []string{"error"})
	var m map[string]any
	json.Unmarshal(hello.Raw, &m)
	mustEqual(t, m["type"], "hello")
	mustEqual(t, mustJSON(m["vocabulary"]), `{"emotion_ids":["neutral","happy"],"emotion_text_map":{"😆":"joyfully"},"emotion_text_mode":"enum","motion_ids":["idle"]}`)
	mustEqual(t, len(hello.Tools), 1)
	var tool map[string]any
	json.Unmarshal(hello.Tools[0], &tool)
	mustEqual(t, tool["type"], "function")
	fn := tool["function"].(map[string]any)
	mustEqual(t, fn["name"], "look")
	mustEqual(t, fn["description"], "Read body state")
	mustEqual(t, fn["parameters"].(map[string]any)["required"], []any{"at"})
	h.logs.waitFor(t, "ws_open")
	h.logs.waitFor(t, "ws_ready")

	// Without declared tools the field is absent.
	h2 := newHarness(t, setup{})
	var m2 map[string]any
	json.Unmarshal(h2.conn.Hello.Raw, &m2)
	if _, ok := m2["tools"]; ok {
		t.Fatal("tools present with none declared")
	}
	mustEqual(t, mustJSON(m2["vocabulary"].(map[string]any)["emotion_ids"]), `["neutral","happy"]`)
}

func TestHelloNilVocabularyEncodesEmpty(t *testing.T) {
	h := newHarness(t, setup{opts: func(o *transport.Options) { o.Vocabulary = transport.Vocabulary{} }})
	var m map[string]any
	json.Unmarshal(h.conn.Hello.Raw, &m)
	mustEqual(t, mustJSON(m["vocabulary"]), `{"emotion_ids":[],"emotion_text_map":{},"emotion_text_mode":"free","motion_ids":[]}`)
}

// Other frames follow the backend's ready: before it, nothing but hello
// goes out, and a turn ends as a network failure.
func TestFramesOnlyAfterReady(t *testing.T) {
	h := newHarness(t, setup{server: pushsim.Options{NoReady: true}, noWait: true})
	h.conn = h.nextConn()
	h.waitState(transport.StateConnecting)
	id := h.c.Send(transport.Turn{Trigger: transport.TriggerPoke, Text: "hi"})
	te := expect[*transport.TurnEndEvent](h)
	if te.TurnID != id || te.Outcome != transport.TurnFailed || !te.OwnTurn {
		t.Fatalf("%+v", te)
	}
	h.logs.waitFor(t, "network_drop", "turn_id", id, "stage", "push_wait")
	h.c.Reset()
	h.c.SetVocabulary(transport.Vocabulary{EmotionIDs: []string{"sad"}})
	h.c.ReportPlaybackFailed(id)
	h.c.Interrupt(true)
	if len(h.logs.named("turn")) != 0 {
		t.Fatal("turn record for a turn that never went out")
	}

	// The backend's ready opens the socket for frames. The hello carried
	// the old vocabulary, so the change made while waiting follows ready;
	// nothing else made before ready is replayed.
	h.send(map[string]any{"type": "ready", "chat_id": "yui-3f9a2c1d"})
	h.waitState(transport.StateReady)
	h.c.Reset()
	f := h.nextFrame("reset")
	got := h.conn.Received()
	if len(got) != 2 || got[0].Type != "vocabulary" || got[1].Type != "reset" {
		t.Fatalf("frames: %v", got)
	}
	mustEqual(t, string(got[0].Raw), `{"type":"vocabulary","vocabulary":{"emotion_ids":["sad"],"motion_ids":[],"emotion_text_mode":"free","emotion_text_map":{}}}`)
	mustEqual(t, string(f.Raw), `{"type":"reset"}`)
}

func TestHelloWaitClosesAndReconnects(t *testing.T) {
	h := newHarness(t, setup{server: pushsim.Options{NoReady: true}, noWait: true})
	first := h.nextConn()
	// The hello timer is the only one pending.
	h.advance(1, HelloWait-time.Millisecond)
	select {
	case <-first.Done():
		t.Fatal("closed before the hello wait passed")
	default:
	}
	h.clk.Advance(time.Millisecond)
	select {
	case <-first.Done():
	case <-time.After(wait):
		t.Fatal("socket not closed after the hello wait")
	}
	h.logs.waitFor(t, "ws_ready_timeout")
	st := h.waitState(transport.StateReconnecting)
	mustEqual(t, st.RetryIn, time.Second)
	h.logs.waitFor(t, "ws_reconnect", "delay", "1s")
	h.advance(1, time.Second)
	h.nextConn()
	mustEqual(t, h.srv.Hellos(), 2)
}

func TestReconnectBackoff(t *testing.T) {
	// Every socket closes before ready: each attempt fails, the delay doubles
	// up to the cap.
	h := newHarness(t, setup{
		server: pushsim.Options{NoReady: true, OnConn: func(c *pushsim.Conn) { c.CloseWith(1011, "down") }},
		noWait: true,
	})
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30}
	for i, w := range want {
		st := h.waitState(transport.StateReconnecting)
		if st.RetryIn != w*time.Second {
			t.Fatalf("attempt %d: delay %v, want %v", i, st.RetryIn, w*time.Second)
		}
		if i == 0 && st.CloseCode != 1011 {
			t.Fatalf("close code %d", st.CloseCode)
		}
		mustEqual(t, st.RetryAt, h.clk.Now().Add(st.RetryIn))
		h.logs.waitFor(t, "ws_reconnect", "delay", (w * time.Second).String())
		h.logs.waitFor(t, "ws_close", "code", 1011)
		h.advance(1, st.RetryIn)
	}
}

func TestReconnectDelayResetsAfterReady(t *testing.T) {
	// A socket that got ready and then closed retries after the first delay,
	// however often it happens.
	h := newHarness(t, setup{
		server: pushsim.Options{OnConn: func(c *pushsim.Conn) { c.CloseWith(1001, "restart") }},
		noWait: true,
	})
	for range 4 {
		h.waitState(transport.StateReady)
		st := h.waitState(transport.StateReconnecting)
		mustEqual(t, st.RetryIn, time.Second)
		h.advance(1, time.Second)
	}
}

func TestKeyRejected(t *testing.T) {
	h := newHarness(t, setup{server: pushsim.Options{Key: "other"}, noWait: true})
	st := h.waitState(transport.StateKeyRejected)
	mustEqual(t, st.CloseCode, 4401)
	mustEqual(t, h.c.State().State, transport.StateKeyRejected)
	h.logs.waitFor(t, "ws_close", "code", 4401)
	// No retry is armed: no timer, and time passing dials nothing.
	mustEqual(t, h.clk.Pending(), 0)
	h.clk.Advance(10 * time.Minute)
	mustEqual(t, h.srv.Hellos(), 1)
	if len(h.logs.named("ws_reconnect")) != 0 {
		t.Fatal("reconnect scheduled after 4401")
	}
	// A turn started meanwhile fails at once.
	id := h.c.Send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: "x"})
	te := expect[*transport.TurnEndEvent](h)
	if te.TurnID != id || te.Outcome != transport.TurnFailed {
		t.Fatal(te)
	}
	// The user asks for a reconnect: it dials again now.
	h.c.Reconnect()
	h.waitState(transport.StateConnecting)
	h.waitState(transport.StateKeyRejected)
	mustEqual(t, h.srv.Hellos(), 2)
	mustEqual(t, h.srv.Rejected(), 2)
}

func TestReconnectDropsLiveSocket(t *testing.T) {
	h := newHarness(t, setup{})
	h.c.Reconnect()
	select {
	case <-h.conn.Done():
	case <-time.After(wait):
		t.Fatal("old socket still open")
	}
	h.waitState(transport.StateReady)
	h.conn = h.nextConn()
	mustEqual(t, h.conn.ClientCloseCode(), 0)
	if len(h.logs.named("ws_reconnect")) != 0 {
		t.Fatal("Reconnect waited for a backoff")
	}
}

func TestReconnectBeforeStartStarts(t *testing.T) {
	h := newHarness(t, setup{noWait: true})
	h.c.Reconnect()
	h.waitState(transport.StateReady)
}

// A turn still running when the socket leaves ready ends at once: failed
// before its first render, stalled (delivered) after it.
func TestSocketLeavingReadyEndsRunningTurns(t *testing.T) {
	h := newHarness(t, setup{})
	silent := h.sendTurn("a")
	spoke := h.sendTurn("b")
	h.send(render(spoke, "Hello."))
	expect[*transport.RenderEvent](h)
	h.conn.CloseWith(1011, "crash")
	got := map[string]transport.TurnOutcome{}
	for range 2 {
		te := expect[*transport.TurnEndEvent](h)
		got[te.TurnID] = te.Outcome
	}
	mustEqual(t, got, map[string]transport.TurnOutcome{silent: transport.TurnFailed, spoke: transport.TurnStalled})
	h.logs.waitFor(t, "network_drop", "turn_id", silent, "stage", "push_wait")
	h.logs.waitFor(t, "network_drop", "turn_id", spoke, "stage", "push_turn_end")
	st := h.waitState(transport.StateReconnecting)
	mustEqual(t, st.CloseCode, 1011)

	// Both stay outstanding: on the next connection a late render plays and
	// the next Interrupt names them.
	h.advance(1, time.Second)
	h.waitState(transport.StateReady)
	h.conn = h.nextConn()
	h.send(render(silent, "Late."))
	re := expect[*transport.RenderEvent](h)
	if re.TurnID != silent || !re.First || !re.OwnTurn {
		t.Fatalf("%+v", re)
	}
	ids := h.c.Interrupt(true)
	mustEqual(t, ids, []string{silent, spoke})
	var stop struct {
		TurnIDs []string `json:"turn_ids"`
	}
	h.nextFrame("stop").Decode(&stop)
	mustEqual(t, stop.TurnIDs, []string{silent, spoke})
}

func TestCloseStopsEverything(t *testing.T) {
	h := newHarness(t, setup{})
	h.sendTurn("x")
	h.c.Close()
	for range 100 {
		if _, ok := <-h.c.Events(); !ok {
			break
		}
	}
	if _, ok := <-h.c.Events(); ok {
		t.Fatal("events not closed")
	}
	select {
	case <-h.conn.Done():
	case <-time.After(wait):
		t.Fatal("socket open after Close")
	}
	mustEqual(t, h.conn.ClientCloseCode(), 1000)
	mustEqual(t, h.c.State().State, transport.StateClosed)
	h.c.Close() // twice is fine
	// Methods after Close do nothing and do not block.
	h.c.Send(transport.Turn{})
	h.c.Interrupt(true)
	h.c.Reset()
	h.c.ReportPlaybackFailed("1")
	h.c.SetVocabulary(transport.Vocabulary{EmotionIDs: []string{"x"}})
	h.c.Reconnect()
	h.c.Start()
}

func TestCloseWhileReconnecting(t *testing.T) {
	h := newHarness(t, setup{server: pushsim.Options{NoReady: true, OnConn: func(c *pushsim.Conn) { c.CloseWith(1011, "") }}, noWait: true})
	h.waitState(transport.StateReconnecting)
	h.c.Close()
	mustEqual(t, h.clk.Pending(), 0)
}

func TestCloseWhileDialing(t *testing.T) {
	// Nothing listens here: the dial fails, and the client schedules a retry.
	logs := newLogSink()
	clk := clocktest.NewFake(t0)
	c, err := New(transport.Options{ChatBaseURL: "http://127.0.0.1:1", Clock: clk, Logger: slogOf(logs)})
	if err != nil {
		t.Fatal(err)
	}
	c.Start()
	logs.waitFor(t, "ws_dial_failed")
	logs.waitFor(t, "ws_reconnect", "delay", "1s")
	if !clk.WaitPending(1, wait) {
		t.Fatal("no retry timer")
	}
	clk.Advance(time.Second)
	logs.waitFor(t, "ws_reconnect", "delay", "2s")
	c.Close()
}

func TestKeyNeverLogged(t *testing.T) {
	h := newHarness(t, setup{server: pushsim.Options{MaxTurnBytes: 1 << 20}})
	id := h.sendTurn("key test")
	h.send(render(id, "hi"))
	h.send(map[string]any{"type": "error", "turn_id": id, "message": "bad key " + testKey[:4]})
	h.send(turnEnd(id))
	h.sentinel()
	h.conn.CloseWith(4401, "")
	h.waitState(transport.StateKeyRejected)
	h.c.Close()
	for _, r := range h.logs.all() {
		line := r.Msg + " " + mustJSON(r.Attrs)
		if strings.Contains(line, testKey) {
			t.Fatalf("key in log line %s", line)
		}
	}
	if len(h.logs.all()) < 6 {
		t.Fatalf("too few records to prove anything: %v", h.logs.all())
	}
}
