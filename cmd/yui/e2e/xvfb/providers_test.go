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

// fakeProviders is a Chat Completions server that answers each turn in
// the stream shape of the provider the user's words name, as each provider
// documents it, and lists two models.
type fakeProviders struct {
	mu       sync.Mutex
	requests []map[string]any
}

func (f *fakeProviders) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/models":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"first-model","object":"model","created":1,"owned_by":"me"},{"id":"second-model","object":"model","created":1,"owned_by":"me"}]}`)
		return
	case "/v1/chat/completions":
	default:
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.mu.Unlock()
	msgs, _ := req["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	var user string
	for _, m := range msgs {
		if mm, _ := m.(map[string]any); mm["role"] == "user" {
			user, _ = mm["content"].(string)
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(delta string, finish string) {
		fin := "null"
		if finish != "" {
			fin = `"` + finish + `"`
		}
		fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"first-model\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, fin)
		w.(http.Flusher).Flush()
	}
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	switch {
	case strings.Contains(user, "mistral"):
		// Magistral: content as a list of thinking and text parts.
		send(`{"role":"assistant","content":""}`, "")
		send(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"The user names Mistral."}]}]}`, "")
		send(`{"content":[{"type":"text","text":"Bonjour from "}]}`, "")
		send(`{"content":[{"type":"text","text":"Mistral."}]}`, "")
		send(`{"content":""}`, "stop")
	case strings.Contains(user, "deepseek") && last["role"] != "tool":
		// DeepSeek thinking mode: reasoning_content, then a tool call.
		send(`{"role":"assistant","content":null,"reasoning_content":"Look happy first."}`, "")
		send(`{"tool_calls":[{"index":0,"id":"call_0_ds","type":"function","function":{"name":"generate_express","arguments":"{\"emotion_id\":\"happy\"}"}}]}`, "")
		send(`{}`, "tool_calls")
	case strings.Contains(user, "deepseek"):
		// The follow-up: refused as DeepSeek refuses it when the assistant
		// message that made the call lacks its reasoning_content.
		var kept bool
		for _, m := range msgs {
			if mm, _ := m.(map[string]any); mm["role"] == "assistant" && mm["tool_calls"] != nil {
				kept = mm["reasoning_content"] == "Look happy first."
			}
		}
		if !kept {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"Missing reasoning_content field in the assistant message","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`)
			return
		}
		send(`{"reasoning_content":"Now answer."}`, "")
		send(`{"content":"DeepSeek answered."}`, "")
		send(`{"content":""}`, "stop")
	case strings.Contains(user, "refuse"):
		send(`{"role":"assistant","content":null,"refusal":""}`, "")
		send(`{"refusal":"I can't help "}`, "")
		send(`{"refusal":"with that."}`, "")
		send(`{}`, "stop")
	case strings.Contains(user, "qwen"):
		// A local model without a reasoning parser: <think> inline, tags
		// split across chunks.
		for _, p := range []string{"<th", "ink>\nThe user names Qwen.\n</th", "ink>\n\nQwen says ", "hello."} {
			send(`{"content":`+str(p)+`}`, "")
		}
		send(`{}`, "stop")
	default:
		send(`{"content":"Fine."}`, "stop")
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// Each provider's stream shape, end to end through the real binary with no
// --model: the reply is spoken, the reasoning is shown, nothing is dropped
// as malformed, DeepSeek's follow-up carries reasoning_content, a refusal
// is spoken, and every request sends the first model the server lists.
func TestProviderShapesOverChatCompletions(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	fake := &fakeProviders{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: fake}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + l.Addr().String() + "/v1"

	a := startYui(t, d, "", "--chat-api", "chat_completions", "--chat-base-url", base)
	a.WaitRecord(20*time.Second, "model_auto", map[string]string{"model": "first-model"})
	cases := []struct {
		say, speech, reasoning string
	}{
		{"hello mistral", "Bonjour from Mistral.", "The user names Mistral."},
		{"hello deepseek", "DeepSeek answered.", "Look happy first.Now answer."},
		{"please refuse", "I can't help with that.", ""},
		{"hello qwen", "Qwen says hello.", "The user names Qwen."},
	}
	for i, c := range cases {
		a.Talk(c.say)
		harness.WaitFor(t, 20*time.Second, "turn record "+c.say, func() bool { return a.Count("turn", map[string]string{"spoke_text": "false"}) > i })
		var id string
		n := 0
		for _, r := range a.Log() {
			if r.Str("msg") == "turn" && fmt.Sprint(r["spoke_text"]) == "false" {
				if n == i {
					id = r.Str("turn_id")
				}
				n++
			}
		}
		a.WaitRecord(20*time.Second, "speech", map[string]string{"turn_id": id, "kind": "reply", "text": c.speech})
		if c.reasoning != "" {
			r := a.WaitRecord(10*time.Second, "reasoning", map[string]string{"turn_id": id})
			if got := strings.TrimSpace(r.Str("text")); got != c.reasoning {
				t.Errorf("%s: reasoning %q, want %q", c.say, got, c.reasoning)
			}
		}
		for _, r := range a.Log() {
			if r.Str("msg") == "speech" && r.Str("turn_id") == id && strings.Contains(r.Str("text"), "user names") {
				t.Errorf("%s: reasoning spoken: %v", c.say, r)
			}
		}
		if c.say == "please refuse" {
			a.WaitRecord(5*time.Second, "refusal", map[string]string{"turn_id": id, "text": c.speech})
		}
	}
	d.WaitShot(t, "providers-last-reply", 10*time.Second, harness.BubbleCheck(a.PetRect()))
	for _, m := range []string{"stream_malformed", "request_error", "model_auto_failed"} {
		if n := a.Count(m, nil); n > 0 {
			t.Errorf("%d %s records", n, m)
		}
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.requests) != 5 {
		t.Errorf("%d requests, want 5 (DeepSeek's turn takes two)", len(fake.requests))
	}
	for i, r := range fake.requests {
		if r["model"] != "first-model" {
			t.Errorf("request %d model %v, want the first listed", i, r["model"])
		}
	}
}

