package chatcompletions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"log/slog"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/clock/clocktest"
	rt "yui/transport/request/requesttest"
)

var epoch = time.Date(2026, 9, 14, 6, 4, 14, 0, time.UTC)

// OpenAI chunk shapes.
func chunk(delta map[string]any, finish any) map[string]any {
	return map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1789365854, "model": "gpt-4o",
		"system_fingerprint": "fp_1",
		"choices":            []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
	}
}

func text(s string) map[string]any { return chunk(map[string]any{"content": s}, nil) }

func stop() map[string]any { return chunk(map[string]any{}, "stop") }

func usage(in, out int) map[string]any {
	return map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}}
}

// call is an OpenAI tool call delta: the first one carries id and name.
func call(index int, id, name, args string) map[string]any {
	tc := map[string]any{"index": index, "function": map[string]any{"arguments": args}}
	if id != "" {
		tc["id"], tc["type"] = id, "function"
		tc["function"].(map[string]any)["name"] = name
	}
	return chunk(map[string]any{"tool_calls": []any{tc}}, nil)
}

func toolsDone() map[string]any { return chunk(map[string]any{}, "tool_calls") }

type env struct {
	tr   transport.Transport
	srv  *rt.Server
	clk  *clocktest.Fake
	logs *bytes.Buffer
	// wrote has a value after each log write: waits on the log wake on it.
	wrote chan struct{}
}

