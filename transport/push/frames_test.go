package push

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/pushsim"
)

func TestVocabularyFrame(t *testing.T) {
	h := newHarness(t, setup{})
	same := transport.Vocabulary{
		EmotionIDs: []string{"neutral", "happy"}, MotionIDs: []string{"idle"},
		EmotionTextMode: "enum", EmotionTextMap: map[string]string{"😆": "joyfully"},
	}
	h.c.SetVocabulary(same) // unchanged: nothing goes out
	h.c.SetVocabulary(transport.Vocabulary{EmotionIDs: []string{"neutral"}, EmotionTextMode: "free"})
	f := h.nextFrame("vocabulary")
	mustEqual(t, string(f.Raw), `{"type":"vocabulary","vocabulary":{"emotion_ids":["neutral"],"motion_ids":[],"emotion_text_mode":"free","emotion_text_map":{}}}`)
	mustEqual(t, len(h.conn.Received()), 1)

	// Each field counts as a change.
	changes := []transport.Vocabulary{
		{EmotionIDs: []string{"sad"}, EmotionTextMode: "free"},
		{EmotionIDs: []string{"sad"}, MotionIDs: []string{"walk"}, EmotionTextMode: "free"},
		{EmotionIDs: []string{"sad"}, MotionIDs: []string{"walk"}, EmotionTextMode: "enum"},
		{EmotionIDs: []string{"sad"}, MotionIDs: []string{"walk"}, EmotionTextMode: "enum", EmotionTextMap: map[string]string{"a": "b"}},
		{EmotionIDs: []string{"sad"}, MotionIDs: []string{"walk"}, EmotionTextMode: "enum", EmotionTextMap: map[string]string{"a": "c"}},
		{EmotionIDs: []string{"sad"}, MotionIDs: []string{"run"}, EmotionTextMode: "enum", EmotionTextMap: map[string]string{"a": "c"}},
	}
	for _, v := range changes {
		h.c.SetVocabulary(v)
		h.nextFrame("vocabulary")
	}
	// The next hello carries the current set.
	h.conn.CloseWith(1001, "")
	h.waitState(transport.StateReconnecting)
	h.advance(1, time.Second)
	h.conn = h.nextConn()
	var hv transport.Vocabulary
	json.Unmarshal(h.conn.Hello.Vocabulary, &hv)
	mustEqual(t, hv.MotionIDs, []string{"run"})
}

func TestResetFrame(t *testing.T) {
	h := newHarness(t, setup{})
	h.c.Reset()
	mustEqual(t, string(h.nextFrame("reset").Raw), `{"type":"reset"}`)
}

func TestPlaybackFrame(t *testing.T) {
	h := newHarness(t, setup{})
	h.c.ReportPlaybackFailed("1789365854947")
	mustEqual(t, string(h.nextFrame("playback").Raw), `{"type":"playback","turn_id":"1789365854947","ended":"failed"}`)
	h.c.ReportPlaybackFailed("") // no turn id: nothing to send

	// Saved while disconnected: dropped and not replayed on reconnect.
	h.conn.CloseWith(1001, "")
	h.waitState(transport.StateReconnecting)
	h.c.ReportPlaybackFailed("1789365854948")
	h.logs.waitFor(t, "push.playback", "turn_id", "1789365854948", "dropped", "not_ready")
	h.advance(1, time.Second)
	h.waitState(transport.StateReady)
	h.conn = h.nextConn()
	h.c.Reset()
	h.nextFrame("reset")
	mustEqual(t, len(h.conn.Received()), 1)

	// Over the text frame size: never sent.
	h.c.ReportPlaybackFailed(strings.Repeat("9", TextFrameLimit))
	h.logs.waitFor(t, "frame_oversize", "direction", "out", "type", "playback")
}

