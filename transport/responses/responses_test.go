package responses_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
	rt "yui/transport/request/requesttest"
	"yui/transport/responses"
)

var epoch = time.Date(2026, 9, 14, 6, 4, 14, 0, time.UTC)

type env struct {
	tr   transport.Transport
	srv  *rt.Server
	clk  *clocktest.Fake
	mu   sync.Mutex
	logs bytes.Buffer
}

func (e *env) Write(p []byte) (int, error) { e.mu.Lock(); defer e.mu.Unlock(); return e.logs.Write(p) }
func (e *env) logText() string             { e.mu.Lock(); defer e.mu.Unlock(); return e.logs.String() }

func start(t *testing.T, h rt.Handler, edit func(*transport.Options)) *env {
	t.Helper()
	e := &env{srv: rt.Start(t, h), clk: clocktest.NewFake(epoch)}
	opts := transport.Options{ChatBaseURL: e.srv.URL + "/v1/", Key: "sk-secret", Model: "gpt-5", ReasoningEffort: "medium",
		Card: "You are Yui.", Vocabulary: rt.Vocabulary, Clock: e.clk, Logger: slog.New(slog.NewJSONHandler(e, nil)), Location: time.UTC}
	if edit != nil {
		edit(&opts)
	}
	tr, err := responses.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	tr.Start()
	e.tr = tr
	return e
}

func (e *env) send(t *testing.T, turn transport.Turn) []transport.Event {
	t.Helper()
	return rt.Collect(t, e.tr.Events(), e.tr.Send(turn))
}

func say(s string) transport.Turn {
	return transport.Turn{Trigger: transport.TriggerUserMessage, Text: s}
}

func ev(w *rt.Writer, typ string, fields map[string]any) {
	fields["type"] = typ
	w.Event(typ, fields)
}

func created(w *rt.Writer, id string) {
	ev(w, "response.created", map[string]any{"sequence_number": 0, "response": map[string]any{"id": id, "object": "response", "status": "in_progress", "output": []any{}}})
}

func completed(w *rt.Writer, id string, in, out int) {
	ev(w, "response.completed", map[string]any{"response": map[string]any{"id": id, "object": "response", "status": "completed",
		"usage": map[string]any{"input_tokens": in, "output_tokens": out, "total_tokens": in + out, "output_tokens_details": map[string]any{"reasoning_tokens": 3}}}})
}

