package chatcompletions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/request"
	rt "yui/transport/request/requesttest"
)

// cueThenText answers a turn as models do here: a generate_express call
// first, then the reply once the call was answered.
func cueThenText(w *rt.Writer, r *http.Request, n int, raw []byte) {
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	_ = json.Unmarshal(raw, &body)
	if last := body.Messages[len(body.Messages)-1]; last["role"] != "tool" {
		w.Data(call(0, fmt.Sprintf("c%d", n), "generate_express", `{"emotion_id":"happy"}`), toolsDone(), "[DONE]")
		return
	}
	w.Data(text(fmt.Sprintf("Reply %d.", n)), stop(), "[DONE]")
}

// lastRaw is the raw body of the newest request.
func lastRaw(s *rt.Server) []byte {
	reqs := s.Requests()
	return reqs[len(reqs)-1].Raw
}

// checkWhole fails when a request splits a turn: the history must open
// with a turn's user message and every tool result follow its call.
func checkWhole(t *testing.T, msgs []map[string]any) {
	t.Helper()
	if len(msgs) < 2 || msgs[0]["role"] != "system" {
		t.Fatalf("messages %v", msgs)
	}
	first, _ := msgs[1]["content"].(string)
	if msgs[1]["role"] != "user" || !strings.Contains(first, "trigger: user message") {
		t.Fatalf("the history opens mid-turn: %v", msgs[1])
	}
	calls := map[string]bool{}
	for _, m := range msgs {
		for _, c := range asList(m["tool_calls"]) {
			calls[c.(map[string]any)["id"].(string)] = true
		}
		if m["role"] == "tool" && !calls[m["tool_call_id"].(string)] {
			t.Fatalf("tool result %v without its call", m["tool_call_id"])
		}
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

// userTexts are the user words of the requests' turns, in order.
func userTexts(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		if s, ok := m["content"].(string); ok && m["role"] == "user" {
			if i := strings.LastIndex(s, "\n\n"); i >= 0 {
				out = append(out, s[i+2:])
			}
		}
	}
	return out
}

func TestBudgetKeepsNewestTurnsWhole(t *testing.T) {
	var srv *rt.Server
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { cueThenText(w, r, n, lastRaw(srv)) },
		func(o *transport.Options) { o.ContextWindow = 4096 })
	srv = e.srv
	filler := strings.Repeat("words to fill the window ", 24)
	for i := range 40 {
		e.send(t, say(fmt.Sprintf("%s turn %d", filler, i)))
	}
	room := 4096 - request.ReplyRoom(4096)
	dropped := false
	for i, r := range e.srv.Requests() {
		if est := request.Estimate(r.Raw); est > room {
			t.Fatalf("request %d: %d tokens, room %d", i, est, room)
		}
		msgs := messages(r)
		checkWhole(t, msgs)
		texts := userTexts(msgs)
		turn := i / 2
		if want := fmt.Sprintf("turn %d", turn); !strings.HasSuffix(texts[len(texts)-1], want) {
			t.Fatalf("request %d: newest turn %q, want %q", i, texts[len(texts)-1], want)
		}
		// The turns kept are the newest ones, one after another.
		for j := range texts {
			if want := fmt.Sprintf("turn %d", turn-len(texts)+1+j); !strings.HasSuffix(texts[j], want) {
				t.Fatalf("request %d keeps %q at %d, want %q", i, texts[j], j, want)
			}
		}
		dropped = dropped || len(texts) < turn+1
	}
	if !dropped {
		t.Fatal("no request dropped a turn: the test does not reach the window")
	}
}

func TestOnlyNewestTurnCarriesImages(t *testing.T) {
	look := transport.Tool{Name: "look", Parameters: json.RawMessage(rt.LookSchema), Wait: 2 * time.Second,
		Handler: func(ctx context.Context, c transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: "the screen", Images: []transport.Image{{MIME: "image/jpeg", Data: []byte("SCREEN")}}}
		}}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if n == 0 {
			w.Data(call(0, "c1", "look", `{"at":"screen"}`), toolsDone(), "[DONE]")
			return
		}
		w.Data(text("I see."), stop(), "[DONE]")
	}, func(o *transport.Options) { o.Tools = []transport.Tool{look} })
	e.send(t, transport.Turn{Trigger: transport.TriggerUserMessage, Text: "look",
		Screenshot:  &transport.Screenshot{Image: transport.Image{MIME: "image/png", Data: []byte("PNGDATA")}, Display: 1, Displays: 1, Width: 10, Height: 10},
		Attachments: []transport.Image{{MIME: "image/png", Data: []byte("ATT")}}})
	e.send(t, say("and now?"))
	reqs := e.srv.Requests()
	if n := strings.Count(string(reqs[1].Raw), `"url":"data:`); n != 3 {
		t.Fatalf("the turn's own second round carries %d images, want 3:\n%s", n, reqs[1].Raw)
	}
	later := string(reqs[2].Raw)
	if strings.Contains(later, "data:") {
		t.Fatalf("a later turn re-sends images:\n%s", later)
	}
	for _, note := range []string{"[image no longer shown: the screenshot]", "[image no longer shown: an image the user attached]",
		"Images of the look result (call c1): [image no longer shown: an image]"} {
		if !strings.Contains(later, note) {
			t.Errorf("no note %q in\n%s", note, later)
		}
	}
	checkWhole(t, messages(reqs[2]))
}