func TestRenderEvents(t *testing.T) {
	var owed bool
	var mu sync.Mutex
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.SpeechOwed = func() bool { mu.Lock(); defer mu.Unlock(); return owed }
	}})
	id := h.sendTurn("x")
	h.send(map[string]any{"type": "render", "turn_id": id, "source": "hermes", "segments": []any{
		map[string]any{"cues": []any{map[string]any{"emotion_id": "happy"}}, "speech": "All green."},
		map[string]any{"cues": []any{map[string]any{"emotion_id": "curious", "emotion_text": "👂", "motion_id": "m", "caption": "c"}}, "speech": "Want the slow ones listed?"},
	}})
	re := expect[*transport.RenderEvent](h)
	mustEqual(t, *re, transport.RenderEvent{Kind: transport.KindRender, TurnID: id, Source: "hermes", OwnTurn: true, First: true,
		Segments: []transport.Segment{
			{Cues: []transport.Cue{{EmotionID: "happy"}}, Speech: "All green."},
			{Cues: []transport.Cue{{EmotionID: "curious", EmotionText: "👂", MotionID: "m", Caption: "c"}}, Speech: "Want the slow ones listed?"},
		}})
	h.logs.waitFor(t, "push.render", "source", "hermes", "turn_id", id, "segments", 2, "speech_played", true, "speech_owed", false)

	// A silent render: no speech played; speech still owed reported.
	mu.Lock()
	owed = true
	mu.Unlock()
	h.send(map[string]any{"type": "render", "turn_id": id, "source": "hermes", "reasoning": "because", "segments": []any{
		map[string]any{"cues": []any{map[string]any{"emotion_id": "happy"}}, "speech": " [SILENT] "},
	}})
	re = expect[*transport.RenderEvent](h)
	if re.First || *re.Reasoning != "because" {
		t.Fatalf("%+v", re)
	}
	h.logs.waitFor(t, "push.render", "turn_id", id, "segments", 1, "speech_played", false, "speech_owed", true)

	// Speech frames: kind speech, logged with the segment count.
	h.send(speechFrame(id, "One."))
	re = expect[*transport.RenderEvent](h)
	if re.Kind != transport.KindSpeech || re.First {
		t.Fatalf("%+v", re)
	}
	h.logs.waitFor(t, "push.speech", "turn_id", id, "segments", 1)

	// A run the backend started on its own.
	h.send(speechFrame("b-1", "Report."))
	re = expect[*transport.RenderEvent](h)
	if re.OwnTurn || !re.First {
		t.Fatalf("%+v", re)
	}
	// An id below this run's range (a late render of an earlier run) is not own.
	h.send(render("1789365853999", "old run"))
	re = expect[*transport.RenderEvent](h)
	if re.OwnTurn || !re.First {
		t.Fatalf("%+v", re)
	}
}

func TestReasoning(t *testing.T) {
	h := newHarness(t, setup{})
	a := h.sendTurn("a")
	h.send(map[string]any{"type": "reasoning", "turn_id": a, "delta": "The log is"})
	mustEqual(t, *expect[*transport.ReasoningEvent](h), transport.ReasoningEvent{TurnID: a, Delta: "The log is"})
	// While a's reasoning streams, another turn's render reasoning is not shown.
	h.send(map[string]any{"type": "render", "turn_id": "b-2", "source": "s", "reasoning": "other", "segments": []any{}})
	if re := expect[*transport.RenderEvent](h); re.Reasoning != nil {
		t.Fatal("reasoning of another turn shown")
	}
	h.send(map[string]any{"type": "render", "turn_id": a, "source": "s", "reasoning": "whole", "segments": []any{}})
	mustEqual(t, *expect[*transport.RenderEvent](h).Reasoning, "whole")
	// a's turn_end ends its streaming: other reasoning shows again.
	h.send(turnEnd(a))
	expect[*transport.TurnEndEvent](h)
	h.send(map[string]any{"type": "render", "turn_id": "b-2", "source": "s", "reasoning": "other", "segments": []any{}})
	mustEqual(t, *expect[*transport.RenderEvent](h).Reasoning, "other")
}