func say2(w *rt.Writer, id string, parts ...string) {
	created(w, id)
	ev(w, "response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "content": []any{}}})
	for _, p := range parts {
		ev(w, "response.output_text.delta", map[string]any{"item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": p})
	}
	ev(w, "response.output_text.done", map[string]any{"item_id": "msg_1", "text": strings.Join(parts, "")})
	ev(w, "response.output_item.done", map[string]any{"output_index": 0, "item": map[string]any{"id": "msg_1", "type": "message", "status": "completed"}})
	completed(w, id, 100, 20)
}

func fnCall(w *rt.Writer, idx int, itemID, callID, name string, argParts ...string) {
	ev(w, "response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{"id": itemID, "type": "function_call", "status": "in_progress", "call_id": callID, "name": name, "arguments": ""}})
	for _, p := range argParts {
		ev(w, "response.function_call_arguments.delta", map[string]any{"item_id": itemID, "output_index": idx, "delta": p})
	}
	args := strings.Join(argParts, "")
	ev(w, "response.function_call_arguments.done", map[string]any{"item_id": itemID, "output_index": idx, "arguments": args})
	ev(w, "response.output_item.done", map[string]any{"output_index": idx, "item": map[string]any{"id": itemID, "type": "function_call", "status": "completed", "call_id": callID, "name": name, "arguments": args}})
}

func turnEnd(t *testing.T, evs []transport.Event) *transport.TurnEndEvent {
	t.Helper()
	ends := rt.Of[*transport.TurnEndEvent](evs)
	if len(ends) != 1 {
		t.Fatalf("turn ends: %s", rt.Dump(evs))
	}
	return ends[0]
}

func TestStreamReasoningUsageAndRequest(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		created(w, "resp_1")
		ev(w, "response.in_progress", map[string]any{"response": map[string]any{"id": "resp_1"}})
		ev(w, "response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{"id": "rs_1", "type": "reasoning", "summary": []any{}}})
		ev(w, "response.reasoning_summary_part.added", map[string]any{"item_id": "rs_1", "summary_index": 0, "part": map[string]any{"type": "summary_text", "text": ""}})
		ev(w, "response.reasoning_summary_text.delta", map[string]any{"item_id": "rs_1", "summary_index": 0, "delta": "**Checking** the "})
		ev(w, "response.reasoning_summary_text.delta", map[string]any{"item_id": "rs_1", "summary_index": 0, "delta": "logs"})
		ev(w, "response.reasoning_summary_text.done", map[string]any{"item_id": "rs_1", "text": "**Checking** the logs"})
		ev(w, "response.output_item.added", map[string]any{"output_index": 1, "item": map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "content": []any{}}})
		ev(w, "response.content_part.added", map[string]any{"item_id": "msg_1", "part": map[string]any{"type": "output_text", "text": ""}})
		for _, d := range []string{"All ", "green. Want the slow", " ones listed? Ok"} {
			ev(w, "response.output_text.delta", map[string]any{"item_id": "msg_1", "output_index": 1, "content_index": 0, "delta": d, "logprobs": []any{}})
		}
		ev(w, "response.output_text.done", map[string]any{"item_id": "msg_1", "text": "..."})
		ev(w, "response.output_item.done", map[string]any{"output_index": 1, "item": map[string]any{"id": "msg_1", "type": "message"}})
		completed(w, "resp_1", 1200, 80)
	}, nil)
	evs := e.send(t, say("How did the tests go?"))
	rs := rt.Of[*transport.RenderEvent](evs)
	if len(rs) != 3 || rs[0].Segments[0].Speech != "All green." || !rs[0].First || rs[1].Segments[0].Speech != "Want the slow ones listed?" ||
		rs[2].Kind != transport.KindRender || rs[2].Segments[0].Speech != "Ok" || rs[2].Reasoning == nil || *rs[2].Reasoning != "**Checking** the logs" {
		t.Fatalf("renders: %s", rt.Dump(evs))
	}
	if re := rt.Of[*transport.ReasoningEvent](evs); len(re) != 2 || re[0].Delta != "**Checking** the " {
		t.Errorf("reasoning: %s", rt.Dump(evs))
	}
	want := transport.Usage{InputTokens: 1200, OutputTokens: 80, TotalTokens: 1280}
	if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted || end.Usage == nil || *end.Usage != want {
		t.Errorf("end %+v", end)
	}
	if u := rt.Of[*transport.UsageEvent](evs); len(u) != 1 || u[0].Usage != want {
		t.Errorf("usage: %s", rt.Dump(evs))
	}
	r := e.srv.Requests()[0]
	b := r.Body
	if r.Path != "/v1/responses" || r.Header.Get("Authorization") != "Bearer sk-secret" || b["model"] != "gpt-5" || b["stream"] != true {
		t.Errorf("request %s %s", r.Path, r.Raw)
	}
	if ins := b["instructions"].(string); !strings.HasPrefix(ins, "You are Yui.\n\n") || !strings.Contains(ins, "generate_express") {
		t.Errorf("instructions %q", ins)
	}
	if rs := b["reasoning"].(map[string]any); rs["effort"] != "medium" {
		t.Errorf("reasoning %v", rs)
	}
	if _, ok := b["previous_response_id"]; ok {
		t.Errorf("first request chains: %s", r.Raw)
	}
	in := b["input"].([]any)[0].(map[string]any)
	txt := in["content"].([]any)[0].(map[string]any)
	if in["role"] != "user" || txt["type"] != "input_text" || !strings.HasPrefix(txt["text"].(string), "<client_context>\n") ||
		!strings.HasSuffix(txt["text"].(string), "\n\nHow did the tests go?") {
		t.Errorf("input %v", in)
	}
	tools := b["tools"].([]any)
	if g := tools[0].(map[string]any); g["type"] != "function" || g["name"] != "generate_express" || g["strict"] != false {
		t.Errorf("tools %v", tools)
	}
}

