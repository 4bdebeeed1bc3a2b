package pet

import (
	"slices"
	"testing"
	"time"

	"yui/pet/life"
	"yui/transport"
)

// gateFunc is a CheckInGate of a function.
type gateFunc func() bool

func (f gateFunc) AllowCheckIn() bool { return f() }

func TestCheckInGateHoldsTheCheckIn(t *testing.T) {
	allow := false
	e := newEnv(t, func(o *Options) {
		o.CheckIn = 10 * time.Minute
		o.CheckInGate = gateFunc(func() bool { return allow })
	})
	e.clock.Advance(10 * time.Minute)
	if calls := e.tr.takeCalls(); len(calls) != 0 {
		t.Fatalf("checked in past the cap: %v", calls)
	}
	allow = true
	e.clock.Advance(10 * time.Minute)
	if calls := e.tr.takeCalls(); !slices.Equal(calls, []string{"send check-in"}) {
		t.Fatalf("calls = %v, want a check-in", calls)
	}
}

func TestLifeGateAndTurn(t *testing.T) {
	e := newEnv(t, nil)
	e.ev(&transport.StateEvent{State: transport.StateReady})
	if r := e.c.LifeGate(); r != life.ReasonNone {
		t.Fatalf("idle and ready: %q", r)
	}
	e.c.SetVoiceStatus("listening")
	if r := e.c.LifeGate(); r != life.ReasonBusy {
		t.Fatalf("listening: %q", r)
	}
	e.c.SetVoiceStatus("")
	e.c.SetQuiet(true)
	if r := e.c.LifeGate(); r != life.ReasonHidden {
		t.Fatalf("do-not-disturb: %q", r)
	}
	e.c.SetQuiet(false)
	if !e.c.LifeTurn(life.Turn{Kind: life.KindSchedule, Trigger: `schedule "lunch"`}) {
		t.Fatal("LifeTurn refused")
	}
	if calls := e.tr.takeCalls(); !slices.Equal(calls, []string{`send schedule "lunch"`}) {
		t.Fatalf("calls = %v", calls)
	}
	if r := e.c.LifeGate(); r != life.ReasonBusy {
		t.Fatalf("a turn runs: %q", r)
	}
	e.ev(&transport.StateEvent{State: transport.StateOffline})
	e.c.Stop()
	e.tr.takeCalls()
	if r := e.c.LifeGate(); r != life.ReasonOffline {
		t.Fatalf("offline: %q", r)
	}
}
