package pushsim

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"yui/transport/clock/clocktest"
	"yui/transport/toolcall"
)

// Copies of docs/protocol/client-tools.md schemas, to check the demo's arguments.
var testTools = map[string]string{
	"rate_relation":     `{"type":"object","properties":{"delta":{"type":"integer","minimum":-3,"maximum":3},"reason":{"type":"string","maxLength":200}},"required":["delta"],"additionalProperties":false}`,
	"look":              `{"type":"object","properties":{"at":{"type":"string","enum":["body","perch_targets","screen"]},"monitor":{"type":"integer"}},"required":["at"],"additionalProperties":false}`,
	"body_action":       `{"type":"object","properties":{"action":{"type":"string","enum":["sit_on_window","perch","walk_to","move_to","go_home","hide","show"]},"app":{"type":"string"},"target_id":{"type":"string"},"monitor":{"type":"integer"},"x":{"type":"integer"},"y":{"type":"integer"}},"required":["action"],"additionalProperties":false}`,
	"address_character": `{"type":"object","properties":{"character":{"type":"string"},"text":{"type":"string","maxLength":2000}},"required":["character","text"],"additionalProperties":false}`,
	"browser":           `{"type":"object","properties":{"action":{"type":"string","enum":["read","screenshot"]},"url":{"type":"string"}},"required":["action","url"],"additionalProperties":false}`,
	"custom":            `{"type":"object","properties":{"n":{"type":"integer","minimum":2},"mode":{"type":"string","enum":["a","b"]},"s":{"type":"string"},"f":{"type":"boolean"}},"required":["n","mode","s","f"],"additionalProperties":false}`,
}

func TestExampleArguments(t *testing.T) {
	for name, schema := range testTools {
		s, err := toolcall.Compile(json.RawMessage(schema))
		if err != nil {
			t.Fatal(err)
		}
		args := ExampleArguments(name, json.RawMessage(schema))
		if msg := s.Check(args); msg != "" {
			t.Errorf("%s %s: %s", name, args, msg)
		}
	}
}

// client is a minimal push client for the script tests.
type client struct {
	t  *testing.T
	ws *websocket.Conn
}

func toolDecls(names ...string) []any {
	var out []any
	for _, n := range names {
		out = append(out, map[string]any{"type": "function", "function": map[string]any{
			"name": n, "description": n, "parameters": json.RawMessage(testTools[n])}})
	}
	return out
}

func dial(t *testing.T, url string, hello map[string]any) *client {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(url, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	c := &client{t: t, ws: ws}
	hello["type"] = "hello"
	c.send(hello)
	if f := c.next(); f["type"] != "ready" {
		t.Fatalf("first frame %v, want ready", f)
	}
	return c
}

func (c *client) send(v any) {
	c.t.Helper()
	if err := c.ws.WriteJSON(v); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) next() map[string]any {
	c.t.Helper()
	c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	var f map[string]any
	if err := c.ws.ReadJSON(&f); err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return f
}

// expect reads frames and checks their types in order.
func (c *client) expect(types ...string) []map[string]any {
	c.t.Helper()
	var got []map[string]any
	for _, typ := range types {
		f := c.next()
		if f["type"] != typ {
			c.t.Fatalf("frame %d: got %v, want type %s (after %v)", len(got)+1, f, typ, got)
		}
		got = append(got, f)
	}
	return got
}

func turn(id, text string) map[string]any {
	return map[string]any{"type": "turn", "turn_id": id, "client_context": "<client_context>\n</client_context>", "text": text}
}

func startSim(t *testing.T, s Script, key string) *Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := StartSim(ctx, SimOptions{Addr: "127.0.0.1:0", Key: key, Script: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		srv.Close()
	})
	return srv
}

func TestEcho(t *testing.T) {
	srv := startSim(t, Echo(), "k")
	c := dial(t, srv.URL, map[string]any{"key": "k", "chat_id": "yui-1"})
	c.send(turn("100", "How did the tests go?"))
	fs := c.expect("render", "turn_end")
	seg := fs[0]["segments"].([]any)[0].(map[string]any)
	if fs[0]["turn_id"] != "100" || seg["speech"] != "How did the tests go?" {
		t.Errorf("render = %v", fs[0])
	}
	if cue := seg["cues"].([]any)[0].(map[string]any); cue["emotion_id"] != "happy" {
		t.Errorf("cue = %v", cue)
	}
	u, ok := fs[1]["usage"].(map[string]any)
	if !ok || u["total_tokens"].(float64) != u["input_tokens"].(float64)+u["output_tokens"].(float64) {
		t.Errorf("turn_end = %v", fs[1])
	}
	c.send(turn("101", "again"))
	c.expect("render", "turn_end")
}

func TestSimWrongKey(t *testing.T) {
	srv := startSim(t, Echo(), "k")
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteJSON(map[string]any{"type": "hello", "key": "wrong", "chat_id": "x"})
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _, err = ws.ReadMessage()
	if !websocket.IsCloseError(err, 4401) {
		t.Errorf("read after a wrong key: %v", err)
	}
}