func TestNoKeyNoEffort(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-env")
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { say2(w, "resp_1", "Hi.") },
		func(o *transport.Options) { o.Key, o.ReasoningEffort = "", "" })
	e.send(t, say("hi"))
	r := e.srv.Requests()[0]
	if _, ok := r.Header["Authorization"]; ok {
		t.Error("Authorization sent")
	}
	if _, ok := r.Body["reasoning"]; ok {
		t.Errorf("reasoning sent: %s", r.Raw)
	}
}

func TestChainingAndReset(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { say2(w, "resp_"+string(rune('a'+n)), "Hi.") }, nil)
	e.send(t, say("one"))
	e.send(t, say("two"))
	e.tr.Reset()
	e.send(t, say("three"))
	reqs := e.srv.Requests()
	if p := reqs[1].Body["previous_response_id"]; p != "resp_a" {
		t.Errorf("second previous_response_id %v", p)
	}
	if p, ok := reqs[2].Body["previous_response_id"]; ok {
		t.Errorf("after reset previous_response_id %v", p)
	}
}

func TestScreenshotAndAttachments(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { say2(w, "resp_1", "I see.") }, nil)
	e.send(t, transport.Turn{Trigger: transport.TriggerUserMessage, Text: "look",
		Screenshot:  &transport.Screenshot{Image: transport.Image{MIME: "image/png", Data: []byte("PNG")}, Display: 1, Displays: 1, Width: 1920, Height: 1080, ActiveWindow: "Notes"},
		Attachments: []transport.Image{{MIME: "image/jpeg", Data: []byte("JPG")}}})
	parts := e.srv.Requests()[0].Body["input"].([]any)[0].(map[string]any)["content"].([]any)
	if len(parts) != 3 {
		t.Fatalf("parts %v", parts)
	}
	if txt := parts[0].(map[string]any)["text"].(string); !strings.Contains(txt, `screenshot source: display 1 of 1, 1920x1080, active window "Notes"`) ||
		!strings.Contains(txt, "attachments: 1 image") {
		t.Errorf("text %q", txt)
	}
	for i, u := range []string{"data:image/png;base64,UE5H", "data:image/jpeg;base64,SlBH"} {
		if p := parts[i+1].(map[string]any); p["type"] != "input_image" || p["image_url"] != u {
			t.Errorf("part %d %v", i+1, p)
		}
	}
}

