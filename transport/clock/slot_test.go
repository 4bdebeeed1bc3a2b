package clock_test

import (
	"testing"
	"time"

	"yui/transport/clock"
	"yui/transport/clock/clocktest"
)

func TestSlotReplaceAndStop(t *testing.T) {
	c := clocktest.NewFake(time.Unix(0, 0))
	var s clock.Slot
	var fired []int
	fire := func(tag int) func(int) {
		return func(gen int) {
			if s.Current(gen) {
				fired = append(fired, tag)
			}
		}
	}
	s.Arm(c, time.Second, fire(1))
	s.Arm(c, 2*time.Second, fire(2)) // replaces the first
	c.Advance(3 * time.Second)
	if len(fired) != 1 || fired[0] != 2 {
		t.Fatalf("fired %v, want [2]", fired)
	}
	s.Arm(c, time.Second, fire(3))
	s.Stop()
	c.Advance(2 * time.Second)
	if len(fired) != 1 {
		t.Fatalf("a stopped timer acted: %v", fired)
	}
}

func TestSlotStaleCallSeesItselfReplaced(t *testing.T) {
	c := clocktest.NewFake(time.Unix(0, 0))
	var s clock.Slot
	var stale func()
	// A real timer can fire just before the owner replaces it; model
	// that by keeping the call and running it after the replacement.
	s.Arm(c, time.Second, func(gen int) {
		stale = func() {
			if s.Current(gen) {
				t.Error("a replaced timer acted")
			}
		}
	})
	c.Advance(time.Second)
	s.Arm(c, time.Second, func(int) {})
	stale()
}