func start(t testing.TB, h rt.Handler, edit func(*transport.Options)) *env {
	t.Helper()
	srv := rt.Start(t, h)
	clk := clocktest.NewFake(epoch)
	logs := &bytes.Buffer{}
	wrote := make(chan struct{}, 1)
	opts := transport.Options{
		ChatBaseURL:     srv.URL + "/v1",
		Key:             "sk-secret",
		Model:           "gpt-4o",
		ReasoningEffort: "low",
		Card:            "You are Yui.",
		Vocabulary:      rt.Vocabulary,
		Clock:           clk,
		Logger:          slog.New(slog.NewJSONHandler(&syncBuf{b: logs, wrote: wrote}, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Location:        time.UTC,
	}
	if edit != nil {
		edit(&opts)
	}
	tr, err := chatcompletions.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	tr.Start()
	return &env{tr: tr, srv: srv, clk: clk, logs: logs, wrote: wrote}
}

// waitStreamOpen waits for the debug record the engine writes once a
// reply's response headers arrived.
func (e *env) waitStreamOpen(t *testing.T) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for !strings.Contains(e.logText(), `"msg":"stream_open"`) {
		select {
		case <-e.wrote:
		case <-timeout:
			t.Fatalf("no stream_open record; log:\n%s", e.logText())
		}
	}
}

type syncBuf struct {
	b     *bytes.Buffer
	wrote chan struct{}
}

var logMu = make(chan struct{}, 1)

func (s *syncBuf) Write(p []byte) (int, error) {
	logMu <- struct{}{}
	defer func() { <-logMu }()
	n, err := s.b.Write(p)
	select {
	case s.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func (e *env) logText() string {
	logMu <- struct{}{}
	defer func() { <-logMu }()
	return e.logs.String()
}

func (e *env) send(t *testing.T, turn transport.Turn) []transport.Event {
	t.Helper()
	id := e.tr.Send(turn)
	return rt.Collect(t, e.tr.Events(), id)
}

func say(s string) transport.Turn {
	return transport.Turn{Trigger: transport.TriggerUserMessage, Text: s}
}

func speeches(evs []transport.Event) []transport.Segment {
	var segs []transport.Segment
	for _, r := range rt.Of[*transport.RenderEvent](evs) {
		segs = append(segs, r.Segments...)
	}
	return segs
}

func turnEnd(t *testing.T, evs []transport.Event) *transport.TurnEndEvent {
	t.Helper()
	ends := rt.Of[*transport.TurnEndEvent](evs)
	if len(ends) != 1 {
		t.Fatalf("want one turn end, got %s", rt.Dump(evs))
	}
	return ends[0]
}

func messages(r rt.Request) []map[string]any {
	var out []map[string]any
	for _, m := range r.Body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func TestOpenAIStreamWithUsage(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil),
			text("Hello there. How"), text(" are you today"), text("? Fine"), stop(), usage(1200, 80), "[DONE]")
	}, nil)
	evs := e.send(t, say("How did the tests go?"))

	rs := rt.Of[*transport.RenderEvent](evs)
	if len(rs) != 3 {
		t.Fatalf("renders: %s", rt.Dump(evs))
	}
	want := []struct {
		kind   transport.RenderKind
		speech string
		first  bool
	}{{transport.KindSpeech, "Hello there.", true}, {transport.KindSpeech, "How are you today?", false}, {transport.KindRender, "Fine", false}}
	for i, w := range want {
		r := rs[i]
		if r.Kind != w.kind || len(r.Segments) != 1 || r.Segments[0].Speech != w.speech || r.First != w.first || !r.OwnTurn || r.Source != "chat_completions" {
			t.Errorf("render %d = %+v, want %+v", i, r, w)
		}
	}
	end := turnEnd(t, evs)
	wantUsage := transport.Usage{InputTokens: 1200, OutputTokens: 80, TotalTokens: 1280}
	if end.Outcome != transport.TurnCompleted || end.Usage == nil || *end.Usage != wantUsage || !end.OwnTurn {
		t.Errorf("turn end = %+v", end)
	}
	if us := rt.Of[*transport.UsageEvent](evs); len(us) != 1 || us[0].Usage != wantUsage {
		t.Errorf("usage events: %s", rt.Dump(evs))
	}

	reqs := e.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Path != "/v1/chat/completions" {
		t.Errorf("path %q", r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer sk-secret" {
		t.Errorf("Authorization %q", got)
	}
	b := r.Body
	if b["model"] != "gpt-4o" || b["stream"] != true || b["reasoning_effort"] != "low" {
		t.Errorf("body: %s", r.Raw)
	}
	if so, _ := b["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options: %s", r.Raw)
	}
	msgs := messages(r)
	if msgs[0]["role"] != "system" || !strings.HasPrefix(msgs[0]["content"].(string), "You are Yui.\n\n") ||
		!strings.Contains(msgs[0]["content"].(string), "generate_express") {
		t.Errorf("system message %v", msgs[0])
	}
	user := msgs[1]["content"].(string)
	if msgs[1]["role"] != "user" || !strings.HasPrefix(user, "<client_context>\n") ||
		!strings.Contains(user, "trigger: user message") || !strings.HasSuffix(user, "</client_context>\n\nHow did the tests go?") {
		t.Errorf("user message %q", user)
	}
	if strings.Contains(e.logText(), "sk-secret") {
		t.Error("key logged")
	}
	if !strings.Contains(e.logText(), `"msg":"turn"`) || !strings.Contains(e.logText(), `"spoke_text":false`) {
		t.Errorf("turn record missing: %s", e.logText())
	}
}

func TestToolsOnEveryRequestWithExpressSchema(t *testing.T) {
	look := transport.Tool{Name: "look", Description: "Read body state", Parameters: json.RawMessage(rt.LookSchema), Wait: 2 * time.Second,
		Handler: func(ctx context.Context, c transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: rt.BodyResult}
		}}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if n == 0 {
			w.Data(call(0, "call_1", "look", `{"at":"body"}`), toolsDone(), "[DONE]")
			return
		}
		w.Data(text("Done."), stop(), "[DONE]")
	}, func(o *transport.Options) { o.Tools = []transport.Tool{look} })
	e.send(t, say("where are you"))
	reqs := e.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		tools := r.Body["tools"].([]any)
		if len(tools) != 2 {
			t.Fatalf("request %d tools: %s", i, r.Raw)
		}
		ge := tools[0].(map[string]any)["function"].(map[string]any)
		if ge["name"] != "generate_express" || tools[1].(map[string]any)["function"].(map[string]any)["name"] != "look" {
			t.Errorf("tools %v", tools)
		}
		props := ge["parameters"].(map[string]any)["properties"].(map[string]any)
		if e := props["emotion_id"].(map[string]any)["enum"].([]any); len(e) != 4 || e[0] != "neutral" {
			t.Errorf("emotion enum %v", e)
		}
		if e := props["emotion_text"].(map[string]any)["enum"].([]any); len(e) != 2 {
			t.Errorf("emotion_text enum %v", e)
		}
		if props["caption"].(map[string]any)["maxLength"] != 80.0 {
			t.Errorf("caption %v", props["caption"])
		}
	}
}