func TestDemo(t *testing.T) {
	clk := clocktest.NewFake(time.UnixMilli(1789365854947))
	srv := startSim(t, Demo(DemoOptions{ReportAfter: 5 * time.Second, Clock: clk}), "")
	c := dial(t, srv.URL, map[string]any{"key": "x", "chat_id": "yui-1", "accepts": []string{"error"},
		"vocabulary": map[string]any{"emotion_ids": []string{"neutral", "happy"}, "motion_ids": []string{"idle", "wave"},
			"emotion_text_mode": "enum", "emotion_text_map": map[string]string{"👂": "whisper"}},
		"tools": toolDecls("rate_relation", "look")})
	schemas := map[string]*toolcall.Schema{}
	for _, n := range []string{"rate_relation", "look"} {
		schemas[n], _ = toolcall.Compile(json.RawMessage(testTools[n]))
	}

	called := map[string]bool{}
	playTurn := func(id string, k int) {
		t.Helper()
		c.send(turn(id, "hello "+id))
		fs := c.expect("reasoning", "reasoning", "tool_status", "tool_status", "tool_call")
		if fs[2]["state"] != "running" || fs[3]["state"] != "done" {
			t.Errorf("tool_status frames %v %v", fs[2], fs[3])
		}
		call := fs[4]
		name := call["name"].(string)
		called[name] = true
		args, _ := json.Marshal(call["arguments"])
		if msg := schemas[name].Check(args); msg != "" || call["turn_id"] != id {
			t.Errorf("tool_call %v: %s", call, msg)
		}
		c.send(map[string]any{"type": "tool_result", "id": call["id"], "turn_id": id, "result": "ok"})
		fs = c.expect("delegations", "speech", "speech", "render", "turn_end")
		items := fs[0]["items"].([]any)
		last := items[len(items)-1].(map[string]any)
		if last["id"] != fmt.Sprintf("d-%d", k) || last["state"] != "running" {
			t.Errorf("delegations = %v", fs[0])
		}
		r := fs[3]
		cue := r["segments"].([]any)[0].(map[string]any)["cues"].([]any)[0].(map[string]any)
		for _, f := range []string{"emotion_id", "motion_id", "emotion_text", "caption"} {
			if cue[f] == nil || cue[f] == "" {
				t.Errorf("render cue lacks %s: %v", f, cue)
			}
		}
		if cue["emotion_text"] != "👂" || r["reasoning"] == nil || r["turn_id"] != id {
			t.Errorf("render = %v", r)
		}
		if fs[4]["usage"] == nil || fs[4]["turn_id"] != id {
			t.Errorf("turn_end = %v", fs[4])
		}
	}
	playTurn("1", 1)

	// The report of turn 1's delegation comes ReportAfter later, under a minted id.
	if !clk.WaitPending(1, 5*time.Second) {
		t.Fatal("no report scheduled")
	}
	clk.Advance(5 * time.Second)
	fs := c.expect("delegations", "render", "turn_end")
	if d := fs[0]["items"].([]any)[0].(map[string]any); d["state"] != "done" || d["status"] != "ok" || d["ended_at"] == nil {
		t.Errorf("report delegations = %v", fs[0])
	}
	if fs[1]["turn_id"] != "sim-1" || fs[2]["turn_id"] != "sim-1" {
		t.Errorf("report turn ids %v %v", fs[1]["turn_id"], fs[2]["turn_id"])
	}

	playTurn("2", 2)
	playTurn("3", 3)
	if !called["rate_relation"] || !called["look"] {
		t.Errorf("tools called: %v", called)
	}
	c.send(turn("4", "fail please"))
	fs = c.expect("error", "turn_end")
	if fs[0]["turn_id"] != "4" || fs[0]["message"] == "" {
		t.Errorf("error frame = %v", fs[0])
	}
}

func TestDemoStop(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	srv := startSim(t, Demo(DemoOptions{Pace: time.Second, Clock: clk}), "")
	c := dial(t, srv.URL, map[string]any{"key": "x", "chat_id": "yui-1"})
	conn := srv.NextConn(t, 5*time.Second)
	c.send(turn("7", "hi"))
	c.expect("reasoning")
	c.send(map[string]any{"type": "stop", "turn_ids": []string{"7"}})
	// Wait until the backend holds the stop, then let the pace pass.
	for i := 0; ; i++ {
		if fs := conn.Received(); len(fs) > 0 && fs[len(fs)-1].Type == "stop" {
			break
		}
		if i == 500 {
			t.Fatal("stop never arrived")
		}
		time.Sleep(10 * time.Millisecond)
	}
	clk.WaitPending(1, 5*time.Second)
	clk.Advance(time.Second)
	if f := c.expect("turn_end")[0]; f["turn_id"] != "7" {
		t.Errorf("turn_end = %v", f)
	}
}

