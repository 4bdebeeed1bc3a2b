package app

import (
	"sync/atomic"
	"testing"
	"time"

	"yui/transport/clock/clocktest"
)

func TestIdleReleaseWaitsForQuiet(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	var freed atomic.Int32
	r := newIdleRelease(clk, 5*time.Second, func() { freed.Add(1) })
	defer r.close()
	for range 100 { // a burst: one timer
		r.poke()
	}
	if n := clk.Pending(); n != 1 {
		t.Fatalf("%d timers armed by a burst, want 1", n)
	}
	clk.Advance(3 * time.Second)
	r.poke() // more activity: the quiet starts again
	clk.Advance(2 * time.Second)
	if freed.Load() != 0 {
		t.Fatal("freed 2 s after the last activity")
	}
	clk.Advance(3 * time.Second)
	if freed.Load() != 1 {
		t.Fatalf("freed %d times 5 s after the last activity, want 1", freed.Load())
	}
	clk.Advance(time.Minute)
	if freed.Load() != 1 || clk.Pending() != 0 {
		t.Fatalf("freed %d times and %d timers with no new activity", freed.Load(), clk.Pending())
	}
	r.poke()
	clk.Advance(5 * time.Second)
	if freed.Load() != 2 {
		t.Fatalf("freed %d times after a second burst, want 2", freed.Load())
	}
}

func TestIdleReleaseClosed(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	var freed atomic.Int32
	r := newIdleRelease(clk, 5*time.Second, func() { freed.Add(1) })
	r.poke()
	r.close()
	r.poke()
	clk.Advance(time.Minute)
	if freed.Load() != 0 || clk.Pending() != 0 {
		t.Fatalf("freed %d times, %d timers after close", freed.Load(), clk.Pending())
	}
}