func TestFreeEmotionTextSchema(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { w.Data(text("Hi."), stop(), "[DONE]") }, nil)
	e.tr.SetVocabulary(transport.Vocabulary{EmotionIDs: []string{"neutral"}, EmotionTextMode: "free"})
	e.send(t, say("hi"))
	ge := e.srv.Requests()[0].Body["tools"].([]any)[0].(map[string]any)["function"].(map[string]any)
	et := ge["parameters"].(map[string]any)["properties"].(map[string]any)["emotion_text"].(map[string]any)
	if et["maxLength"] != 16.0 || et["enum"] != nil {
		t.Errorf("free emotion_text %v", et)
	}
}

func TestNoKeyNoAuthorizationAndNoEffort(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { w.Data(text("Hi."), stop(), "[DONE]") },
		func(o *transport.Options) { o.Key, o.ReasoningEffort, o.Card = "", "", "" })
	e.send(t, say("hi"))
	r := e.srv.Requests()[0]
	if v, ok := r.Header["Authorization"]; ok {
		t.Errorf("Authorization sent: %v", v)
	}
	if _, ok := r.Body["reasoning_effort"]; ok {
		t.Errorf("reasoning_effort sent: %s", r.Raw)
	}
	if sys := messages(r)[0]["content"].(string); !strings.HasPrefix(sys, "To show") {
		t.Errorf("system without card: %q", sys)
	}
}

// vLLM and DeepSeek stream reasoning_content before the answer.
func TestReasoningContent(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(chunk(map[string]any{"role": "assistant", "content": "", "reasoning_content": nil}, nil),
			chunk(map[string]any{"content": nil, "reasoning_content": "The log is "}, nil),
			chunk(map[string]any{"content": nil, "reasoning_content": "the first place."}, nil),
			chunk(map[string]any{"content": "All green.", "reasoning_content": nil}, nil),
			chunk(map[string]any{"content": ""}, "stop"), usage(10, 5), "[DONE]")
	}, func(o *transport.Options) { o.Model = "deepseek-reasoner" })
	evs := e.send(t, say("tests?"))
	rs := rt.Of[*transport.ReasoningEvent](evs)
	if len(rs) != 2 || rs[0].Delta != "The log is " || rs[1].Delta != "the first place." {
		t.Fatalf("reasoning: %s", rt.Dump(evs))
	}
	renders := rt.Of[*transport.RenderEvent](evs)
	last := renders[len(renders)-1]
	if last.Kind != transport.KindRender || last.Reasoning == nil || *last.Reasoning != "The log is the first place." {
		t.Errorf("final render %+v", last)
	}
	if segs := speeches(evs); len(segs) != 1 || segs[0].Speech != "All green." {
		t.Errorf("speech: %s", rt.Dump(evs))
	}
}

