package app

import (
	"sync"
	"time"

	"yui/transport/clock"
)

// releaseAfter is how long the pets stay quiet after activity before the
// memory the activity left behind goes back to the operating system.
const releaseAfter = 5 * time.Second

// idleRelease gives memory back to the operating system once the pets
// have been quiet for a while after activity. A burst of turns leaves heap
// pages the garbage collector freed but Go's scavenger returns only over
// minutes; a pet lives for days, mostly idle, and should hold what an idle
// pet needs. One timer at most is armed however busy the pets are.
type idleRelease struct {
	clk   clock.Clock
	after time.Duration
	free  func() // debug.FreeOSMemory and a log line, outside the lock

	mu     sync.Mutex
	last   time.Time // the latest activity
	timer  clock.Timer
	closed bool
}

func newIdleRelease(clk clock.Clock, after time.Duration, free func()) *idleRelease {
	return &idleRelease{clk: clk, after: after, free: free}
}

// poke notes activity: free runs once after's quiet follows it. A nil
// idleRelease does nothing (tests that build a bare app).
func (r *idleRelease) poke() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.last = r.clk.Now()
	if r.timer == nil {
		r.timer = r.clk.AfterFunc(r.after, r.fire)
	}
}

// fire frees when the quiet lasted, or waits out the rest of it.
func (r *idleRelease) fire() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	if wait := r.after - r.clk.Now().Sub(r.last); wait > 0 {
		r.timer = r.clk.AfterFunc(wait, r.fire)
		r.mu.Unlock()
		return
	}
	r.timer = nil
	r.mu.Unlock()
	r.free()
}

// close stops the timer; poke does nothing after it.
func (r *idleRelease) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
}
