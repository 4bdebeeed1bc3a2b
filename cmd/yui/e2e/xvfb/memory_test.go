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

// memoryServer is a Chat Completions server whose model follows the
// user's words: "remember X" calls remember with fact X, "forget id N"
// and "forget text X" call forget; anything else, and the answer to a
// tool result, is a short reply.
type memoryServer struct {
	mu   sync.Mutex
	reqs []memoryRequest
}

type memoryRequest struct {
	raw    string
	system string
	// result is the newest tool message's text, "" when the request
	// answers no tool call.
	result string
	tools  []string
}

func (s *memoryServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(raw, &body)
	req := memoryRequest{raw: string(raw)}
	if len(body.Messages) > 0 {
		req.system, _ = body.Messages[0].Content.(string)
	}
	for _, t := range body.Tools {
		req.tools = append(req.tools, t.Function.Name)
	}
	last := body.Messages[len(body.Messages)-1]
	text, _ := last.Content.(string)
	if last.Role == "tool" {
		req.result = text
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()

	w.Header().Set("Content-Type", "text/event-stream")
	send := func(v string) { fmt.Fprintf(w, "data: %s\n\n", v); w.(http.Flusher).Flush() }
	chunk := func(delta, finish string) string {
		return `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	words := text
	if i := strings.LastIndex(text, "</client_context>"); i >= 0 {
		words = strings.TrimSpace(text[i+len("</client_context>"):])
	}
	name, args := "", ""
	switch {
	case last.Role == "tool":
	case strings.HasPrefix(words, "remember "):
		b, _ := json.Marshal(map[string]string{"fact": strings.TrimPrefix(words, "remember ")})
		name, args = "remember", string(b)
	case strings.HasPrefix(words, "forget id "):
		name, args = "forget", `{"id":`+strings.TrimPrefix(words, "forget id ")+`}`
	case strings.HasPrefix(words, "forget text "):
		b, _ := json.Marshal(map[string]string{"text": strings.TrimPrefix(words, "forget text ")})
		name, args = "forget", string(b)
	}
	if name != "" {
		a, _ := json.Marshal(args)
		send(chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_m","type":"function","function":{"name":"`+name+`","arguments":`+string(a)+`}}]}`, "null"))
		send(chunk(`{}`, `"tool_calls"`))
	} else {
		send(chunk(`{"content":"Okay."}`, "null"))
		send(chunk(`{}`, `"stop"`))
	}
	send("[DONE]")
}

func (s *memoryServer) requests() []memoryRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]memoryRequest(nil), s.reqs...)
}

// last is the newest request.
func (s *memoryServer) last(t testing.TB) memoryRequest {
	t.Helper()
	r := s.requests()
	if len(r) == 0 {
		t.Fatal("no request yet")
	}
	return r[len(r)-1]
}

// tell types text into the open composer, sends it and waits until its
// turn ended and the composer is unlocked again.
func tell(a *harness.App, text string) {
	a.T.Helper()
	turns, unlocked := a.Count("turn", nil), a.Count("pet_composer_unlocked", nil)
	a.D.Run(a.T, "xdotool", "type", "--delay", "8", text)
	a.D.Run(a.T, "xdotool", "key", "Return")
	for try := 0; !harness.WaitForOr(3*time.Second, func() bool { return a.Count("turn", nil) > turns }); try++ {
		if try == 3 {
			a.T.Fatalf("the turn %q was never sent", text)
		}
		a.D.Run(a.T, "xdotool", "key", "Return")
	}
	harness.WaitFor(a.T, 20*time.Second, fmt.Sprintf("the composer unlocked after %q", text), func() bool {
		return a.Count("pet_composer_unlocked", nil) > unlocked
	})
}