// Ollama's OpenAI-compatible endpoint: "reasoning" deltas, whole tool calls
// in one chunk, a finish chunk with empty content, usage, [DONE].
func TestOllamaChunkShape(t *testing.T) {
	ollama := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-812", "object": "chat.completion.chunk", "created": 1789365854, "model": "qwen3:8b",
			"system_fingerprint": "fp_ollama", "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	var got transport.ToolCall
	look := transport.Tool{Name: "look", Parameters: json.RawMessage(rt.LookSchema), Wait: 2 * time.Second,
		Handler: func(ctx context.Context, c transport.ToolCall) transport.ToolResult {
			got = c
			return transport.ToolResult{Text: rt.BodyResult}
		}}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if n == 0 {
			w.Data(ollama(map[string]any{"role": "assistant", "content": "", "reasoning": "Check the body."}, nil),
				ollama(map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{
					"id": "call_x1", "index": 0, "type": "function", "function": map[string]any{"name": "look", "arguments": `{"at":"body"}`}}}}, nil),
				ollama(map[string]any{"role": "assistant", "content": ""}, "tool_calls"),
				map[string]any{"id": "chatcmpl-812", "object": "chat.completion.chunk", "created": 1, "model": "qwen3:8b", "system_fingerprint": "fp_ollama",
					"choices": []any{}, "usage": map[string]any{"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59}},
				"[DONE]")
			return
		}
		w.Data(ollama(map[string]any{"role": "assistant", "content": "I'm sitting"}, nil),
			ollama(map[string]any{"role": "assistant", "content": " at the bottom."}, nil),
			ollama(map[string]any{"role": "assistant", "content": ""}, "stop"),
			map[string]any{"id": "chatcmpl-813", "object": "chat.completion.chunk", "choices": []any{},
				"usage": map[string]any{"prompt_tokens": 80, "completion_tokens": 7, "total_tokens": 87}},
			"[DONE]")
	}, func(o *transport.Options) { o.Model, o.Key = "qwen3:8b", ""; o.Tools = []transport.Tool{look} })
	evs := e.send(t, say("where are you?"))
	if got.Name != "look" || string(got.Arguments) != `{"at":"body"}` || got.ID != "call_x1" {
		t.Errorf("tool call %+v", got)
	}
	if r := rt.Of[*transport.ReasoningEvent](evs); len(r) != 1 || r[0].Delta != "Check the body." {
		t.Errorf("reasoning: %s", rt.Dump(evs))
	}
	end := turnEnd(t, evs)
	if end.Usage == nil || end.Usage.TotalTokens != 87 {
		t.Errorf("usage of the last call: %+v", end.Usage)
	}
	if segs := speeches(evs); len(segs) != 1 || segs[0].Speech != "I'm sitting at the bottom." {
		t.Errorf("speech: %s", rt.Dump(evs))
	}
	// The second request carries the call and its result.
	msgs := messages(e.srv.Requests()[1])
	a, tm := msgs[2], msgs[3]
	if a["role"] != "assistant" || tm["role"] != "tool" || tm["tool_call_id"] != "call_x1" || tm["content"] != rt.BodyResult {
		t.Errorf("tool round messages: %v %v", a, tm)
	}
	if st := rt.Of[*transport.ToolStatusEvent](evs); len(st) != 1 || st[0].State != "done" || st[0].ToolID != "look" {
		t.Errorf("tool status (done only on Chat Completions): %s", rt.Dump(evs))
	}
}

func TestScreenshotAndAttachments(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { w.Data(text("I see it."), stop(), "[DONE]") }, nil)
	e.send(t, transport.Turn{Trigger: transport.TriggerUserMessage, Text: "what's this?",
		Screenshot: &transport.Screenshot{Image: transport.Image{MIME: "image/png", Data: []byte("PNGDATA")}, Display: 1, Displays: 2,
			Width: 2560, Height: 1440, ActiveWindow: "main.go - Visual Studio Code"},
		Attachments: []transport.Image{{MIME: "image/jpeg", Data: []byte("JPG1")}, {MIME: "image/png", Data: []byte("PNG2")}}})
	parts := messages(e.srv.Requests()[0])[1]["content"].([]any)
	if len(parts) != 4 {
		t.Fatalf("parts: %v", parts)
	}
	first := parts[0].(map[string]any)
	txt := first["text"].(string)
	if first["type"] != "text" || !strings.Contains(txt, `screenshot source: display 1 of 2, 2560x1440, active window "main.go - Visual Studio Code"`) ||
		!strings.Contains(txt, "attachments: 2 images") || !strings.HasSuffix(txt, "\n\nwhat's this?") {
		t.Errorf("first text %q", txt)
	}
	wantURLs := []string{"data:image/png;base64,UE5HREFUQQ==", "data:image/jpeg;base64,SlBHMQ==", "data:image/png;base64,UE5HMg=="}
	for i, u := range wantURLs {
		p := parts[i+1].(map[string]any)
		if p["type"] != "image_url" || p["image_url"].(map[string]any)["url"] != u {
			t.Errorf("part %d = %v", i+1, p)
		}
	}
}

