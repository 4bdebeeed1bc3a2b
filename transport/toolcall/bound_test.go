package toolcall

import (
	"fmt"
	"testing"
)

// TestRunnerQueueIsBounded: a backend that floods the client with tool
// calls while one runs gets at most MaxQueued of them queued; the rest are
// dropped unanswered, and the queued ones still run in order.
func TestRunnerQueueIsBounded(t *testing.T) {
	g := newGate()
	r := newRunner(t, nil, g.handler)
	res := newResults()
	r.Submit(call("first", "t1", "body_action", `{"action":"hide"}`), res.reply(""))
	g.waitStart(t, "first")
	accepted := 0
	for i := range 10 * MaxQueued {
		if r.Submit(call(fmt.Sprint("c", i), "t1", "body_action", `{"action":"show"}`), res.reply("")) {
			accepted++
		}
	}
	if accepted != MaxQueued {
		t.Fatalf("accepted %d calls behind the running one, want %d", accepted, MaxQueued)
	}
	r.mu.Lock()
	n := len(r.queue)
	r.mu.Unlock()
	if n != MaxQueued {
		t.Fatalf("queue holds %d", n)
	}
	// At-once answers still come while the queue is full.
	r.Submit(call("x", "t1", "fly", `{}`), res.reply("x:"))
	if got := res.wait(t, 1); got[0] != "x:error: unknown tool" {
		t.Fatalf("reply %q", got[0])
	}
	g.release <- "ok"
	g.waitStart(t, "c0")
	for i := 1; i < MaxQueued; i++ {
		g.release <- "ok"
		g.waitStart(t, fmt.Sprint("c", i))
	}
	g.release <- "ok"
	res.wait(t, 2+MaxQueued)
}