func TestToolStatus(t *testing.T) {
	tools := []transport.Tool{testTool("browser", 32*time.Second, okHandler)}
	h := newHarness(t, setup{opts: func(o *transport.Options) { o.Tools = tools }})
	id := h.sendTurn("x")
	for _, st := range []string{"running", "done", "failed"} {
		h.send(map[string]any{"type": "tool_status", "turn_id": id, "state": st, "tool_id": "read_file"})
		mustEqual(t, *expect[*transport.ToolStatusEvent](h), transport.ToolStatusEvent{TurnID: id, OwnTurn: true, State: st, ToolID: "read_file"})
		h.logs.waitFor(t, "push.tool_status", "turn_id", id, "state", st, "tool_id", "read_file")
	}
	// A turn the client did not send.
	h.send(map[string]any{"type": "tool_status", "turn_id": "b-9", "state": "running", "tool_id": "grep"})
	mustEqual(t, expect[*transport.ToolStatusEvent](h).OwnTurn, false)

	// browser, declared and run by the client: no event, but the frame
	// restarts the wait.
	h.clk.Advance(FrameWait - time.Second)
	h.send(map[string]any{"type": "tool_status", "turn_id": id, "state": "running", "tool_id": "browser"})
	if evs := h.sentinel(); len(evs) != 0 {
		t.Fatalf("browser status shown: %v", evs)
	}
	h.logs.waitFor(t, "push.tool_status", "turn_id", id, "state", "running", "tool_id", "browser")
	h.clk.Advance(FrameWait - time.Second)
	if len(h.logs.named("network_stall")) != 0 {
		t.Fatal("browser tool_status did not restart the wait")
	}
	h.clk.Advance(time.Second)
	mustEqual(t, expect[*transport.TurnEndEvent](h).Outcome, transport.TurnFailed)

	// Without browser declared, its status shows like any other.
	h2 := newHarness(t, setup{})
	h2.send(map[string]any{"type": "tool_status", "turn_id": "b-1", "state": "running", "tool_id": "browser"})
	mustEqual(t, expect[*transport.ToolStatusEvent](h2).ToolID, "browser")
}

func TestDelegations(t *testing.T) {
	store := &memStore{}
	h := newHarness(t, setup{opts: func(o *transport.Options) { o.Delegations = store }})
	now := t0.UnixMilli()
	h.send(map[string]any{"type": "delegations", "items": []any{
		map[string]any{"id": "d-1", "title": strings.Repeat("t", 200), "started_at": now, "state": "running"},
		map[string]any{"id": "d-2", "title": "Check", "started_at": now - 1000, "state": "done", "ended_at": now - 60_000, "status": "ok", "summary": "fine"},
	}})
	ev := expect[*transport.DelegationsEvent](h)
	mustEqual(t, len(ev.Items), 2)
	mustEqual(t, len([]rune(ev.Items[0].Title)), 120)
	if len(ev.History) != 2 || len(store.saved()) != 2 {
		t.Fatalf("history %v, stored %v", ev.History, store.saved())
	}
	h.logs.waitFor(t, "push.delegations", "items", 2)
	// The done item leaves the chip 30 minutes after ended_at: a fresh list
	// comes then without it.
	h.advance(1, 29*time.Minute)
	ev = expect[*transport.DelegationsEvent](h)
	mustEqual(t, len(ev.Items), 1)
	mustEqual(t, ev.Items[0].ID, "d-1")

	// A running item a later frame leaves out is recorded as done/unknown.
	h.send(map[string]any{"type": "delegations", "items": []any{}})
	ev = expect[*transport.DelegationsEvent](h)
	mustEqual(t, len(ev.Items), 0)
	for _, it := range ev.History {
		if it.ID == "d-1" && (it.State != "done" || it.Status != "unknown") {
			t.Fatalf("%+v", it)
		}
	}
	// Malformed lists are dropped.
	h.send(map[string]any{"type": "delegations"})
	h.send(map[string]any{"type": "delegations", "items": []any{map[string]any{"id": 5}}})
	if evs := h.sentinel(); len(evs) != 0 {
		t.Fatal(evs)
	}
}

