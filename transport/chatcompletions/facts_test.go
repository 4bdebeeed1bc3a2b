package chatcompletions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/request"
	rt "yui/transport/request/requesttest"
)

// waitLog waits for a log record containing s.
func (e *env) waitLog(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for !strings.Contains(e.logText(), s) {
		select {
		case <-e.wrote:
		case <-timeout:
			t.Fatalf("no %s in the log:\n%s", s, e.logText())
		}
	}
}

func system(r rt.Request) string {
	s, _ := messages(r)[0]["content"].(string)
	return s
}

func TestRecallFollowsTheCardWithinATenthOfTheWindow(t *testing.T) {
	for _, c := range []struct{ window, room int }{{2048, 204}, {0, 1000}, {32768, 3276}} {
		var mu sync.Mutex
		var rooms []int
		var tokens func(string) int
		e := start(t, func(w *rt.Writer, r *http.Request, n int) { w.Data(text("Hi."), stop(), "[DONE]") },
			func(o *transport.Options) {
				o.ContextWindow = c.window
				o.Facts = transport.FactsFunc(func(room int, tk func(string) int) string {
					mu.Lock()
					defer mu.Unlock()
					rooms, tokens = append(rooms, room), tk
					return "What you remember about the user:\n- #1 Has a cat named Miso"
				})
			})
		e.send(t, say("hello"))
		sys := system(e.srv.Requests()[0])
		card, block, cue := strings.Index(sys, "You are Yui."), strings.Index(sys, "What you remember"), strings.Index(sys, request.CueParagraph)
		if card != 0 || block < card || cue < block {
			t.Fatalf("system prompt order: card %d, block %d, cue %d: %q", card, block, cue, sys)
		}
		mu.Lock()
		if len(rooms) != 1 || rooms[0] != c.room {
			t.Errorf("window %d: rooms %v, want %d", c.window, rooms, c.room)
		}
		// The engine's one estimate, on the text as a request carries it.
		if got, want := tokens(strings.Repeat("abcd", 100)), request.Estimate([]byte(`"`+strings.Repeat("abcd", 100)+`"`)); got != want {
			t.Errorf("tokens %d, want %d", got, want)
		}
		mu.Unlock()
	}
}

// summaryServer answers turns with long replies and summary requests with
// four remember calls, or with a server error while fail is set.
type summaryServer struct {
	srv       *rt.Server
	mu        sync.Mutex
	summaries int
	fail      bool
	newest    []int // each summary's newest dropped turn, by the number its user message carries
}

// hobbyNumber finds the turn numbers of the test's user messages.
var hobbyNumber = regexp.MustCompile(`My hobby number (\d+) is`)

func (s *summaryServer) handle(w *rt.Writer, r *http.Request, n int) {
	raw := s.srv.Requests()[n].Raw
	if strings.Contains(string(raw), `"content":"You keep the long-term memory`) {
		newest := -1
		for _, m := range hobbyNumber.FindAllStringSubmatch(string(raw), -1) {
			if k, err := strconv.Atoi(m[1]); err == nil {
				newest = max(newest, k)
			}
		}
		s.mu.Lock()
		s.summaries++
		s.newest = append(s.newest, newest)
		fail := s.fail
		s.mu.Unlock()
		if fail {
			w.Error(500, `{"error":{"message":"boom"}}`)
			return
		}
		var evs []any
		for i := range 4 {
			evs = append(evs, call(i, fmt.Sprintf("m%d", i), "remember", fmt.Sprintf(`{"fact":"fact %d"}`, i)))
		}
		w.Data(append(evs, toolsDone(), "[DONE]")...)
		return
	}
	w.Data(text(strings.Repeat("A long answer that fills the window. ", 12)), stop(), "[DONE]")
}

