//go:build e2e

package xvfb

import (
	"image"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/request/requesttest"
)

// TestRateLimitIsWaitedOut: a Chat Completions server that answers the
// first request with 429 and Retry-After: 4 gets it again after the wait;
// meanwhile the pill says "rate limited: retrying in N s", and the reply is
// then spoken.
func TestRateLimitIsWaitedOut(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	var n atomic.Int32
	srv := requesttest.Start(t, func(w *requesttest.Writer, r *http.Request, i int) {
		if r.URL.Path == "/v1/chat/completions" && n.Add(1) == 1 {
			w.Header().Set("Retry-After", "4")
			w.Error(http.StatusTooManyRequests, `{"error":{"message":"Rate limit reached for requests","code":"rate_limit_exceeded"}}`)
			return
		}
		requesttest.CueThenReply(w, r, i)
	})
	base := srv.URL + "/v1"

	a := startYui(t, d, "", "--chat-api", "chat_completions", "--chat-base-url", base, "--model", "m")
	a.PetRect()
	a.Talk("hi there")
	turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	id := turn.Str("turn_id")
	a.WaitRecord(20*time.Second, "pet_pill", map[string]string{"conn": "rate limited: retrying in 4 s"})
	d.WaitShot(t, "rate-limited", 5*time.Second, func(image.Image) error { return nil })
	// The pill logs state changes, not each second of the countdown
	// (pet: TestPillConnectionText has the text).
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"state": "ready"})
	a.WaitRecord(20*time.Second, "speech", map[string]string{"turn_id": id, "kind": "reply", "text": "Hello from the model server."})
	if got := n.Load(); got < 2 {
		t.Fatalf("%d requests: the limited one was not sent again", got)
	}
}
