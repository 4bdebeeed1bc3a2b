//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"yui/cmd/yui/e2e/harness"
)

// countingServer is a Chat Completions server with a 4096-token context
// that counts a token for every three bytes of a request (more than the
// client's own estimate: its usage reports teach the client), refuses a
// request over its context as llama.cpp does, and answers at once.
type countingServer struct {
	mu      sync.Mutex
	reqs    []countedRequest
	refused int
	// summaries counts long-term memory's summary requests, kept out of reqs.
	summaries int
	got       chan struct{}
}

type countedRequest struct {
	raw    string
	tokens int
	last   string // the newest user message's text
}

const serverContext = 4096

// memorySummaryPrefix starts the newest message of long-term memory's
// summary request (transport/request/recall.go).
const memorySummaryPrefix = "The conversation that left the context ("

func (s *countingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(raw, &body)
	tokens := len(raw) / 3
	last := ""
	if n := len(body.Messages); n > 0 {
		last, _ = body.Messages[n-1].Content.(string)
	}
	if strings.HasPrefix(last, memorySummaryPrefix) {
		// Long-term memory's summary of dropped turns (a request aside,
		// at most once per 20 dropped turns): counted apart, answered
		// with nothing to remember.
		s.mu.Lock()
		s.summaries++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, countedRequest{raw: string(raw), tokens: tokens, last: last})
	n := len(s.reqs)
	over := tokens > serverContext
	if over {
		s.refused++
	}
	s.mu.Unlock()
	defer func() {
		select {
		case s.got <- struct{}{}:
		default:
		}
	}()
	if over {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		fmt.Fprintf(w, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":%d,"n_ctx":%d}}`, tokens, serverContext)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Noted, request %d.\"},\"finish_reason\":null}]}\n\n", n)
	fmt.Fprint(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
	fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":5,\"total_tokens\":%d}}\n\n", tokens, tokens+5)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func (s *countingServer) requests() []countedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]countedRequest(nil), s.reqs...)
}

// waitRequests waits until the server answered n requests.
func (s *countingServer) waitRequests(n int, limit time.Duration) bool {
	deadline := time.After(limit)
	for len(s.requests()) < n {
		select {
		case <-s.got:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			return false
		}
	}
	return true
}

// say types text into the open composer and sends it, then waits for the
// server's request n. Enter while the previous turn still runs would stop
// it instead: the text then stays, and Enter is pressed again.
func say(a *harness.App, s *countingServer, text string, n int) {
	a.T.Helper()
	a.D.Run(a.T, "xdotool", "type", "--delay", "8", text)
	a.D.Run(a.T, "xdotool", "key", "Return")
	for try := 0; !s.waitRequests(n, 3*time.Second); try++ {
		if try == 3 {
			a.T.Fatalf("request %d (%q) never came", n, text)
		}
		a.D.Run(a.T, "xdotool", "key", "Return")
	}
	// The composer is locked while the turn runs: typing before it is
	// unlocked again would lose letters.
	harness.WaitFor(a.T, 10*time.Second, fmt.Sprintf("the composer unlocked after request %d", n), func() bool {
		return a.Count("pet_composer_unlocked", nil) >= n
	})
}

// 300 turns on context_window 4096: every request stays under the window
// with the newest turn in it; after a restart the first request carries
// the earlier turns.
func TestLongConversationKeepsUnderWindowAndSurvivesRestart(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv := &countingServer{got: make(chan struct{}, 16)}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	cfg := t.TempDir()
	st := map[string]any{"version": 1, "active_preset": "p-long0001", "log_level": "debug", "presets": []any{map[string]any{
		"id": "p-long0001", "name": "Yui", "enabled": true, "character": "yui", "chat_api": "chat_completions",
		"chat_base_url": "http://" + l.Addr().String() + "/v1", "model": "m", "context_window": 4096, "chat_id": "yui-0000abcd",
	}}}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}

	a := harness.StartYuiIn(t, d, cfg, "")
	a.OpenComposer()
	// A first turn lets the pet window settle (its bubble appears) before
	// the counted ones.
	say(a, srv, "hello", 1)
	const turns = 300
	start := time.Now()
	for i := 1; i <= turns; i++ {
		say(a, srv, fmt.Sprintf("turn %d", i), i+1)
	}
	t.Logf("%d turns in %s", turns, time.Since(start).Round(time.Millisecond))
	reqs := srv.requests()[1:]
	if srv.refused > 0 {
		t.Errorf("the server refused %d requests as over its context", srv.refused)
	}
	maxTokens := 0
	for i, r := range reqs {
		maxTokens = max(maxTokens, r.tokens)
		if r.tokens > serverContext {
			t.Errorf("request %d: %d tokens, over the window", i+1, r.tokens)
		}
		if want := fmt.Sprintf("\n\nturn %d", i+1); !strings.HasSuffix(r.last, want) {
			t.Fatalf("request %d: the newest message is %q, want the turn %q", i+1, r.last, want)
		}
	}
	if strings.Contains(reqs[turns-1].raw, `\n\nturn 1"`) {
		t.Error("the 300th request still carries the first turn: nothing was dropped")
	}
	t.Logf("largest request: %d tokens as the server counts", maxTokens)
	srv.mu.Lock()
	if srv.summaries == 0 {
		t.Error("300 turns dropped many from the context, and no summary request for long-term memory came")
	}
	t.Logf("%d memory summary requests", srv.summaries)
	srv.mu.Unlock()
	// The memory is saved as each turn ends, not only at quit: stop
	// waits for the process to end, however its shutdown goes.
	a.Proc.Stop()

	mem := filepath.Join(cfg, "memory", "p-long0001.json")
	fi, err := os.Stat(mem)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("memory file: %v %v", fi, err)
	}

	b := harness.StartYuiIn(t, d, cfg, "")
	harness.WaitFor(t, 30*time.Second, "the second run's pet", func() bool { return b.Count("pet_window_shown", nil) == 2 })
	b.OpenComposer()
	say(b, srv, "do you remember?", turns+2)
	first := srv.requests()[turns+1]
	for _, want := range []string{`\n\nturn 300"`, `\n\nturn 299"`, `Noted, request 301.`, `\n\ndo you remember?"`} {
		if !strings.Contains(first.raw, want) {
			t.Errorf("the first request after the restart lacks %s", want)
		}
	}
	if first.tokens > serverContext {
		t.Errorf("the first request after the restart: %d tokens", first.tokens)
	}
	d.Screenshot(t, "after-restart")
}
