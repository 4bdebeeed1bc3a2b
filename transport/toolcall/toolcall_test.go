package toolcall

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock"
	"yui/transport/clock/clocktest"
)

// Copies of the docs/protocol/client-tools.md schemas; the real declarations live in tools/.
const (
	lookSchema = `{ "type": "object",
    "properties": { "at": { "type": "string", "enum": ["body", "perch_targets", "screen"] },
                    "monitor": { "type": "integer", "description": "For screen: the display number used by body_action.monitor; omit for the character's display" } },
    "required": ["at"], "additionalProperties": false }`
	bodyActionSchema = `{ "type": "object",
    "properties": { "action": { "type": "string", "enum": ["sit_on_window", "perch", "walk_to", "move_to", "go_home", "hide", "show"] },
                    "app": { "type": "string", "description": "sit_on_window: the application or window title to sit on" },
                    "target_id": { "type": "string", "description": "perch: an id from look perch_targets" },
                    "monitor": { "type": "integer" }, "x": { "type": "integer" }, "y": { "type": "integer" } },
    "required": ["action"], "additionalProperties": false }`
	rateRelationSchema = `{ "type": "object",
    "properties": { "delta": { "type": "integer", "minimum": -3, "maximum": 3 },
                    "reason": { "type": "string", "maxLength": 200 } },
    "required": ["delta"], "additionalProperties": false }`
	addressCharacterSchema = `{ "type": "object",
    "properties": { "character": { "type": "string", "description": "The other character's name" },
                    "text": { "type": "string", "maxLength": 2000 } },
    "required": ["character", "text"], "additionalProperties": false }`
	browserSchema = `{ "type": "object",
    "properties": { "action": { "type": "string", "enum": ["read", "screenshot"] },
                    "url": { "type": "string" } },
    "required": ["action", "url"], "additionalProperties": false }`
)