func TestCalibrationFollowsReportedUsage(t *testing.T) {
	// The server counts three times the client's estimate; its usage
	// tells the client so, and the requests keep under the window as
	// the server counts.
	var srv *rt.Server
	count := func(raw []byte) int { return 3 * request.Estimate(raw) }
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(text("Fine."), stop(), usage(count(lastRaw(srv)), 2), "[DONE]")
	}, func(o *transport.Options) { o.ContextWindow = 8192 })
	srv = e.srv
	filler := strings.Repeat("more words for the window ", 20)
	for i := range 30 {
		e.send(t, say(fmt.Sprintf("%s %d", filler, i)))
	}
	room := 8192 - request.ReplyRoom(8192)
	reqs := e.srv.Requests()
	for i, r := range reqs[1:] {
		if c := count(r.Raw); c > room {
			t.Fatalf("request %d: the server counts %d tokens, room %d", i+1, c, room)
		}
	}
	if n := len(userTexts(messages(reqs[len(reqs)-1]))); n > 12 {
		t.Errorf("the last request keeps %d turns: the calibration did not follow the usage", n)
	}
}

func TestContextOverflowRetriesOnceTrimmed(t *testing.T) {
	// A vLLM-like server with a 2048-token context; the preset says
	// nothing about the window.
	var srv *rt.Server
	refused := 0
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if est := request.Estimate(lastRaw(srv)); est > 1600 {
			refused++
			w.Error(400, fmt.Sprintf(`{"object":"error","message":"This model's maximum context length is 2048 tokens. However, you requested %d tokens (%d in the messages, 0 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`, est, est))
			return
		}
		w.Data(text("Fine."), stop(), "[DONE]")
	}, nil)
	srv = e.srv
	filler := strings.Repeat("a long line of talk ", 40)
	for i := range 12 {
		evs := e.send(t, say(fmt.Sprintf("%s %d", filler, i)))
		if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted {
			t.Fatalf("turn %d: %+v", i, end)
		}
	}
	if refused != 1 {
		t.Errorf("%d requests refused; once the server named its context, the budget keeps under it", refused)
	}
	if !strings.Contains(e.logText(), `"msg":"context_overflow"`) {
		t.Error("no context_overflow log record")
	}
}

func TestContextOverflowOfTheMinimumFails(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Error(400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":512}}`)
	}, nil)
	e.send(t, say("hi"))
	end := turnEnd(t, e.send(t, say("again")))
	if end.Outcome != transport.TurnFailed || !strings.HasPrefix(end.ErrorText, "400 Bad Request: the request exceeds") {
		t.Fatalf("end %+v", end)
	}
	if n := len(e.srv.Requests()); n != 4 {
		t.Fatalf("%d requests, want each turn tried twice", n)
	}
}

func TestMemoryContinuesAfterRestartAndResetClearsIt(t *testing.T) {
	mem := rt.NewConversation(nil)
	h := func(w *rt.Writer, r *http.Request, n int) {
		w.Data(text(fmt.Sprintf("Reply %d.", n)), stop(), "[DONE]")
	}
	withMem := func(o *transport.Options) { o.Conversation = mem }
	e := start(t, h, withMem)
	e.send(t, transport.Turn{Trigger: transport.TriggerUserMessage, Text: "remember the blue cup",
		Attachments: []transport.Image{{MIME: "image/png", Data: []byte("CUP")}}})
	e.send(t, say("and the red one"))
	e.tr.Close()
	saved := mem.String()
	if strings.Contains(saved, "sk-secret") || strings.Contains(saved, "data:") || !strings.Contains(saved, "blue cup") {
		t.Fatalf("saved memory %s", saved)
	}

	// A new transport, as after a restart, continues the conversation.
	e2 := start(t, h, withMem)
	e2.send(t, say("what did I say?"))
	texts := userTexts(messages(e2.srv.Requests()[0]))
	if len(texts) != 3 || !strings.Contains(string(e2.srv.Requests()[0].Raw), `remember the blue cup\n\n[image no longer shown`) || texts[2] != "what did I say?" {
		t.Fatalf("first request after the restart: %q", texts)
	}
	if !strings.Contains(string(e2.srv.Requests()[0].Raw), `"content":"Reply 1."`) {
		t.Errorf("the earlier replies are not carried: %s", e2.srv.Requests()[0].Raw)
	}

	e2.tr.Reset()
	e2.tr.Close()
	e3 := start(t, h, withMem)
	e3.send(t, say("fresh start"))
	if texts := userTexts(messages(e3.srv.Requests()[0])); len(texts) != 1 {
		t.Fatalf("after Reset and a restart the request carries %q", texts)
	}
}

func TestUnreadableMemoryStartsEmpty(t *testing.T) {
	for _, data := range []string{`{`, `{"version":9}`, `{"version":1,"conversations":{"chat_completions":{"state":[{"messages":[{"role":"tool","tool_call_id":"x"}]}]}}}`} {
		mem := rt.NewConversation([]byte(data))
		e := start(t, func(w *rt.Writer, r *http.Request, n int) { w.Data(text("Hi."), stop(), "[DONE]") },
			func(o *transport.Options) { o.Conversation = mem })
		e.send(t, say("hello"))
		if texts := userTexts(messages(e.srv.Requests()[0])); len(texts) != 1 {
			t.Errorf("memory %s: request carries %q", data, texts)
		}
		if !strings.Contains(e.logText(), "memory_unreadable") {
			t.Errorf("memory %s: no memory_unreadable record", data)
		}
	}
}
