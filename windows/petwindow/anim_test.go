package petwindow

import (
	"slices"
	"testing"
	"time"
)

// manualClock is a scheduler a test advances by hand.
type manualClock struct {
	now     time.Duration
	entries []*manualEntry
	wakes   int // callbacks run: the window's wake-ups
}

type manualEntry struct {
	at   time.Duration
	fn   func()
	dead bool
}

func (c *manualClock) after(d time.Duration, fn func()) func() {
	e := &manualEntry{at: c.now + d, fn: fn}
	c.entries = append(c.entries, e)
	return func() { e.dead = true }
}

// advance runs every callback due up to now+d, in time order.
func (c *manualClock) advance(d time.Duration) {
	end := c.now + d
	for {
		var next *manualEntry
		for _, e := range c.entries {
			if !e.dead && e.at <= end && (next == nil || e.at < next.at) {
				next = e
			}
		}
		if next == nil {
			break
		}
		next.dead = true
		c.now = next.at
		c.wakes++
		next.fn()
	}
	c.now = end
}

func (c *manualClock) armed() int {
	n := 0
	for _, e := range c.entries {
		if !e.dead {
			n++
		}
	}
	return n
}

type frameLog struct{ prepared, shown []int }

func newTestAnimator() (*animator, *manualClock, *frameLog) {
	c := &manualClock{}
	l := &frameLog{}
	a := newAnimator(c, func(i int) { l.prepared = append(l.prepared, i) }, func(i int) { l.shown = append(l.shown, i) })
	return a, c, l
}

// TestAnimatorWakesOnlyForFrames: an idle cycle of 8 frames at 4 fps wakes
// the window twice per frame change (the shape, then the frame), eight
// times a second, not at the display's rate; each frame is prepared
// before it shows.
func TestAnimatorWakesOnlyForFrames(t *testing.T) {
	a, c, l := newTestAnimator()
	a.play(8, 4, true)
	c.advance(2*time.Second + prepareLead)
	if want := []int{1, 2, 3, 4, 5, 6, 7, 0}; !slices.Equal(l.shown, want) {
		t.Fatalf("shown %v, want %v", l.shown, want)
	}
	if !slices.Equal(l.prepared, l.shown) {
		t.Fatalf("prepared %v, shown %v", l.prepared, l.shown)
	}
	if c.wakes != 16 {
		t.Fatalf("%d wake-ups in 2 s, want 16", c.wakes)
	}
}

// TestAnimatorPaceAndPause: a slowed idle cycle changes frame at a third
// of the rate; a paused (hidden) one arms nothing; resumed, it goes on.
func TestAnimatorPaceAndPause(t *testing.T) {
	a, c, l := newTestAnimator()
	a.play(8, 4, true)
	a.setPace(3)
	c.advance(3*time.Second + prepareLead)
	if len(l.shown) != 4 {
		t.Fatalf("%d frames in 3 s at a third of 4 fps: %v", len(l.shown), l.shown)
	}
	a.setPaused(true)
	if c.armed() != 0 {
		t.Fatalf("%d callbacks armed while paused", c.armed())
	}
	c.advance(10 * time.Second)
	n := len(l.shown)
	if n != 4 {
		t.Fatalf("frames changed while paused: %v", l.shown)
	}
	a.setPaused(false)
	a.setPace(1)
	c.advance(time.Second + prepareLead)
	if len(l.shown) != n+4 {
		t.Fatalf("after resuming: %v", l.shown)
	}
}

// TestAnimatorOnceStopsOnTheLastFrame: a motion that does not loop stops
// on its last frame and arms nothing more.
func TestAnimatorOnceStopsOnTheLastFrame(t *testing.T) {
	a, c, l := newTestAnimator()
	a.play(3, 10, false)
	c.advance(2 * time.Second)
	if !slices.Equal(l.shown, []int{1, 2}) || a.running() || c.armed() != 0 {
		t.Fatalf("shown %v, running %v, armed %d", l.shown, a.running(), c.armed())
	}
}

// TestAnimatorLipSync: with a mouth picker the frame follows the audio
// between clock-paced changes.
func TestAnimatorLipSync(t *testing.T) {
	a, c, l := newTestAnimator()
	mouth, ok := 2, true
	a.pick = func() (int, bool) { return mouth, ok }
	a.play(4, 8, true)
	c.advance(200 * time.Millisecond)
	if len(l.shown) == 0 || l.shown[len(l.shown)-1] != 2 {
		t.Fatalf("mouth frames %v, want 2 shown", l.shown)
	}
	ok = false
	c.advance(time.Second)
	if len(l.shown) < 5 {
		t.Fatalf("no clock-paced frames after the audio: %v", l.shown)
	}
}

// TestFrameClockRunsDueCallbacksTogether: callbacks due at the same grain
// run in one hand-off, in the order they were asked for; a cancelled one
// does not run.
func TestFrameClockRunsDueCallbacksTogether(t *testing.T) {
	batches := make(chan func(), 4)
	c := &FrameClock{now: time.Now, do: func(f func()) { batches <- f }}
	defer c.Close()
	var got []string
	c.after(time.Millisecond, func() { got = append(got, "a") })
	cancel := c.after(time.Millisecond, func() { got = append(got, "x") })
	c.after(2*time.Millisecond, func() { got = append(got, "b") })
	cancel()
	(<-batches)()
	for len(got) < 2 {
		(<-batches)()
	}
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("ran %v", got)
	}
	if c.pending() != 0 {
		t.Fatalf("%d still pending", c.pending())
	}
}