func TestDemoFailureLineWithoutAccepts(t *testing.T) {
	srv := startSim(t, Demo(DemoOptions{}), "")
	c := dial(t, srv.URL, map[string]any{"key": "x", "chat_id": "yui-1"})
	for i := 1; i <= 3; i++ {
		c.send(turn(fmt.Sprint(i), "x"))
		c.expect("reasoning", "reasoning", "tool_status", "tool_status", "delegations", "speech", "speech", "render", "turn_end")
	}
	c.send(turn("4", "x"))
	if f := c.expect("render", "turn_end")[0]; f["turn_id"] != "4" {
		t.Errorf("failure line = %v", f)
	}
}

func TestScenario(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	sc, err := ParseScenarioClock([]byte(`{"loop": true, "steps": [
		{"wait": "turn", "timeout_ms": 3600000},
		{"sleep_ms": 250},
		{"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"speech": "turn {turn_id}"}]}},
		{"send": {"type": "turn_end", "turn_id": "{turn_id}"}}
	]}`), clk)
	if err != nil {
		t.Fatal(err)
	}
	srv := startSim(t, sc, "")
	c := dial(t, srv.URL, map[string]any{"key": "x", "chat_id": "yui-1"})
	for _, id := range []string{`a"b`, "2"} {
		c.send(turn(id, "x"))
		// The sleep is armed once the turn arrived; keep the fake time
		// moving until the frames come (the wait's timeout is far off).
		stop := make(chan struct{})
		ticked := make(chan struct{})
		go func() {
			defer close(ticked)
			for i := 0; i < 5000; i++ {
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
					clk.Advance(50 * time.Millisecond)
				}
			}
		}()
		fs := c.expect("render", "turn_end")
		close(stop)
		<-ticked
		if fs[0]["turn_id"] != id || fs[1]["turn_id"] != id ||
			fs[0]["segments"].([]any)[0].(map[string]any)["speech"] != "turn "+id {
			t.Errorf("frames = %v", fs)
		}
	}
}

func TestScenarioWaitTimeout(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	sc, err := ParseScenarioClock([]byte(`{"steps": [{"wait": "turn", "timeout_ms": 1000}]}`), clk)
	if err != nil {
		t.Fatal(err)
	}
	srv := startSim(t, sc, "")
	c := dial(t, srv.URL, map[string]any{"key": "x", "chat_id": "yui-1"})
	clk.WaitPending(1, 5*time.Second)
	clk.Advance(time.Second)
	c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, _, err := c.ws.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		t.Errorf("after the wait passed: %v", err)
	}
}

func TestParseScenarioErrors(t *testing.T) {
	for _, src := range []string{
		``,
		`{"steps": []}`,
		`{"steps": [{}]}`,
		`{"steps": [{"wait": "turn", "sleep_ms": 5}]}`,
		`{"steps": [{"send": {"turn_id": "x"}}]}`,
		`{"steps": [{"send": [1]}]}`,
		`{"steps": [{"sleep_ms": -1}]}`,
		`{"loop": true, "steps": [{"send": {"type": "render"}}]}`,
		`{"steps": [{"wait": "turn"}], "extra": 1}`,
	} {
		if _, err := ParseScenario([]byte(src)); err == nil {
			t.Errorf("ParseScenario(%s) succeeded", src)
		}
	}
}

func TestNamedScript(t *testing.T) {
	for _, n := range []string{"echo", "demo"} {
		if s, err := NamedScript(n); err != nil || s == nil {
			t.Errorf("NamedScript(%s) = %v", n, err)
		}
	}
	if _, err := NamedScript(t.TempDir() + "/missing.json"); err == nil {
		t.Error("missing file accepted")
	}
}

func TestStartSimRefusesNonLoopback(t *testing.T) {
	if _, err := StartSim(context.Background(), SimOptions{Addr: "0.0.0.0:0"}); err == nil {
		t.Error("non-loopback address accepted")
	}
}

func TestEchoHonoursVocabulary(t *testing.T) {
	srv := startSim(t, Echo(), "k")
	c := dial(t, srv.URL, map[string]any{"key": "k", "chat_id": "yui-1",
		"vocabulary": map[string]any{"emotion_ids": []string{}, "motion_ids": []string{}, "emotion_text_mode": "free", "emotion_text_map": map[string]string{}}})
	c.send(turn("100", strings.Repeat("long ", 1000)))
	fs := c.expect("render", "turn_end")
	seg := fs[0]["segments"].([]any)[0].(map[string]any)
	if seg["cues"] != nil {
		t.Errorf("cue with an empty emotion list: %v", seg)
	}
	if n := len([]rune(seg["speech"].(string))); n != echoMax {
		t.Errorf("echoed %d code points, want %d", n, echoMax)
	}
	c.send(map[string]any{"type": "vocabulary", "vocabulary": map[string]any{"emotion_ids": []string{"happy"}}})
	c.send(turn("101", "hi"))
	fs = c.expect("render", "turn_end")
	if cues := fs[0]["segments"].([]any)[0].(map[string]any)["cues"]; cues == nil {
		t.Errorf("no cue once happy is in the vocabulary: %v", fs[0])
	}
}