func TestFunctionCallLoopWithCue(t *testing.T) {
	look := transport.Tool{Name: "look", Parameters: json.RawMessage(rt.LookSchema), Wait: 2 * time.Second,
		Handler: func(ctx context.Context, c transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: rt.BodyResult}
		}}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		switch n {
		case 0:
			created(w, "resp_1")
			fnCall(w, 0, "fc_1", "call_1", "look", `{"at":`, `"body"}`)
			fnCall(w, 1, "fc_2", "call_2", "look", `{"at":"moon"}`)
			fnCall(w, 2, "fc_3", "call_3", "look", `not json`)
			completed(w, "resp_1", 10, 2)
		case 1:
			created(w, "resp_2")
			ev(w, "response.output_text.delta", map[string]any{"delta": "Found it. "})
			fnCall(w, 1, "fc_4", "call_4", "generate_express", `{"emotion_id":"happy","caption":"yay"}`)
			completed(w, "resp_2", 10, 2)
		default:
			say2(w, "resp_3", "You're on the floor. ", "Nice")
		}
	}, func(o *transport.Options) { o.Tools = []transport.Tool{look} })
	evs := e.send(t, say("where?"))
	reqs := e.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	b := reqs[1].Body
	if b["previous_response_id"] != "resp_1" {
		t.Errorf("round 2 chains %v", b["previous_response_id"])
	}
	outs := b["input"].([]any)
	want := []string{rt.BodyResult, "error: invalid field at", "error: invalid field arguments"}
	for i, w := range want {
		o := outs[i].(map[string]any)
		if o["type"] != "function_call_output" || o["call_id"] != "call_"+string(rune('1'+i)) || o["output"] != w {
			t.Errorf("output %d %v, want %q", i, o, w)
		}
	}
	if o := reqs[2].Body["input"].([]any)[0].(map[string]any); o["output"] != "ok" || reqs[2].Body["previous_response_id"] != "resp_2" {
		t.Errorf("express answer %v", reqs[2].Body)
	}
	for _, r := range reqs {
		if len(r.Body["tools"].([]any)) != 2 {
			t.Errorf("tools on every request: %s", r.Raw)
		}
	}
	rs := rt.Of[*transport.RenderEvent](evs)
	if len(rs) != 3 || rs[0].Segments[0].Speech != "Found it." || len(rs[0].Segments[0].Cues) != 0 ||
		rs[1].Segments[0].Speech != "You're on the floor." || len(rs[1].Segments[0].Cues) != 1 || rs[1].Segments[0].Cues[0].Caption != "yay" {
		t.Errorf("renders: %s", rt.Dump(evs))
	}
	st := rt.Of[*transport.ToolStatusEvent](evs)
	if len(st) != 6 || st[0].State != "running" || st[1].State != "done" || st[0].ToolID != "look" {
		t.Errorf("tool status running and done: %s", rt.Dump(evs))
	}
	// The chain continues from the last response.
	e.send(t, say("next"))
	if p := e.srv.Requests()[3].Body["previous_response_id"]; p != "resp_3" {
		t.Errorf("next turn chains from %v", p)
	}
}

func TestServerToolStatus(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		created(w, "resp_1")
		ev(w, "response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{"id": "ws_1", "type": "web_search_call", "status": "in_progress"}})
		ev(w, "response.web_search_call.searching", map[string]any{"item_id": "ws_1"})
		ev(w, "response.output_item.done", map[string]any{"output_index": 0, "item": map[string]any{"id": "ws_1", "type": "web_search_call", "status": "completed"}})
		ev(w, "response.output_text.delta", map[string]any{"delta": "Sunny."})
		completed(w, "resp_1", 1, 1)
	}, nil)
	st := rt.Of[*transport.ToolStatusEvent](e.send(t, say("weather")))
	if len(st) != 2 || st[0].State != "running" || st[1].State != "done" || st[0].ToolID != "web_search" {
		t.Errorf("status %+v", st)
	}
}

