//go:build e2e

package xvfb

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/request/requesttest"
)

// Each provider's stream shape, end to end through the real binary with no
// --model: the reply is spoken, the reasoning is shown, nothing is dropped
// as malformed, DeepSeek's follow-up carries reasoning_content, a refusal
// is spoken, and every request sends the first model the server lists.
func TestProviderShapesOverChatCompletions(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv := requesttest.Start(t, requesttest.Providers)
	base := srv.URL + "/v1"

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
	reqs := srv.RequestsTo("/v1/chat/completions")
	if len(reqs) != 5 {
		t.Errorf("%d requests, want 5 (DeepSeek's turn takes two)", len(reqs))
	}
	for i, r := range reqs {
		if r.Body["model"] != "first-model" {
			t.Errorf("request %d model %v, want the first listed", i, r.Body["model"])
		}
	}
}

// Over the Responses API a refusal is spoken, and an error event's message
// and code reach the log line while the turn fails with the generic text.
func TestRefusalAndErrorEventOverResponses(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv := requesttest.Start(t, requesttest.ResponsesRefusal)
	base := srv.URL + "/v1"

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
	srv := requesttest.Start(t, requesttest.Providers)

	a := startYui(t, d, "", "--chat-api", "chat_completions", "--chat-base-url", srv.URL+"/v1")
	a.WaitRecord(20*time.Second, "model_auto", map[string]string{"model": "first-model"})
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"conn": "ready · model first-model"})
	a.Talk("how are you")
	turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	a.WaitRecord(20*time.Second, "speech", map[string]string{"turn_id": turn.Str("turn_id"), "kind": "reply", "text": "Fine."})
	reqs := srv.RequestsTo("/v1/chat/completions")
	if len(reqs) != 1 || reqs[0].Body["model"] != "first-model" {
		t.Fatalf("requests %v, want one with model first-model", reqs)
	}
}
