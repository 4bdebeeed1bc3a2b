package audio

import (
	"testing"
	"time"

	"yui/transport/clock/clocktest"
)

// A device that never blocks pulls at once up to maxLead ahead, then in
// real time; one that falls behind (suspended, stalled) starts again at
// the clock without a backlog.
func TestLeadGuard(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	g := newLeadGuard(fc)
	const pull = Rate / 50 // 20 ms
	pulls := make(chan int, 20)
	go func() {
		for i := range 14 {
			g.wait(pull)
			pulls <- i
		}
	}()
	// Twelve pulls are 240 ms ahead; the 13th would be 260 ms ahead and
	// waits on the clock, with nothing more handed out.
	if !fc.WaitPending(1, 5*time.Second) {
		t.Fatal("the 13th pull did not wait")
	}
	if got := len(pulls); got != 12 {
		t.Fatalf("%d pulls before the first wait, want 12", got)
	}
	fc.Advance(20 * time.Millisecond)
	if !fc.WaitArmed(2, 5*time.Second) {
		t.Fatal("the 14th pull did not wait")
	}
	if got := len(pulls); got != 13 {
		t.Fatalf("%d pulls after 20 ms, want 13", got)
	}
	fc.Advance(20 * time.Millisecond)
	for want := range 14 {
		if got := recvWithin(t, pulls, "no pull"); got != want {
			t.Fatalf("pull %d came as %d", want, got)
		}
	}

	// A second of silence from the device: its next 12 pulls go at once.
	fc.Advance(time.Second)
	armed := fc.Armed()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 12 {
			g.wait(pull)
		}
	}()
	recvWithin(t, done, "after a gap the guard made the device wait for a backlog")
	if fc.Armed() != armed {
		t.Fatal("after a gap the guard made the device wait for a backlog")
	}
}