func startMemoryServer(t *testing.T) (*memoryServer, string) {
	t.Helper()
	srv := &memoryServer{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	return srv, "http://" + l.Addr().String() + "/v1"
}

func writeMemoryPreset(t *testing.T, cfg, base string, window int) {
	t.Helper()
	st := map[string]any{"version": 1, "active_preset": "p-memo0001", "log_level": "debug", "presets": []any{map[string]any{
		"id": "p-memo0001", "name": "Yui", "enabled": true, "character": "yui", "chat_api": "chat_completions",
		"chat_base_url": base, "model": "m", "context_window": window, "chat_id": "yui-0000memo",
		"card": "You are Yui, a cheerful desktop companion.",
	}}}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The model keeps a fact with remember; after a restart the next
// request's system prompt carries it, after the card; a repeat is
// already remembered; forget by id and by text drop facts.
func TestMemoryRememberForgetAndRestart(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv, base := startMemoryServer(t)
	cfg := t.TempDir()
	writeMemoryPreset(t, cfg, base, 0)

	a := harness.StartYuiIn(t, d, cfg, "")
	a.OpenComposer()
	tell(a, "remember The user's cat is called Miso")
	if got := srv.last(t).result; got != "ok: remembered #1" {
		t.Fatalf("remember answered %q", got)
	}
	if tools := srv.last(t).tools; !strings.Contains(strings.Join(tools, ","), "remember,forget") {
		t.Fatalf("tools %v", tools)
	}
	tell(a, "remember the USER'S cat  is called miso")
	if got := srv.last(t).result; got != "ok: already remembered #1" {
		t.Fatalf("a repeat answered %q", got)
	}
	a.WaitRecord(10*time.Second, "memory_remember", map[string]string{"already": "true"})
	a.Proc.Stop()
	// The tool's status is in the message window's history like other tools'.
	hist, _ := os.ReadFile(filepath.Join(cfg, "history", "p-memo0001.json"))
	if !strings.Contains(string(hist), `"tool":"remember"`) {
		t.Fatalf("no remember status in the message history: %s", hist)
	}

	fi, err := os.Stat(filepath.Join(cfg, "memory", "p-memo0001.facts.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("facts file: %v %v", fi, err)
	}

	b := harness.StartYuiIn(t, d, cfg, "")
	harness.WaitFor(t, 30*time.Second, "the second run's pet", func() bool { return b.Count("pet_window_shown", nil) == 2 })
	b.OpenComposer()
	tell(b, "hello again")
	sys := srv.last(t).system
	card, block := strings.Index(sys, "You are Yui"), strings.Index(sys, "What you remember about the user")
	if card != 0 || block < card || !strings.Contains(sys[block:], "The user's cat is called Miso") {
		t.Fatalf("system prompt after the restart: %q", sys)
	}
	if !strings.Contains(sys, "remember tool") {
		t.Fatal("the system prompt does not tell the model when to remember")
	}
	tell(b, "remember Has an exam on Friday")
	if got := srv.last(t).result; got != "ok: remembered #2" {
		t.Fatalf("second fact: %q", got)
	}
	tell(b, "forget id 1")
	if got := srv.last(t).result; got != "ok: forgot #1" {
		t.Fatalf("forget by id: %q", got)
	}
	tell(b, "forget id 1")
	if got := srv.last(t).result; got != "error: no such memory" {
		t.Fatalf("forget twice: %q", got)
	}
	tell(b, "forget text has an exam on friday")
	if got := srv.last(t).result; got != "ok: forgot #2" {
		t.Fatalf("forget by text: %q", got)
	}
	tell(b, "what do you remember?")
	if sys := srv.last(t).system; strings.Contains(sys, "Miso") || strings.Contains(sys, "exam") {
		t.Fatalf("forgotten facts still in the prompt: %q", sys)
	}
	d.Screenshot(t, "memory-after-forget")
}

// 500 facts on context_window 2048: the block holds within a tenth of
// the window, newest first, and the request within the window.
func TestMemoryBudgetWith500Facts(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv, base := startMemoryServer(t)
	cfg := t.TempDir()
	writeMemoryPreset(t, cfg, base, 2048)
	var facts []map[string]any
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= 500; i++ {
		facts = append(facts, map[string]any{"id": i, "text": fmt.Sprintf("Fact number %d: the user likes thing %d a lot", i, i),
			"about": "user", "created": t0.Add(time.Duration(i) * time.Minute), "last_used": t0.Add(time.Duration(i) * time.Minute)})
	}
	data, _ := json.Marshal(map[string]any{"version": 1, "next_id": 501, "facts": facts})
	os.MkdirAll(filepath.Join(cfg, "memory"), 0o700)
	if err := os.WriteFile(filepath.Join(cfg, "memory", "p-memo0001.facts.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	a := harness.StartYuiIn(t, d, cfg, "")
	a.OpenComposer()
	tell(a, "hi")
	sys := srv.last(t).system
	i := strings.Index(sys, "Long-term memory:")
	if i < 0 || !strings.Contains(sys, "Fact number 500:") || strings.Contains(sys, "Fact number 1:") {
		t.Fatalf("system prompt: %q", sys)
	}
	// Everything memory adds after the card, up to the cue paragraph.
	block := sys[i:]
	if end := strings.Index(block, "\n\nTo show an emotion"); end >= 0 {
		block = block[:end]
	}
	if tokens := (len(block) + 3) / 4; tokens > 2048/10 {
		t.Fatalf("memory takes about %d tokens, over a tenth of 2048: %q", tokens, block)
	}
	if est := (len(srv.last(t).raw) + 3) / 4; est > 2048 {
		t.Fatalf("the request is about %d tokens, over the window", est)
	}
	tell(a, "remember One more thing")
	if got := srv.last(t).result; got != "ok: remembered #501" {
		t.Fatalf("remember past 500: %q", got)
	}
	a.Proc.Stop()
	var f struct {
		Facts []struct {
			ID int `json:"id"`
		} `json:"facts"`
	}
	data, _ = os.ReadFile(filepath.Join(cfg, "memory", "p-memo0001.facts.json"))
	if err := json.Unmarshal(data, &f); err != nil || len(f.Facts) != 500 {
		t.Fatalf("%d facts kept (%v)", len(f.Facts), err)
	}
	for _, x := range f.Facts {
		if x.ID == 1 {
			t.Fatal("the least recently used fact was not the one to go")
		}
	}
}

// Over push the client declares no remember or forget: a push backend
// keeps its own memory.
func TestMemoryNotDeclaredOverPush(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	harness.WriteSettings(t, cfg, harness.PushPreset("p-memo0002", "Yui", s, "k1"))
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	var hello []map[string]any
	harness.WaitFor(t, 10*time.Second, "the hello frame", func() bool { hello = s.Frames("hello"); return len(hello) > 0 })
	tools, _ := json.Marshal(hello[0]["tools"])
	if !strings.Contains(string(tools), "rate_relation") {
		t.Fatalf("hello.tools = %s: the check reads the wrong field", tools)
	}
	if strings.Contains(string(tools), `"remember"`) || strings.Contains(string(tools), `"forget"`) {
		t.Fatalf("hello.tools over push declares memory tools: %s", tools)
	}
}