type memStore struct {
	mu sync.Mutex
	h  []transport.Delegation
}

func (s *memStore) LoadDelegations() []transport.Delegation { return nil }
func (s *memStore) SaveDelegations(h []transport.Delegation) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.h = h
	return nil
}
func (s *memStore) saved() []transport.Delegation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.h
}

// A frame over the text frame size is dropped unread on arrival and the
// socket stays open.
func TestOversizeInboundDroppedSocketKept(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	big := `{"type":"render","turn_id":"` + id + `","source":"s","segments":[{"speech":"` + strings.Repeat("a", TextFrameLimit) + `"}]}`
	if err := h.conn.SendRaw([]byte(big)); err != nil {
		t.Fatal(err)
	}
	h.logs.waitFor(t, "frame_oversize", "direction", "in", "type", "render", "bytes", len(big))
	// Exactly at the limit is fine.
	pad := TextFrameLimit - len(`{"type":"render","turn_id":"`+id+`","source":"s","segments":[{"speech":""}]}`)
	h.conn.SendRaw([]byte(`{"type":"render","turn_id":"` + id + `","source":"s","segments":[{"speech":"` + strings.Repeat("b", pad) + `"}]}`))
	re := expect[*transport.RenderEvent](h)
	mustEqual(t, len(re.Segments[0].Speech), pad)
	select {
	case <-h.conn.Done():
		t.Fatal("socket closed")
	default:
	}
	mustEqual(t, h.c.State().State, transport.StateReady)
	// An oversize frame with no readable type logs without one.
	h.conn.SendRaw(bytes.Repeat([]byte(" "), TextFrameLimit+1))
	r := h.logs.waitFor(t, "frame_oversize", "direction", "in", "bytes", TextFrameLimit+1)
	if _, ok := r.Attrs["type"]; ok {
		t.Fatal(r)
	}
}

func TestMalformedFramesDropped(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	bad := []string{
		`not json`, `[]`, `"render"`, `null`, `{}`, `{"type":5}`, `{"type":"mystery"}`,
		`{"type":"render","turn_id":5,"segments":[]}`,
		`{"type":"render","segments":[]}`,
		`{"type":"render","turn_id":"` + id + `"}`,
		`{"type":"render","turn_id":"` + id + `","segments":{}}`,
		`{"type":"render","turn_id":"` + id + `","segments":[{"speech":1}]}`,
		`{"type":"render","turn_id":"` + id + `","segments":[{"cues":[{"emotion_id":true}]}]}`,
		`{"type":"render","turn_id":"` + id + `","segments":[],"reasoning":3}`,
		`{"type":"speech","turn_id":"` + id + `","segments":"x"}`,
		`{"type":"turn_end"}`, `{"type":"turn_end","turn_id":[]}`,
		`{"type":"error","turn_id":"` + id + `"}`, `{"type":"error","message":"m"}`, `{"type":"error","turn_id":"` + id + `","message":7}`,
		`{"type":"tool_status","turn_id":"` + id + `","state":"paused","tool_id":"t"}`,
		`{"type":"tool_status","turn_id":"` + id + `","state":"running"}`,
		`{"type":"tool_status","state":"running","tool_id":"t"}`,
		`{"type":"reasoning","turn_id":"` + id + `"}`,
		`{"type":"reasoning","turn_id":"` + id + `","delta":1}`,
		`{"type":"ready"}`, // a second ready
		`{"type":"ready","max_turn_bytes":"x"}`,
		`{"type":"render","turn_id":"` + id + `","segments":[]`,
	}
	for _, b := range bad {
		h.conn.SendRaw([]byte(b))
	}
	h.conn.SendBinary([]byte(`{"type":"render"}`))
	if evs := h.sentinel(); len(evs) != 0 {
		t.Fatalf("events from malformed frames: %v", evs)
	}
	if n := len(h.logs.named("frame_malformed")); n != len(bad)+1 {
		t.Fatalf("%d frame_malformed lines, want %d: %v", n, len(bad)+1, h.logs.named("frame_malformed"))
	}
	h.logs.waitFor(t, "frame_malformed", "type", "mystery", "reason", "unknown type")
	// The turn still runs and the socket is open.
	h.send(turnEnd(id))
	mustEqual(t, expect[*transport.TurnEndEvent](h).Outcome, transport.TurnCompleted)
}