// fakeResponses answers in the Responses stream shape: a refusal, then an
// error event with OpenAI's nested error object.
type fakeResponses struct{}

func (fakeResponses) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/responses" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(typ, rest string) {
		fmt.Fprintf(w, "event: %s\ndata: {\"type\":%q,%s}\n\n", typ, typ, rest)
		w.(http.Flusher).Flush()
	}
	ev("response.created", `"sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}`)
	if strings.Contains(string(body), "refuse") {
		ev("response.output_item.added", `"output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}`)
		ev("response.content_part.added", `"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"refusal","refusal":""}`)
		ev("response.refusal.delta", `"item_id":"msg_1","output_index":0,"content_index":0,"delta":"I'm sorry, I can't "`)
		ev("response.refusal.delta", `"item_id":"msg_1","output_index":0,"content_index":0,"delta":"assist with that."`)
		ev("response.refusal.done", `"item_id":"msg_1","output_index":0,"content_index":0,"refusal":"I'm sorry, I can't assist with that."`)
		ev("response.output_item.done", `"output_index":0,"item":{"id":"msg_1","type":"message","status":"completed"}`)
		ev("response.completed", `"response":{"id":"resp_1","object":"response","status":"completed","usage":{"input_tokens":10,"output_tokens":9,"total_tokens":19}}`)
		return
	}
	ev("error", `"sequence_number":1,"error":{"type":"invalid_request_error","code":"context_length_exceeded","message":"Your input exceeds the context window of this model.","param":"input"}`)
}

// Over the Responses API a refusal is spoken, and an error event's message
// and code reach the log line while the turn fails with the generic text.
func TestRefusalAndErrorEventOverResponses(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: fakeResponses{}}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + l.Addr().String() + "/v1"

	a := startYui(t, d, "", "--chat-api", "responses", "--chat-base-url", base, "--model", "gpt-5")
	a.Talk("please refuse")
	turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	id := turn.Str("turn_id")
	a.WaitRecord(20*time.Second, "speech", map[string]string{"turn_id": id, "kind": "reply", "text": "I'm sorry, I can't assist with that."})
	a.WaitRecord(5*time.Second, "refusal", map[string]string{"turn_id": id})
	d.WaitShot(t, "responses-refusal", 10*time.Second, harness.BubbleCheck(a.PetRect()))

	a.Talk("now fail")
	r := a.WaitRecord(20*time.Second, "request_error", map[string]string{"kind": "error", "code": "context_length_exceeded"})
	if !strings.Contains(r.Str("err"), "Your input exceeds the context window of this model.") {
		t.Errorf("request_error err %q lacks the server's message", r.Str("err"))
	}
	if n := a.Count("stream_malformed", nil); n > 0 {
		t.Errorf("%d stream_malformed records", n)
	}
}

// With no --model, a request transport sends the first model the server
// lists at GET /models, and names it in the log.
func TestEmptyModelUsesFirstListed(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	fake := &fakeProviders{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: fake}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })

	a := startYui(t, d, "", "--chat-api", "chat_completions", "--chat-base-url", "http://"+l.Addr().String()+"/v1")
	a.WaitRecord(20*time.Second, "model_auto", map[string]string{"model": "first-model"})
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"conn": "ready · model first-model"})
	a.Talk("how are you")
	turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	a.WaitRecord(20*time.Second, "speech", map[string]string{"turn_id": turn.Str("turn_id"), "kind": "reply", "text": "Fine."})
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.requests) != 1 || fake.requests[0]["model"] != "first-model" {
		t.Fatalf("requests %v, want one with model first-model", fake.requests)
	}
}