func TestCheck(t *testing.T) {
	tests := []struct {
		schema, args, want string
	}{
		{lookSchema, `{"at":"body"}`, ""},
		{lookSchema, `{"at":"screen","monitor":1}`, ""},
		{lookSchema, `{}`, "error: missing field at"},
		{lookSchema, ``, "error: missing field at"},
		{lookSchema, `{"at":"ears"}`, "error: invalid field at"},
		{lookSchema, `{"at":5}`, "error: invalid field at"},
		{lookSchema, `{"at":"screen","monitor":1.5}`, "error: invalid field monitor"},
		{lookSchema, `{"at":"screen","monitor":1.0}`, "error: invalid field monitor"},
		{lookSchema, `{"at":"screen","monitor":"1"}`, "error: invalid field monitor"},
		{lookSchema, `{"at":"body","zoom":2}`, "error: invalid field zoom"},
		{lookSchema, `[]`, "error: invalid field arguments"},
		{lookSchema, `"x"`, "error: invalid field arguments"},
		{lookSchema, `null`, "error: invalid field arguments"},
		{lookSchema, `{"at":`, "error: invalid field arguments"},
		{bodyActionSchema, `{"action":"sit_on_window","app":"Notes"}`, ""},
		{bodyActionSchema, `{"action":"move_to","x":-10,"y":20,"monitor":0}`, ""},
		{bodyActionSchema, `{"action":"dance"}`, "error: invalid field action"},
		{bodyActionSchema, `{"action":"walk_to","x":true}`, "error: invalid field x"},
		{bodyActionSchema, `{"app":"Notes"}`, "error: missing field action"},
		{rateRelationSchema, `{"delta":3}`, ""},
		{rateRelationSchema, `{"delta":-3,"reason":"` + strings.Repeat("é", 200) + `"}`, ""},
		{rateRelationSchema, `{"delta":-3,"reason":"` + strings.Repeat("é", 201) + `"}`, "error: invalid field reason"},
		{rateRelationSchema, `{"delta":4}`, "error: invalid field delta"},
		{rateRelationSchema, `{"delta":-4}`, "error: invalid field delta"},
		{rateRelationSchema, `{"delta":1.5}`, "error: invalid field delta"},
		{rateRelationSchema, `{"delta":1e0}`, "error: invalid field delta"},
		{rateRelationSchema, `{"delta":99999999999999999999}`, "error: invalid field delta"},
		{rateRelationSchema, `{"reason":"x"}`, "error: missing field delta"},
		{addressCharacterSchema, `{"character":"Rin","text":"hi"}`, ""},
		{addressCharacterSchema, `{"character":"Rin"}`, "error: missing field text"},
		{addressCharacterSchema, `{"character":"Rin","text":"` + strings.Repeat("a", 2001) + `"}`, "error: invalid field text"},
		{addressCharacterSchema, `{"character":null,"text":"x"}`, "error: invalid field character"},
		{browserSchema, `{"action":"read","url":"https://example.com"}`, ""},
		{browserSchema, `{"action":"print","url":"https://example.com"}`, "error: invalid field action"},
		{browserSchema, `{"action":"read"}`, "error: missing field url"},
	}
	for _, tt := range tests {
		s, err := Compile(json.RawMessage(tt.schema))
		if err != nil {
			t.Fatalf("Compile: %v", err)
		}
		if got := s.Check(json.RawMessage(tt.args)); got != tt.want {
			t.Errorf("Check(%.60s) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestCheckNested(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"type":"object","properties":{
		"p":{"type":"object","properties":{"n":{"type":"number","minimum":0}},"required":["n"],"additionalProperties":false},
		"l":{"type":"array","items":{"type":"boolean"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		`{"p":{"n":0.5},"l":[true,false],"extra":1}`: "",
		`{"p":{}}`:            "error: missing field p.n",
		`{"p":{"n":-1}}`:      "error: invalid field p.n",
		`{"p":{"n":1,"m":2}}`: "error: invalid field p.m",
		`{"l":[true,1]}`:      "error: invalid field l",
		`{"l":{}}`:            "error: invalid field l",
	} {
		if got := s.Check(json.RawMessage(args)); got != want {
			t.Errorf("Check(%s) = %q, want %q", args, got, want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, raw := range []string{`{"type":"string"}`, `{"type":"float"}`, `[`, `{"properties":{"a":{"type":7}}}`} {
		if _, err := Compile(json.RawMessage(raw)); err == nil {
			t.Errorf("Compile(%s) succeeded", raw)
		}
	}
	_, err := NewRunner([]transport.Tool{{Name: "bad", Parameters: json.RawMessage(`{"type":"float"}`)}}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "bad") {
		t.Errorf("NewRunner error = %v, want one naming the tool", err)
	}
}

// results collects replies in order.
type results struct {
	mu  sync.Mutex
	got []string
	ch  chan struct{}
}

func newResults() *results { return &results{ch: make(chan struct{}, 100)} }

func (r *results) reply(prefix string) func(transport.ToolResult) {
	return func(res transport.ToolResult) {
		r.mu.Lock()
		r.got = append(r.got, prefix+res.Text)
		r.mu.Unlock()
		r.ch <- struct{}{}
	}
}

// wait blocks until n replies arrived in total.
func (r *results) wait(t *testing.T, n int) []string {
	t.Helper()
	for {
		r.mu.Lock()
		k := len(r.got)
		got := append([]string(nil), r.got...)
		r.mu.Unlock()
		if k >= n {
			return got
		}
		select {
		case <-r.ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("got %d replies %q, want %d", k, got, n)
		}
	}
}

// gate is a handler that blocks until released, recording when it started.
type gate struct {
	started chan string
	release chan string
}

func newGate() *gate { return &gate{started: make(chan string, 10), release: make(chan string, 10)} }

func (g *gate) handler(ctx context.Context, c transport.ToolCall) transport.ToolResult {
	g.started <- c.ID
	select {
	case s := <-g.release:
		return transport.ToolResult{Text: s}
	case <-ctx.Done():
		return transport.ToolResult{Text: "cancelled"}
	}
}

func (g *gate) waitStart(t *testing.T, want string) {
	t.Helper()
	select {
	case id := <-g.started:
		if id != want {
			t.Fatalf("started %s, want %s", id, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("call %s never started", want)
	}
}

func newRunner(t *testing.T, clk clock.Clock, h transport.ToolHandler) *Runner {
	t.Helper()
	r, err := NewRunner([]transport.Tool{
		{Name: "rate_relation", Parameters: json.RawMessage(rateRelationSchema), Wait: 2 * time.Second, Handler: h},
		{Name: "body_action", Parameters: json.RawMessage(bodyActionSchema), Wait: 15 * time.Second, Handler: h},
	}, clk, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func call(id, turn, name, args string) transport.ToolCall {
	return transport.ToolCall{ID: id, TurnID: turn, Name: name, Arguments: json.RawMessage(args)}
}

func TestRunnerOrderAndWait(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	g := newGate()
	r := newRunner(t, clk, g.handler)
	res := newResults()

	if !r.Submit(call("a", "t1", "body_action", `{"action":"go_home"}`), res.reply("a:")) {
		t.Fatal("a rejected")
	}
	g.waitStart(t, "a")
	r.Submit(call("b", "t1", "rate_relation", `{"delta":1}`), res.reply("b:"))
	// At-once answers do not wait for the running call.
	r.Submit(call("c", "t1", "fly", `{}`), res.reply("c:"))
	r.Submit(call("d", "t1", "rate_relation", `{"delta":9}`), res.reply("d:"))
	got := res.wait(t, 2)
	if got[0] != "c:error: unknown tool" || got[1] != "d:error: invalid field delta" {
		t.Fatalf("at-once answers = %q", got)
	}
	// b's 2 s wait has not started: advancing past it while a runs answers nothing.
	clk.Advance(14 * time.Second)
	g.release <- "ok: a"
	g.waitStart(t, "b")
	if got := res.wait(t, 3); got[2] != "a:ok: a" {
		t.Fatalf("third reply = %q", got[2])
	}
	if !clk.WaitPending(1, 5*time.Second) {
		t.Fatal("b's wait timer was not armed")
	}
	clk.Advance(2 * time.Second)
	if got := res.wait(t, 4); got[3] != "b:error: no result within 2 s" {
		t.Fatalf("fourth reply = %q", got[3])
	}
}

func TestRunnerTimeoutOfRunningCall(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	g := newGate()
	r := newRunner(t, clk, g.handler)
	res := newResults()
	r.Submit(call("a", "t1", "body_action", `{"action":"hide"}`), res.reply(""))
	g.waitStart(t, "a")
	clk.WaitPending(1, 5*time.Second)
	clk.Advance(15*time.Second - time.Millisecond)
	select {
	case <-res.ch:
		t.Fatal("answered before the wait passed")
	default:
	}
	clk.Advance(time.Millisecond)
	if got := res.wait(t, 1); got[0] != "error: no result within 15 s" {
		t.Fatalf("reply = %q", got[0])
	}
}

func TestRunnerDuplicate(t *testing.T) {
	g := newGate()
	r := newRunner(t, nil, g.handler)
	res := newResults()
	r.Submit(call("a", "t1", "body_action", `{"action":"hide"}`), res.reply("1:"))
	g.waitStart(t, "a")
	r.Submit(call("b", "t1", "body_action", `{"action":"show"}`), res.reply("2:"))
	if r.Submit(call("a", "t1", "body_action", `{"action":"show"}`), res.reply("dup:")) {
		t.Error("duplicate of the running call accepted")
	}
	if r.Submit(call("b", "t1", "nope", `{}`), res.reply("dup:")) {
		t.Error("duplicate of a queued call accepted")
	}
	g.release <- "one"
	g.waitStart(t, "b")
	g.release <- "two"
	got := res.wait(t, 2)
	if strings.Join(got, ",") != "1:one,2:two" {
		t.Fatalf("replies = %q", got)
	}
	// Once answered, the id is free again.
	if !r.Submit(call("a", "t1", "body_action", `{"action":"show"}`), res.reply("3:")) {
		t.Error("reused id of a finished call rejected")
	}
	g.waitStart(t, "a")
	g.release <- "three"
	res.wait(t, 3)
}

func TestRunnerCancelTurn(t *testing.T) {
	g := newGate()
	r := newRunner(t, nil, g.handler)
	res := newResults()
	r.Submit(call("a", "t1", "body_action", `{"action":"hide"}`), res.reply("a:"))
	g.waitStart(t, "a")
	r.Submit(call("b", "t1", "body_action", `{"action":"show"}`), res.reply("b:"))
	r.Submit(call("c", "t2", "body_action", `{"action":"show"}`), res.reply("c:"))
	r.CancelTurn("t1")
	got := res.wait(t, 2)
	want := map[string]bool{"a:error: turn stopped": true, "b:error: turn stopped": true}
	if !want[got[0]] || !want[got[1]] || got[0] == got[1] {
		t.Fatalf("replies = %q", got)
	}
	g.waitStart(t, "c")
	r.Submit(call("d", "t1", "body_action", `{"action":"show"}`), res.reply("d:"))
	if got := res.wait(t, 3); got[2] != "d:error: turn stopped" {
		t.Fatalf("late call of a stopped turn = %q", got[2])
	}
	g.release <- "ok"
	if got := res.wait(t, 4); got[3] != "c:ok" {
		t.Fatalf("other turn's call = %q", got[3])
	}
}

func TestRunnerRun(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	g := newGate()
	r := newRunner(t, clk, g.handler)
	ctx := context.Background()
	if got := r.Run(ctx, call("x", "t", "nope", `{}`)).Text; got != ErrUnknownTool {
		t.Errorf("unknown = %q", got)
	}
	if got := r.Run(ctx, call("x", "t", "rate_relation", `{}`)).Text; got != "error: missing field delta" {
		t.Errorf("missing = %q", got)
	}
	done := make(chan string, 1)
	go func() { done <- r.Run(ctx, call("x", "t", "rate_relation", `{"delta":1}`)).Text }()
	g.waitStart(t, "x")
	g.release <- "ok: relation 51/100"
	if got := <-done; got != "ok: relation 51/100" {
		t.Errorf("Run = %q", got)
	}
	go func() { done <- r.Run(ctx, call("y", "t", "rate_relation", `{"delta":1}`)).Text }()
	g.waitStart(t, "y")
	clk.WaitPending(1, 5*time.Second)
	clk.Advance(2 * time.Second)
	if got := <-done; got != "error: no result within 2 s" {
		t.Errorf("Run timeout = %q", got)
	}
	go func() { done <- r.Run(ctx, call("z", "t9", "rate_relation", `{"delta":1}`)).Text }()
	g.waitStart(t, "z")
	r.CancelTurn("t9")
	if got := <-done; got != ErrTurnStopped {
		t.Errorf("Run cancelled = %q", got)
	}
}

func TestRunnerClose(t *testing.T) {
	g := newGate()
	r, err := NewRunner([]transport.Tool{{Name: "body_action", Parameters: json.RawMessage(bodyActionSchema), Wait: time.Hour, Handler: g.handler}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := newResults()
	r.Submit(call("a", "t", "body_action", `{"action":"hide"}`), res.reply(""))
	g.waitStart(t, "a")
	r.Submit(call("b", "t", "body_action", `{"action":"hide"}`), res.reply(""))
	r.Close()
	r.Close()
	if r.Submit(call("c", "t", "body_action", `{"action":"hide"}`), res.reply("")) {
		t.Error("Submit after Close accepted")
	}
	res.mu.Lock()
	defer res.mu.Unlock()
	if len(res.got) != 0 {
		t.Errorf("answers after Close: %q", res.got)
	}
}

func TestRunnerPanic(t *testing.T) {
	r := newRunner(t, nil, func(context.Context, transport.ToolCall) transport.ToolResult { panic("boom") })
	if got := r.Run(context.Background(), call("a", "t", "rate_relation", `{"delta":0}`)).Text; !strings.HasPrefix(got, "error: ") {
		t.Errorf("panic result = %q", got)
	}
}

func TestNoResultWithin(t *testing.T) {
	for d, want := range map[time.Duration]string{
		2 * time.Second:         "error: no result within 2 s",
		32 * time.Second:        "error: no result within 32 s",
		1500 * time.Millisecond: "error: no result within 1.5 s",
	} {
		if got := NoResultWithin(d); got != want {
			t.Errorf("NoResultWithin(%v) = %q", d, got)
		}
	}
}