func TestFailures(t *testing.T) {
	cases := []struct {
		name string
		h    rt.Handler
		want string
	}{
		{"response.failed", func(w *rt.Writer, r *http.Request, n int) {
			created(w, "resp_1")
			ev(w, "response.failed", map[string]any{"response": map[string]any{"id": "resp_1", "status": "failed", "error": map[string]any{"code": "server_error", "message": "The model failed"}}})
		}, ""},
		{"response.incomplete", func(w *rt.Writer, r *http.Request, n int) {
			created(w, "resp_1")
			ev(w, "response.output_text.delta", map[string]any{"delta": "Partial"})
			ev(w, "response.incomplete", map[string]any{"response": map[string]any{"id": "resp_1", "status": "incomplete", "incomplete_details": map[string]any{"reason": "max_output_tokens"}}})
		}, ""},
		{"error event", func(w *rt.Writer, r *http.Request, n int) {
			ev(w, "error", map[string]any{"code": "rate_limit_exceeded", "message": "Rate limit reached", "param": nil, "sequence_number": 1})
		}, ""},
		{"429", func(w *rt.Writer, r *http.Request, n int) {
			w.Error(429, `{"error":{"message":"rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
		}, "429 Too Many Requests: rate limit reached"},
		{"401", func(w *rt.Writer, r *http.Request, n int) {
			w.Error(401, `{"error":{"message":"Incorrect API key provided"}}`)
		}, ""},
		{"403", func(w *rt.Writer, r *http.Request, n int) { w.Error(403, `{"error":{"message":"forbidden"}}`) }, ""},
		{"stream error with status", func(w *rt.Writer, r *http.Request, n int) {
			w.Data(`{"error":{"message":"upstream overloaded","code":502}}`)
		}, "502 Bad Gateway: upstream overloaded"},
		{"cut mid-event", func(w *rt.Writer, r *http.Request, n int) {
			w.Raw("event: response.output_text.delta\ndata: {\"type\":\"resp")
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t, c.h, nil)
			end := turnEnd(t, e.send(t, say("hi")))
			if end.Outcome != transport.TurnFailed || end.ErrorText != c.want {
				t.Errorf("end %+v, want failed %q", end, c.want)
			}
		})
	}
}

func TestBadEventsSkipped(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		created(w, "resp_1")
		w.Raw("event: response.output_text.delta\ndata: {not json}\n\n")
		ev(w, "response.brand_new_event", map[string]any{"delta": "ignored"})
		w.Raw("data: 42\n\n")
		ev(w, "response.output_text.delta", map[string]any{"delta": "Still fine."})
		completed(w, "resp_1", 1, 1)
	}, nil)
	evs := e.send(t, say("hi"))
	rs := rt.Of[*transport.RenderEvent](evs)
	if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted || len(rs) != 2 || rs[0].Segments[0].Speech != "Still fine." || rs[1].Segments != nil {
		t.Errorf("events: %s", rt.Dump(evs))
	}
	if !strings.Contains(e.logText(), "stream_malformed") {
		t.Errorf("no log of the bad event: %s", e.logText())
	}
}

func TestStopAbortsMidStream(t *testing.T) {
	aborted := make(chan struct{})
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		created(w, "resp_1")
		ev(w, "response.output_text.delta", map[string]any{"delta": "One. Two"})
		<-r.Context().Done()
		close(aborted)
	}, nil)
	id := e.tr.Send(say("talk"))
	rt.Next(t, e.tr.Events(), func(x transport.Event) bool { _, ok := x.(*transport.RenderEvent); return ok })
	if ids := e.tr.Interrupt(false); len(ids) != 1 || ids[0] != id {
		t.Fatalf("Interrupt = %v", ids)
	}
	end := rt.Next(t, e.tr.Events(), func(x transport.Event) bool { _, ok := x.(*transport.TurnEndEvent); return ok }).(*transport.TurnEndEvent)
	if end.Outcome != transport.TurnStopped {
		t.Errorf("end %+v", end)
	}
	select {
	case <-aborted:
	case <-time.After(5 * time.Second):
		t.Fatal("request not aborted")
	}
}

func TestStallBeforeAndAfterFirstRender(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		created(w, "resp_1")
		if n == 1 {
			ev(w, "response.output_text.delta", map[string]any{"delta": "Hello there. Still"})
		}
		<-r.Context().Done()
	}, nil)
	id := e.tr.Send(say("hi"))
	done := make(chan []transport.Event)
	go func() { done <- rt.Collect(t, e.tr.Events(), id) }()
	if !e.clk.WaitArmed(2, 5*time.Second) { // the request and response.created
		t.Fatalf("the wait was armed %d times, want 2", e.clk.Armed())
	}
	e.clk.Advance(240 * time.Second)
	if end := turnEnd(t, <-done); end.Outcome != transport.TurnFailed {
		t.Errorf("before first render: %+v", end)
	}
	id = e.tr.Send(say("again"))
	// The delta that rendered re-armed the wait before it rendered.
	rt.Next(t, e.tr.Events(), func(x transport.Event) bool { _, ok := x.(*transport.RenderEvent); return ok })
	e.clk.Advance(240 * time.Second)
	end := rt.Next(t, e.tr.Events(), func(x transport.Event) bool { _, ok := x.(*transport.TurnEndEvent); return ok }).(*transport.TurnEndEvent)
	if end.TurnID != id || end.Outcome != transport.TurnStalled {
		t.Errorf("after first render: %+v", end)
	}
	l := e.logText()
	if !strings.Contains(l, `"stage":"push_wait"`) || !strings.Contains(l, `"stage":"push_turn_end"`) {
		t.Errorf("log %s", l)
	}
}