func TestReadyMaxTurnBytes(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want int
	}{
		{`{"type":"ready","chat_id":"c","max_turn_bytes":5000}`, 5000},
		{`{"type":"ready","max_turn_bytes":5000.0}`, 5000},
		{`{"type":"ready","max_turn_bytes":0}`, 0},
		{`{"type":"ready","max_turn_bytes":-4}`, 0},
		{`{"type":"ready","max_turn_bytes":1.5}`, 0},
		{`{"type":"ready","max_turn_bytes":"5000"}`, 0},
		{`{"type":"ready","max_turn_bytes":null}`, 0},
		{`{"type":"ready","max_turn_bytes":1e99}`, math.MaxInt32},
		{`{"type":"ready","max_turn_bytes":4294967296}`, math.MaxInt32},
		{`{"type":"ready","max_turn_bytes":99999999999999999999}`, math.MaxInt32},
		{`{"type":"ready","max_turn_bytes":-1e99}`, 0},
		{`{"type":"ready"}`, 0},
	} {
		h := newHarness(t, setup{server: pushsim.Options{NoReady: true}, noWait: true})
		h.conn = h.nextConn()
		h.conn.SendRaw([]byte(tc.raw))
		h.waitState(transport.StateReady)
		h.logs.waitFor(t, "ws_ready")
		h.c.mu.Lock()
		got := h.c.cn.maxTurnBytes
		h.c.mu.Unlock()
		if got != tc.want {
			t.Errorf("%s: max_turn_bytes %d, want %d", tc.raw, got, tc.want)
		}
		h.c.Close()
	}
}

func TestFrameBeforeReadyDropped(t *testing.T) {
	h := newHarness(t, setup{server: pushsim.Options{NoReady: true}, noWait: true})
	h.conn = h.nextConn()
	h.send(render("b-1", "early"))
	h.logs.waitFor(t, "frame_malformed", "type", "render", "reason", "frame before ready")
	h.send(map[string]any{"type": "ready"})
	h.waitState(transport.StateReady)
	h.send(render("b-1", "now"))
	mustEqual(t, expect[*transport.RenderEvent](h).Segments[0].Speech, "now")
}

func TestEventsOrdered(t *testing.T) {
	h := newHarness(t, setup{})
	const n = 200
	for i := range n {
		h.send(speechFrame("b-1", fmt.Sprint(i)))
	}
	for i := range n {
		re := expect[*transport.RenderEvent](h)
		mustEqual(t, re.Segments[0].Speech, fmt.Sprint(i))
	}
}

// Tool calls.

func okHandler(_ context.Context, call transport.ToolCall) transport.ToolResult {
	return transport.ToolResult{Text: "ok: " + call.Name}
}

func testTool(name string, wait time.Duration, h transport.ToolHandler) transport.Tool {
	return transport.Tool{
		Name: name, Description: name, Wait: wait, Handler: h,
		Parameters: json.RawMessage(`{"type":"object","properties":{"action":{"type":"string","enum":["read","screenshot"]},"n":{"type":"integer"}},"required":["action"],"additionalProperties":false}`),
	}
}