func TestCueLandsBeforeItsSentence(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		switch n {
		case 0:
			w.Data(call(0, "call_a", "generate_express", `{"emotion_id":`), call(0, "", "", `"happy"}`),
				call(1, "call_b", "generate_express", `{"emotion_id":"angry"}`), toolsDone(), "[DONE]")
		case 1:
			w.Data(text("All green. "), call(0, "call_c", "generate_express", `{"emotion_id":"curious","emotion_text":"👂"}`), toolsDone(), "[DONE]")
		default:
			w.Data(text("Want the slow ones listed? "), text("Say so"), stop(), "[DONE]")
		}
	}, nil)
	evs := e.send(t, say("tests?"))
	rs := rt.Of[*transport.RenderEvent](evs)
	if len(rs) != 3 {
		t.Fatalf("renders: %s", rt.Dump(evs))
	}
	s0, s1, last := rs[0].Segments[0], rs[1].Segments[0], rs[2].Segments[0]
	if s0.Speech != "All green." || len(s0.Cues) != 1 || s0.Cues[0] != (transport.Cue{EmotionID: "happy"}) {
		t.Errorf("first sentence %+v", s0)
	}
	if s1.Speech != "Want the slow ones listed?" || len(s1.Cues) != 1 || s1.Cues[0] != (transport.Cue{EmotionID: "curious", EmotionText: "👂"}) {
		t.Errorf("second sentence %+v", s1)
	}
	if rs[2].Kind != transport.KindRender || last.Speech != "Say so" || len(last.Cues) != 0 {
		t.Errorf("final render %+v", rs[2])
	}
	reqs := e.srv.Requests()
	msgs := messages(reqs[1])
	if msgs[3]["content"] != "ok" || msgs[4]["content"] != "error: invalid field emotion_id" {
		t.Errorf("express results: %v / %v", msgs[3], msgs[4])
	}
	if st := rt.Of[*transport.ToolStatusEvent](evs); len(st) != 0 {
		t.Errorf("generate_express shows no tool status: %s", rt.Dump(evs))
	}
}

func TestCueWithoutSpeechEndsInRender(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if n == 0 {
			w.Data(call(0, "c1", "generate_express", `{"motion_id":"happy"}`), toolsDone(), "[DONE]")
			return
		}
		w.Data(chunk(map[string]any{"content": ""}, "stop"), "[DONE]")
	}, nil)
	evs := e.send(t, say("dance"))
	rs := rt.Of[*transport.RenderEvent](evs)
	if len(rs) != 1 || rs[0].Kind != transport.KindRender || !rs[0].First || len(rs[0].Segments) != 1 ||
		rs[0].Segments[0].Speech != "" || rs[0].Segments[0].Cues[0].MotionID != "happy" {
		t.Errorf("renders: %s", rt.Dump(evs))
	}
}

func TestToolLoopWithLookAndBadArguments(t *testing.T) {
	var calls []string
	look := transport.Tool{Name: "look", Parameters: json.RawMessage(rt.LookSchema), Wait: 2 * time.Second,
		Handler: func(ctx context.Context, c transport.ToolCall) transport.ToolResult {
			calls = append(calls, string(c.Arguments))
			return transport.ToolResult{Text: rt.BodyResult}
		}}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		switch n {
		case 0:
			w.Data(call(0, "c1", "look", `{"at":"bo`), call(0, "", "", `dy"}`), call(1, "c2", "look", `{"at":"moon"}`),
				call(2, "c3", "look", `{"at": body`), call(3, "c4", "nope", `{}`), toolsDone(), "[DONE]")
		default:
			w.Data(text("You are on the floor."), stop(), "[DONE]")
		}
	}, func(o *transport.Options) { o.Tools = []transport.Tool{look} })
	evs := e.send(t, say("where?"))
	if len(calls) != 1 || calls[0] != `{"at":"body"}` {
		t.Errorf("handler ran with %q", calls)
	}
	msgs := messages(e.srv.Requests()[1])
	want := []string{rt.BodyResult, "error: invalid field at", "error: invalid field arguments", "error: unknown tool"}
	a := msgs[2]
	if tc := a["tool_calls"].([]any); len(tc) != 4 || tc[2].(map[string]any)["function"].(map[string]any)["arguments"] != `{"at": body` {
		t.Errorf("assistant tool calls %v", a)
	}
	for i, w := range want {
		if m := msgs[3+i]; m["role"] != "tool" || m["content"] != w {
			t.Errorf("result %d = %v, want %q", i, m, w)
		}
	}
	if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted {
		t.Errorf("end %+v", end)
	}
}

