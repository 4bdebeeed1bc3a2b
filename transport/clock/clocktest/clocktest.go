// Package clocktest is the manual clock of tests, beside the package it
// fakes (transport/clock) so that no shipped program links it.
package clocktest

import (
	"sort"
	"sync"
	"time"

	"yui/transport/clock"
)

// Fake is a manual clock for tests. Timers fire, in deadline order, inside
// Advance, on the goroutine that calls Advance.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	seq    int
	timers []*fakeTimer
	added  chan struct{}
}

// NewFake returns a fake clock reading t.
func NewFake(t time.Time) *Fake {
	return &Fake{now: t, added: make(chan struct{}, 1)}
}

type fakeTimer struct {
	c    *Fake
	at   time.Time
	seq  int
	f    func()
	done bool
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.done {
		return false
	}
	t.done = true
	t.c.remove(t)
	return true
}

// Now returns the fake time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d. A d <= 0 fires on the next Advance (even Advance(0)).
func (c *Fake) AfterFunc(d time.Duration, f func()) clock.Timer {
	c.mu.Lock()
	c.seq++
	t := &fakeTimer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	select {
	case c.added <- struct{}{}:
	default:
	}
	return t
}

func (c *Fake) remove(t *fakeTimer) {
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			return
		}
	}
}

// Advance moves the clock forward by d, firing every timer that falls due,
// in deadline order, with Now() reading each timer's deadline as it fires.
// A timer's function may advance the clock itself (the code under test
// taking time): the clock then never moves back to this call's end, so
// both advances count. Ending on this call's end alone lost the other's
// when the two overlapped (pet/voice's TestFileKeepsTimeWhileBlocksAreHandedOn
// under -race: block 2 never fell due).
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		sort.SliceStable(c.timers, func(i, j int) bool {
			if c.timers[i].at.Equal(c.timers[j].at) {
				return c.timers[i].seq < c.timers[j].seq
			}
			return c.timers[i].at.Before(c.timers[j].at)
		})
		if len(c.timers) == 0 || c.timers[0].at.After(end) {
			if end.After(c.now) {
				c.now = end
			}
			c.mu.Unlock()
			return
		}
		t := c.timers[0]
		c.timers = c.timers[1:]
		t.done = true
		if t.at.After(c.now) {
			c.now = t.at
		}
		c.mu.Unlock()
		t.f()
	}
}

// Pending reports how many timers are scheduled and not yet fired or stopped.
func (c *Fake) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Armed reports how many timers were ever scheduled: a test that waits
// for a timer to be re-armed (stopped and scheduled again) waits for this
// count rather than for Pending, which a re-arm leaves unchanged.
func (c *Fake) Armed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// WaitArmed blocks until at least n timers were ever scheduled or the
// real-time limit passes; it reports whether n were reached.
func (c *Fake) WaitArmed(n int, limit time.Duration) bool {
	return c.waitFor(func() bool { return c.Armed() >= n }, limit)
}

// WaitPending blocks until at least n timers are scheduled or the real-time
// limit passes; it reports whether n were reached. Tests use it to wait for a
// goroutine under test to arm its timer before advancing.
func (c *Fake) WaitPending(n int, limit time.Duration) bool {
	return c.waitFor(func() bool { return c.Pending() >= n }, limit)
}

// waitFor polls cond each time a timer is scheduled, and at least every
// 10 ms, until it holds or limit passes.
func (c *Fake) waitFor(cond func() bool, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		if cond() {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		select {
		case <-c.added:
		case <-time.After(min(left, 10*time.Millisecond)):
		}
	}
}

var _ clock.Clock = (*Fake)(nil)