type toolResult struct {
	Type   string   `json:"type"`
	ID     string   `json:"id"`
	TurnID string   `json:"turn_id"`
	Result string   `json:"result"`
	Images []string `json:"images"`
}

func (h *harness) toolResult() (toolResult, int) {
	h.t.Helper()
	f := h.nextFrame("tool_result")
	var r toolResult
	if err := f.Decode(&r); err != nil {
		h.t.Fatal(err)
	}
	return r, len(f.Raw)
}

func call(id, turnID, name string, args any) map[string]any {
	m := map[string]any{"type": "tool_call", "id": id, "turn_id": turnID, "name": name}
	if args != nil {
		m["arguments"] = args
	}
	return m
}

func TestToolCallAnswersAtOnce(t *testing.T) {
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("browser", 32*time.Second, okHandler)}
	}})
	id := h.sendTurn("x")
	cases := []struct {
		args any
		name string
		want string
	}{
		{map[string]any{"action": "read"}, "nope", "error: unknown tool"},
		{map[string]any{}, "browser", "error: missing field action"},
		{map[string]any{"action": "fly"}, "browser", "error: invalid field action"},
		{map[string]any{"action": "read", "n": "x"}, "browser", "error: invalid field n"},
		{map[string]any{"action": "read", "extra": 1}, "browser", "error: invalid field extra"},
		{map[string]any{"action": "read"}, "browser", "ok: browser"},
	}
	for i, tc := range cases {
		cid := fmt.Sprintf("c-%d", i)
		h.send(call(cid, id, tc.name, tc.args))
		r, _ := h.toolResult()
		mustEqual(t, r, toolResult{Type: "tool_result", ID: cid, TurnID: id, Result: tc.want})
	}
	// Missing arguments read as {}: the required field is missing.
	h.send(call("c-none", id, "browser", nil))
	r, _ := h.toolResult()
	mustEqual(t, r.Result, "error: missing field action")

	// A stopped turn: error: turn stopped.
	h.c.Interrupt(true)
	h.send(call("c-stopped", id, "browser", map[string]any{"action": "read"}))
	r, _ = h.toolResult()
	mustEqual(t, r.Result, "error: turn stopped")
}

func TestToolCallUnreadableDropped(t *testing.T) {
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("browser", 32*time.Second, okHandler)}
	}})
	for _, raw := range []string{
		`{"type":"tool_call","id":1,"turn_id":"t","name":"browser","arguments":{"action":"read"}}`,
		`{"type":"tool_call","id":"c","turn_id":2,"name":"browser","arguments":{"action":"read"}}`,
		`{"type":"tool_call","id":"c","turn_id":"t","name":false,"arguments":{"action":"read"}}`,
		`{"type":"tool_call","id":"c","turn_id":"t","name":"browser","arguments":"{\"action\":\"read\"}"}`,
		`{"type":"tool_call","id":"c","turn_id":"t","name":"browser","arguments":[1]}`,
		`{"type":"tool_call","turn_id":"t","name":"browser","arguments":{"action":"read"}}`,
		`{"type":"tool_call","id":"c","name":"browser","arguments":{"action":"read"}}`,
		`{"type":"tool_call","id":"c","turn_id":"t","arguments":{"action":"read"}}`,
	} {
		h.conn.SendRaw([]byte(raw))
	}
	h.send(call("c-good", "t", "browser", map[string]any{"action": "read"}))
	r, _ := h.toolResult()
	mustEqual(t, r.ID, "c-good") // the first answer: the unreadable ones got none
	mustEqual(t, len(h.logs.named("frame_malformed", "type", "tool_call")), 8)
}

