package desktop_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"yui/tools/desktop"
	"yui/transport/clock/clocktest"
)

// fakeIdle is the user's idle time, as the test sets it.
type fakeIdle struct {
	mu   sync.Mutex
	idle time.Duration
	err  error
}

func (f *fakeIdle) set(d time.Duration, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.idle, f.err = d, err
}

func (f *fakeIdle) UserIdle() (time.Duration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.idle, f.err
}

func TestAwayLeavesAndReturns(t *testing.T) {
	idle := &fakeIdle{}
	clk := clocktest.NewFake(time.Unix(1_700_000_000, 0))
	var log quietLog
	a := desktop.NewAway(idle, clk, 5*time.Minute, log.add)
	defer a.Close()
	step := func(what string, d time.Duration, err error, want []bool) {
		t.Helper()
		idle.set(d, err)
		clk.Advance(desktop.AwayPoll)
		got := log.list()
		if len(got) != len(want) {
			t.Fatalf("%s: changes %v, want %v", what, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: changes %v, want %v", what, got, want)
			}
		}
	}
	step("busy", 3*time.Second, nil, nil)
	step("idle a while", 4*time.Minute, nil, nil)
	step("idle long enough", 5*time.Minute, nil, []bool{true})
	step("still away", 9*time.Minute, nil, []bool{true})
	step("unreadable", 0, errors.New("gone"), []bool{true})
	step("back", 200*time.Millisecond, nil, []bool{true, false})
	if a.Away() {
		t.Fatal("Away after the user returned")
	}
	a.Close()
	if n := clk.Pending(); n != 0 {
		t.Fatalf("%d timers after Close", n)
	}
}