func TestSummaryOfDroppedTurnsKeepsAtMostThreeFacts(t *testing.T) {
	ss := &summaryServer{}
	var mu sync.Mutex
	var kept []string
	remember := transport.Tool{Name: "remember", Description: "Keep one fact", Wait: 2 * time.Second,
		Parameters: json.RawMessage(`{"type":"object","properties":{"fact":{"type":"string"}},"required":["fact"],"additionalProperties":false}`),
		Handler: func(_ context.Context, c transport.ToolCall) transport.ToolResult {
			mu.Lock()
			defer mu.Unlock()
			kept = append(kept, string(c.Arguments))
			return transport.ToolResult{Text: fmt.Sprintf("ok: remembered #%d", len(kept))}
		}}
	e := start(t, ss.handle, func(o *transport.Options) {
		o.ContextWindow = 2048
		o.Tools = []transport.Tool{remember}
		o.Facts = transport.FactsFunc(func(int, func(string) int) string { return "" })
	})
	ss.srv = e.srv
	turns := 0
	sendUntil := func(summaries int) {
		t.Helper()
		for ; ; turns++ {
			ss.mu.Lock()
			n := ss.summaries
			ss.mu.Unlock()
			if n >= summaries {
				return
			}
			if turns > 200 {
				t.Fatalf("no summary %d after %d turns", summaries, turns)
			}
			end := turnEnd(t, e.send(t, say(fmt.Sprintf("My hobby number %d is painting", turns))))
			if end.Outcome != transport.TurnCompleted {
				t.Fatalf("turn %d: %v", turns, end.Outcome)
			}
		}
	}
	sendUntil(1)

	e.waitLog(t, `"msg":"memory_summary"`)
	mu.Lock()
	if len(kept) != request.SummaryFacts {
		t.Fatalf("kept %v, want %d facts", kept, request.SummaryFacts)
	}
	mu.Unlock()
	// The summary request carries the dropped turns' words, no
	// client_context, and declares remember only.
	var sum rt.Request
	for _, r := range e.srv.Requests() {
		if strings.Contains(string(r.Raw), "You keep the long-term memory") {
			sum = r
		}
	}
	user, _ := messages(sum)[1]["content"].(string)
	if !strings.Contains(user, "User: My hobby number ") || strings.Contains(user, "client_context") || !strings.Contains(user, "You: A long answer") {
		t.Fatalf("summary input: %q", user)
	}
	if est := request.Estimate(sum.Raw); est > 2048-request.ReplyRoom(2048) {
		t.Fatalf("the summary request is %d tokens, over the window", est)
	}
	if tools, _ := json.Marshal(sum.Body["tools"]); strings.Count(string(tools), `"name"`) != 1 || !strings.Contains(string(tools), `"remember"`) {
		t.Fatalf("summary tools: %s", tools)
	}
	// The next one comes only after 20 more dropped turns, and its
	// failure fails no turn (sendUntil checks every turn completes).
	ss.mu.Lock()
	ss.fail = true
	ss.mu.Unlock()
	sendUntil(2)
	// The turns leave the requests oldest first, so the newest a summary
	// covers tells how many had left by then. (The turn the test was on
	// when it saw a summary does not: the summary runs beside the turns.)
	ss.mu.Lock()
	newest := slices.Clone(ss.newest)
	ss.mu.Unlock()
	if len(newest) < 2 || newest[0] < 0 || newest[1]-newest[0] < request.SummaryEvery {
		t.Fatalf("the summaries' newest dropped turns %v: want the second %d or more turns after the first", newest, request.SummaryEvery)
	}
	e.waitLog(t, `"msg":"memory_summary_failed"`)
	sendUntil(2)
	e.send(t, say("and one more"))
	if strings.Contains(e.logText(), "sk-secret") {
		t.Fatal("the key is in the log")
	}
}

func TestNoSummaryWithoutRemember(t *testing.T) {
	ss := &summaryServer{}
	e := start(t, ss.handle, func(o *transport.Options) {
		o.ContextWindow = 2048
		o.Facts = transport.FactsFunc(func(int, func(string) int) string { return "" })
	})
	ss.srv = e.srv
	for i := range 60 {
		e.send(t, say(fmt.Sprintf("turn %d", i)))
	}
	if ss.summaries != 0 {
		t.Fatalf("%d summaries without a remember tool", ss.summaries)
	}
}

// Reset starts a new conversation; the remembered facts stay in the
// system prompt.
func TestResetKeepsRecall(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) { w.Data(text("Hi."), stop(), "[DONE]") },
		func(o *transport.Options) {
			o.Facts = transport.FactsFunc(func(int, func(string) int) string { return "What you remember about the user:\n- #1 Likes tea" })
		})
	e.send(t, say("hello"))
	e.tr.Reset()
	e.send(t, say("again"))
	reqs := e.srv.Requests()
	last := reqs[len(reqs)-1]
	if len(messages(last)) != 2 || !strings.Contains(system(last), "Likes tea") {
		t.Fatalf("after a reset: %d messages, system %q", len(messages(last)), system(last))
	}
}