func TestToolCallsOneAtATimeAndDuplicates(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	running, maxRunning := 0, 0
	slow := func(ctx context.Context, c transport.ToolCall) transport.ToolResult {
		mu.Lock()
		running++
		maxRunning = max(maxRunning, running)
		mu.Unlock()
		select {
		case <-release:
		case <-ctx.Done():
		}
		mu.Lock()
		running--
		mu.Unlock()
		return transport.ToolResult{Text: "done " + c.ID}
	}
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("body_action", 15*time.Second, slow)}
	}})
	h.send(call("c-1", "b-1", "body_action", map[string]any{"action": "read"}))
	h.send(call("c-2", "b-1", "body_action", map[string]any{"action": "read"}))
	h.send(call("c-1", "b-1", "body_action", map[string]any{"action": "read"})) // repeats a running id
	h.logs.waitFor(t, "tool_call_duplicate", "id", "c-1")
	close(release)
	r1, _ := h.toolResult()
	r2, _ := h.toolResult()
	mustEqual(t, []string{r1.Result, r2.Result}, []string{"done c-1", "done c-2"})
	h.c.Reset()
	h.nextFrame("reset") // no third tool_result before it
	mu.Lock()
	defer mu.Unlock()
	mustEqual(t, maxRunning, 1)
}

func TestToolCallClientWait(t *testing.T) {
	block := func(ctx context.Context, _ transport.ToolCall) transport.ToolResult {
		<-ctx.Done()
		return transport.ToolResult{Text: "late"}
	}
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("look", 2*time.Second, block)}
	}})
	h.send(call("c-1", "b-1", "look", map[string]any{"action": "read"}))
	h.advance(1, 2*time.Second)
	r, _ := h.toolResult()
	if !strings.HasPrefix(r.Result, "error: no ") {
		t.Fatal(r.Result)
	}
}

func TestToolResultTooLarge(t *testing.T) {
	huge := func(context.Context, transport.ToolCall) transport.ToolResult {
		return transport.ToolResult{Text: strings.Repeat("x", TextFrameLimit)}
	}
	h := newHarness(t, setup{
		server: pushsim.Options{MaxTurnBytes: 4 * TextFrameLimit}, // text-only results keep the text cap
		opts:   func(o *transport.Options) { o.Tools = []transport.Tool{testTool("browser", time.Minute, huge)} },
	})
	h.send(call("c-1", "b-1", "browser", map[string]any{"action": "read"}))
	r, n := h.toolResult()
	mustEqual(t, r.Result, "error: result too large")
	if n > TextFrameLimit {
		t.Fatal(n)
	}
	h.logs.waitFor(t, "frame_oversize", "direction", "out", "type", "tool_result")
}

func TestToolResultImages(t *testing.T) {
	img := transport.Image{MIME: "image/png", Data: bytes.Repeat([]byte{7}, 3000)}
	shot := func(context.Context, transport.ToolCall) transport.ToolResult {
		return transport.ToolResult{Text: "screenshot", Images: []transport.Image{img}}
	}
	var rooms []int
	var mu sync.Mutex
	fit := func(_ []transport.Image, room int) ([]string, bool) {
		mu.Lock()
		rooms = append(rooms, room)
		mu.Unlock()
		if room < 100 {
			return nil, false
		}
		return []string{"data:image/jpeg;base64,SMALL"}, true
	}
	tools := []transport.Tool{testTool("look", 2*time.Second, shot)}

	// Fits max_turn_bytes as is.
	h := newHarness(t, setup{server: pushsim.Options{MaxTurnBytes: 1 << 20}, opts: func(o *transport.Options) { o.Tools = tools; o.FitImages = fit }})
	h.send(call("c-1", "b-1", "look", map[string]any{"action": "read"}))
	r, _ := h.toolResult()
	mustEqual(t, r.Result, "screenshot")
	mustEqual(t, len(r.Images), 1)
	mustEqual(t, len(r.Images[0]), len("data:image/png;base64,")+4000)

	// Over max_turn_bytes: fitted into the remaining room.
	h2 := newHarness(t, setup{server: pushsim.Options{MaxTurnBytes: 2000}, opts: func(o *transport.Options) { o.Tools = tools; o.FitImages = fit }})
	h2.send(call("c-2", "b-1", "look", map[string]any{"action": "read"}))
	r, n := h2.toolResult()
	mustEqual(t, r.Images, []string{"data:image/jpeg;base64,SMALL"})
	if n > 2000 {
		t.Fatal(n)
	}
	mu.Lock()
	mustEqual(t, rooms[len(rooms)-1], 2000-len(`{"type":"tool_result","id":"c-2","turn_id":"b-1","result":"screenshot"}`)-len(`,"images":`))
	mu.Unlock()

	// Without max_turn_bytes the limit is 256 KiB; nothing fits: too large, no images.
	big := func(context.Context, transport.ToolCall) transport.ToolResult {
		return transport.ToolResult{Text: strings.Repeat("t", TextFrameLimit-80), Images: []transport.Image{img}}
	}
	h3 := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("look", 2*time.Second, big)}
		o.FitImages = fit
	}})
	h3.send(call("c-3", "b-1", "look", map[string]any{"action": "read"}))
	r, _ = h3.toolResult()
	mustEqual(t, r, toolResult{Type: "tool_result", ID: "c-3", TurnID: "b-1", Result: "error: result too large"})

	// No fitter and too big: too large.
	h4 := newHarness(t, setup{server: pushsim.Options{MaxTurnBytes: 2000}, opts: func(o *transport.Options) { o.Tools = tools }})
	h4.send(call("c-4", "b-1", "look", map[string]any{"action": "read"}))
	r, _ = h4.toolResult()
	mustEqual(t, r.Result, "error: result too large")
}

