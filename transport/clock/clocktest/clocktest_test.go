package clocktest

import (
	"testing"
	"time"
)

func TestFakeFiresInDeadlineOrder(t *testing.T) {
	t0 := time.Date(2026, 9, 14, 15, 4, 14, 0, time.UTC)
	c := NewFake(t0)
	var got []string
	var at []time.Duration
	c.AfterFunc(3*time.Second, func() { got = append(got, "c"); at = append(at, c.Now().Sub(t0)) })
	c.AfterFunc(time.Second, func() {
		got = append(got, "a")
		at = append(at, c.Now().Sub(t0))
		c.AfterFunc(time.Second, func() { got = append(got, "b"); at = append(at, c.Now().Sub(t0)) })
	})
	stopped := c.AfterFunc(2*time.Second, func() { got = append(got, "stopped") })
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop should report true once")
	}
	c.Advance(10 * time.Second)
	if want := "abc"; joined(got) != want {
		t.Fatalf("fired %v, want %s", got, want)
	}
	if at[0] != time.Second || at[1] != 2*time.Second || at[2] != 3*time.Second {
		t.Fatalf("Now while firing = %v", at)
	}
	if c.Now().Sub(t0) != 10*time.Second || c.Pending() != 0 {
		t.Fatalf("after Advance: now %v, pending %d", c.Now().Sub(t0), c.Pending())
	}
}

func TestFakeWaitPending(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	go c.AfterFunc(time.Minute, func() {})
	if !c.WaitPending(1, 5*time.Second) {
		t.Fatal("timer armed by another goroutine not seen")
	}
	if c.WaitPending(2, 20*time.Millisecond) {
		t.Fatal("WaitPending reported a timer that does not exist")
	}
}

func TestFakeWaitArmedSeesReArm(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	first := c.AfterFunc(time.Minute, func() {})
	go func() {
		first.Stop()
		c.AfterFunc(time.Minute, func() {})
	}()
	if !c.WaitArmed(2, 5*time.Second) {
		t.Fatal("re-armed timer not seen")
	}
	if c.Pending() != 1 || c.Armed() != 2 {
		t.Fatalf("pending %d, armed %d; want 1 and 2", c.Pending(), c.Armed())
	}
	if c.WaitArmed(3, 20*time.Millisecond) {
		t.Fatal("WaitArmed reported a timer never armed")
	}
}

func joined(s []string) string {
	out := ""
	for _, x := range s {
		out += x
	}
	return out
}
