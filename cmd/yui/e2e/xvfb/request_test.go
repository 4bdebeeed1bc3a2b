//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"yui/cmd/yui/e2e/harness"
)

// fakeChatCompletions streams a reply in OpenAI's chunk shape: on the first
// request a generate_express call (a cue), then, once the cue was answered,
// text with usage.
type fakeChatCompletions struct {
	mu       sync.Mutex
	requests []map[string]any
}

func (f *fakeChatCompletions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(v string) { fmt.Fprintf(w, "data: %s\n\n", v); w.(http.Flusher).Flush() }
	msgs, _ := req["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "tool" {
		send(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"generate_express","arguments":""}}]},"finish_reason":null}]}`)
		send(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"emotion_id\":\"happy\"}"}}]},"finish_reason":null}]}`)
		send(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		send(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":5,"total_tokens":105}}`)
		send("[DONE]")
		return
	}
	for _, part := range []string{"Hello from the ", "model server. ", "Nice to meet you!"} {
		b, _ := json.Marshal(part)
		send(`{"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":` + string(b) + `},"finish_reason":null}]}`)
		time.Sleep(50 * time.Millisecond)
	}
	send(`{"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	send(`{"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":12,"total_tokens":132}}`)
	send("[DONE]")
}

func TestTypedTurnOverChatCompletions(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	fake := &fakeChatCompletions{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: fake}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + l.Addr().String() + "/v1"

	a := startYui(t, d, "", "--chat-api", "chat_completions", "--chat-base-url", base, "--model", "m")
	win := a.PetRect()
	a.Talk("hi there")
	turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	id := turn.Str("turn_id")
	a.WaitRecord(20*time.Second, "speech", map[string]string{"turn_id": id, "kind": "reply", "text": "Hello from the model server."})
	// The cue lands before the sentence it precedes.
	cueAt, speechAt := -1, -1
	for i, r := range a.Log() {
		switch {
		case cueAt < 0 && r.Str("msg") == "cue" && r.Str("turn_id") == id && r.Str("emotion_id") == "happy":
			cueAt = i
		case speechAt < 0 && r.Str("msg") == "speech" && r.Str("turn_id") == id && r.Str("kind") == "reply":
			speechAt = i
		}
	}
	if cueAt < 0 || cueAt > speechAt {
		t.Fatalf("cue record at %d, first reply sentence at %d: the cue must come first", cueAt, speechAt)
	}
	shot := d.WaitShot(t, "chat-completions-reply", 10*time.Second, harness.BubbleCheck(win))
	harness.AssertShaped(t, shot, win)

	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.requests) < 2 {
		t.Fatalf("%d requests, want the cue round and the answer round", len(fake.requests))
	}
	first := fake.requests[0]
	if first["model"] != "m" || first["stream"] != true {
		t.Fatalf("request model/stream = %v/%v", first["model"], first["stream"])
	}
	msgs := first["messages"].([]any)
	user, _ := json.Marshal(msgs[len(msgs)-1])
	if !strings.Contains(string(user), "trigger: user message") || !strings.Contains(string(user), "hi there") {
		t.Fatalf("user message = %s", user)
	}
	tools, _ := json.Marshal(first["tools"])
	if !strings.Contains(string(tools), "generate_express") {
		t.Fatalf("tools[] = %s", tools)
	}
}