func TestToolResultDroppedWhenNotReady(t *testing.T) {
	release := make(chan struct{})
	slow := func(ctx context.Context, _ transport.ToolCall) transport.ToolResult {
		<-release
		return transport.ToolResult{Text: "ok"}
	}
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("body_action", 15*time.Second, slow)}
	}})
	h.send(call("c-1", "b-1", "body_action", map[string]any{"action": "read"}))
	h.logs.waitFor(t, "push.tool_call", "id", "c-1")
	h.conn.CloseWith(1001, "")
	h.waitState(transport.StateReconnecting)
	close(release)
	h.logs.waitFor(t, "push.tool_result", "id", "c-1", "dropped", "not_ready")
}

// The client emits no tool_status of its own for the calls it runs.
func TestToolCallEmitsNoToolStatus(t *testing.T) {
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("look", 2*time.Second, okHandler)}
	}})
	h.send(call("c-1", "b-1", "look", map[string]any{"action": "read"}))
	h.toolResult()
	for _, ev := range h.sentinel() {
		if _, ok := ev.(*transport.ToolStatusEvent); ok {
			t.Fatal("tool status emitted")
		}
	}
	for _, f := range h.conn.Received() {
		if f.Type == "tool_status" {
			t.Fatal("tool_status sent")
		}
	}
}

func TestToolCallRestartsFrameWait(t *testing.T) {
	h := newHarness(t, setup{opts: func(o *transport.Options) {
		o.Tools = []transport.Tool{testTool("look", 2*time.Second, okHandler)}
	}})
	id := h.sendTurn("x")
	h.clk.Advance(FrameWait - time.Second)
	h.send(call("c-1", id, "look", map[string]any{"action": "read"}))
	h.toolResult()
	h.clk.Advance(FrameWait - time.Second)
	if len(h.logs.named("network_stall")) != 0 {
		t.Fatal("tool_call did not restart the wait")
	}
}

func TestNewRejectsBadSchema(t *testing.T) {
	_, err := New(transport.Options{Tools: []transport.Tool{{Name: "x", Parameters: json.RawMessage(`{`)}}})
	if err == nil {
		t.Fatal("no error")
	}
	_, err = New(transport.Options{Tools: []transport.Tool{{Name: "x", Parameters: json.RawMessage(`{"type":"nonsense"}`)}}})
	if err == nil {
		t.Fatal("no error")
	}
}
