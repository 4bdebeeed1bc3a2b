package pet

import (
	"slices"
	"testing"
	"time"

	"yui/transport"
)

func TestQuietHoldsTheGreetingUntilItEnds(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Greeting = true })
	e.c.SetQuiet(true)
	e.ev(&transport.StateEvent{State: transport.StateConnecting}, &transport.StateEvent{State: transport.StateReady})
	e.clock.Advance(0)
	if calls := e.tr.takeCalls(); len(calls) != 0 {
		t.Fatalf("greeted during do-not-disturb: %v", calls)
	}
	e.c.SetQuiet(false)
	e.clock.Advance(0)
	if calls := e.tr.takeCalls(); !slices.Equal(calls, []string{"send greeting"}) {
		t.Fatalf("calls after do-not-disturb = %v, want the greeting", calls)
	}
	e.c.SetQuiet(true)
	e.c.SetQuiet(false)
	e.clock.Advance(0)
	if calls := e.tr.takeCalls(); len(calls) != 0 {
		t.Fatalf("greeted twice: %v", calls)
	}
}

func TestQuietHoldsTheCheckIn(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.CheckIn = 10 * time.Minute })
	e.c.SetQuiet(true)
	e.clock.Advance(10 * time.Minute)
	e.clock.Advance(10 * time.Minute)
	if calls := e.tr.takeCalls(); len(calls) != 0 {
		t.Fatalf("checked in during do-not-disturb: %v", calls)
	}
	e.c.SetQuiet(false)
	e.clock.Advance(10 * time.Minute)
	if calls := e.tr.takeCalls(); !slices.Equal(calls, []string{"send check-in"}) {
		t.Fatalf("calls after do-not-disturb = %v, want a check-in", calls)
	}
}
