//go:build e2e

package xvfb

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/request/requesttest"
)

func TestTypedTurnOverChatCompletions(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv := requesttest.Start(t, requesttest.CueThenReply)
	base := srv.URL + "/v1"

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

	reqs := srv.RequestsTo("/v1/chat/completions")
	if len(reqs) < 2 {
		t.Fatalf("%d requests, want the cue round and the answer round", len(reqs))
	}
	first := reqs[0].Body
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