func TestRoundLimit(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(call(0, "c", "generate_express", `{}`), toolsDone(), "[DONE]")
	}, nil)
	evs := e.send(t, say("loop"))
	if n := len(e.srv.Requests()); n != 8 {
		t.Errorf("%d requests, want 8", n)
	}
	if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted {
		t.Errorf("end %+v", end)
	}
}

func TestErrorText(t *testing.T) {
	cases := []struct {
		name string
		h    rt.Handler
		want string
	}{
		{"429", func(w *rt.Writer, r *http.Request, n int) {
			w.Error(429, `{"error":{"message":"rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`)
		}, "429 Too Many Requests: rate limit reached"},
		{"500 text", func(w *rt.Writer, r *http.Request, n int) { w.Error(500, "upstream\nfailed") }, "500 Internal Server Error: upstream failed"},
		{"401", func(w *rt.Writer, r *http.Request, n int) {
			w.Error(401, `{"error":{"message":"Incorrect API key provided: sk-secret","code":"invalid_api_key"}}`)
		}, ""},
		{"403", func(w *rt.Writer, r *http.Request, n int) {
			w.Error(403, `{"error":{"message":"country not supported"}}`)
		}, ""},
		{"stream error with status", func(w *rt.Writer, r *http.Request, n int) {
			w.Data(`{"error":{"object":"error","message":"model overloaded","type":"ServiceUnavailableError","code":503}}`)
		}, "503 Service Unavailable: model overloaded"},
		{"stream error without status", func(w *rt.Writer, r *http.Request, n int) {
			w.Data(`{"error":{"message":"something broke","code":"server_error"}}`)
		}, ""},
		{"long", func(w *rt.Writer, r *http.Request, n int) {
			w.Error(400, `{"error":{"message":"`+strings.Repeat("x", 300)+`"}}`)
		}, "cut"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t, c.h, nil)
			end := turnEnd(t, e.send(t, say("hi")))
			if end.Outcome != transport.TurnFailed {
				t.Errorf("outcome %v", end.Outcome)
			}
			if c.want == "cut" {
				if n := len([]rune(end.ErrorText)); n != 200 || !strings.HasPrefix(end.ErrorText, "400 Bad Request: xxx") {
					t.Errorf("cut text %q (%d)", end.ErrorText, n)
				}
				return
			}
			if end.ErrorText != c.want {
				t.Errorf("ErrorText %q, want %q", end.ErrorText, c.want)
			}
			want := transport.StateReady
			if c.name == "401" || c.name == "403" {
				want = transport.StateKeyRejected
			}
			if e.tr.State().State != want {
				t.Errorf("state %v, want %v", e.tr.State(), want)
			}
		})
	}
}

func TestConnectionFailureGoesOffline(t *testing.T) {
	addr := closedAddr(t)
	tr, err := chatcompletions.New(transport.Options{ChatBaseURL: "http://" + addr + "/v1", Vocabulary: rt.Vocabulary, Clock: clocktest.NewFake(epoch)})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.Start()
	id := tr.Send(say("hi"))
	evs := rt.Collect(t, tr.Events(), id)
	end := turnEnd(t, evs)
	if end.Outcome != transport.TurnFailed || end.ErrorText != "" {
		t.Errorf("end %+v", end)
	}
	states := rt.Of[*transport.StateEvent](evs)
	if len(states) != 2 || states[0].State != transport.StateReady || states[1].State != transport.StateOffline || states[1].Err == nil {
		t.Errorf("states: %s", rt.Dump(evs))
	}
}

func TestTurnIDsCountUpFromClock(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { w.Data(text("Hi."), stop(), "[DONE]") }, nil)
	a := e.tr.Send(say("one"))
	b := e.tr.Send(transport.Turn{Trigger: transport.TriggerUserVoice, Text: "two"})
	ms := epoch.UnixMilli()
	if a != strconvI(ms) || b != strconvI(ms+1) {
		t.Errorf("ids %s %s from %d", a, b, ms)
	}
	rt.Collect(t, e.tr.Events(), b)
	if !strings.Contains(e.logText(), `"turn_id":"`+b+`","trigger":"user voice","spoke_text":true`) {
		t.Errorf("voice turn record: %s", e.logText())
	}
}

func strconvI(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestStopAbortsMidStream(t *testing.T) {
	aborted := make(chan struct{})
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if n > 0 {
			w.Data(text("Fine."), stop(), "[DONE]")
			return
		}
		w.Data(text("First sentence. "), text("Second"))
		<-r.Context().Done()
		close(aborted)
	}, nil)
	id := e.tr.Send(say("talk"))
	rt.Next(t, e.tr.Events(), func(ev transport.Event) bool { _, ok := ev.(*transport.RenderEvent); return ok })
	ids := e.tr.Interrupt(true)
	if len(ids) != 1 || ids[0] != id {
		t.Fatalf("Interrupt = %v", ids)
	}
	end := rt.Next(t, e.tr.Events(), func(ev transport.Event) bool { _, ok := ev.(*transport.TurnEndEvent); return ok }).(*transport.TurnEndEvent)
	if end.Outcome != transport.TurnStopped || end.TurnID != id {
		t.Errorf("end %+v", end)
	}
	select {
	case <-aborted:
	case <-time.After(5 * time.Second):
		t.Fatal("request not aborted")
	}
	// Nothing more for the stopped turn; the next turn works.
	e2 := e.tr.Send(say("again"))
	for _, ev := range rt.Collect(t, e.tr.Events(), e2) {
		if r, ok := ev.(*transport.RenderEvent); ok && r.TurnID == id {
			t.Errorf("event of the stopped turn: %+v", r)
		}
	}
}

func TestTranscriptAndReset(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(text("Reply "+string(rune('A'+n))+"."), stop(), "[DONE]")
	}, nil)
	e.send(t, say("one"))
	e.send(t, say("two"))
	e.tr.Reset()
	e.send(t, say("three"))
	reqs := e.srv.Requests()
	m2 := messages(reqs[1])
	if len(m2) != 4 || m2[2]["role"] != "assistant" || m2[2]["content"] != "Reply A." || !strings.HasSuffix(m2[3]["content"].(string), "two") {
		t.Errorf("second request messages %v", m2)
	}
	if m3 := messages(reqs[2]); len(m3) != 2 || !strings.HasSuffix(m3[1]["content"].(string), "three") {
		t.Errorf("after reset %v", m3)
	}
}

func TestStallBeforeFirstRenderFails(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Raw(": keep-alive comment\n\n")
		<-r.Context().Done()
	}, nil)
	id := e.tr.Send(say("hi"))
	e.waitStreamOpen(t) // the comment that follows the headers re-arms nothing either
	e.clk.Advance(239 * time.Second)
	e.clk.Advance(time.Second)
	end := turnEnd(t, rt.Collect(t, e.tr.Events(), id))
	if end.Outcome != transport.TurnFailed || end.ErrorText != "" {
		t.Errorf("end %+v", end)
	}
	if l := e.logText(); !strings.Contains(l, `"msg":"network_stall"`) || !strings.Contains(l, `"stage":"push_wait"`) {
		t.Errorf("log: %s", l)
	}
}

func TestStallAfterFirstRenderStalls(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(text("One sentence. "), text("And"))
		<-r.Context().Done()
	}, nil)
	id := e.tr.Send(say("hi"))
	rt.Next(t, e.tr.Events(), func(ev transport.Event) bool { _, ok := ev.(*transport.RenderEvent); return ok })
	// The request armed the wait, and each of the two chunks re-armed it.
	if !e.clk.WaitArmed(3, 5*time.Second) {
		t.Fatalf("the wait was armed %d times, want 3", e.clk.Armed())
	}
	e.clk.Advance(240 * time.Second)
	end := rt.Next(t, e.tr.Events(), func(ev transport.Event) bool { _, ok := ev.(*transport.TurnEndEvent); return ok }).(*transport.TurnEndEvent)
	if end.TurnID != id || end.Outcome != transport.TurnStalled {
		t.Errorf("end %+v", end)
	}
	if l := e.logText(); !strings.Contains(l, `"msg":"network_stall"`) || !strings.Contains(l, `"stage":"push_turn_end"`) {
		t.Errorf("log: %s", l)
	}
}

func TestBadStreams(t *testing.T) {
	cases := []struct {
		name    string
		h       rt.Handler
		outcome transport.TurnOutcome
		speech  string
	}{
		{"cut mid-event", func(w *rt.Writer, r *http.Request, n int) {
			w.Raw(`data: {"choices":[{"index":0,"delta":{"content":"Hel`)
		},
			transport.TurnFailed, ""},
		{"cut after a sentence", func(w *rt.Writer, r *http.Request, n int) { w.Data(text("Hello there. More")) }, transport.TurnStalled, "Hello there."},
		{"invalid JSON chunk skipped", func(w *rt.Writer, r *http.Request, n int) {
			w.Data(text("Hello. "), `{"choices":[{`, `[1,2]`, `"str"`, text("Bye."), stop(), "[DONE]")
		}, transport.TurnCompleted, "Hello.Bye."},
		{"named unknown event", func(w *rt.Writer, r *http.Request, n int) {
			w.Event("ping", map[string]any{"x": 1})
			w.Data(text("Fine."), stop())
		}, transport.TurnCompleted, "Fine."},
		{"not a stream", func(w *rt.Writer, r *http.Request, n int) { w.Error(200, `{"choices":[]}`) }, transport.TurnFailed, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t, c.h, nil)
			evs := e.send(t, say("hi"))
			var got string
			for _, s := range speeches(evs) {
				got += s.Speech
			}
			if end := turnEnd(t, evs); end.Outcome != c.outcome || got != c.speech {
				t.Errorf("outcome %v speech %q: %s", end.Outcome, got, rt.Dump(evs))
			}
		})
	}
}

func TestBadBaseURL(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "://", "127.0.0.1:11434"} {
		if _, err := chatcompletions.New(transport.Options{ChatBaseURL: u}); err == nil {
			t.Errorf("New(%q) succeeded", u)
		}
	}
}

func TestCloseClosesEvents(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { <-r.Context().Done() }, nil)
	e.tr.Send(say("hi"))
	e.tr.Close()
	for range e.tr.Events() {
	}
}

// With Probe, Start asks the server for its models so the pill tells a user
// whose server is down, or refuses the key, before the first turn.
func TestProbeAtStart(t *testing.T) {
	waitState := func(t *testing.T, tr transport.Transport) transport.StateEvent {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case ev := <-tr.Events():
				if s, ok := ev.(*transport.StateEvent); ok && s.State != transport.StateConnecting {
					return *s
				}
			case <-deadline:
				t.Fatalf("no state after the probe; state %v", tr.State())
			}
		}
	}
	probe := func(t *testing.T, base string) transport.StateEvent {
		tr, err := chatcompletions.New(transport.Options{ChatBaseURL: base, Key: "sk-secret", Vocabulary: rt.Vocabulary, Probe: true})
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		tr.Start()
		return waitState(t, tr)
	}
	serve := func(status int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/v1/models" || r.Method != http.MethodGet || r.Header.Get("Authorization") != "Bearer sk-secret" {
				t.Errorf("probe %s %s auth %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
			}
			w.WriteHeader(status)
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/v1"
	}
	if s := probe(t, serve(200)); s.State != transport.StateReady {
		t.Errorf("server up: %v", s.State)
	}
	if s := probe(t, serve(404)); s.State != transport.StateReady {
		t.Errorf("server up without /models: %v", s.State)
	}
	if s := probe(t, serve(401)); s.State != transport.StateKeyRejected {
		t.Errorf("key refused: %v", s.State)
	}
	addr := closedAddr(t)
	if s := probe(t, "http://"+addr+"/v1"); s.State != transport.StateOffline || s.Err == nil {
		t.Errorf("server down: %+v", s)
	}
}
