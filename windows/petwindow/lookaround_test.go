package petwindow

import (
	"image"
	"testing"
	"time"

	"yui/pet/character"
)

func TestLookAroundGlancesLeftThenRight(t *testing.T) {
	var l lookAround
	t0 := time.Unix(1_700_000_000, 0)
	pause := func() time.Duration { return 10 * time.Second }
	for _, c := range []struct {
		after time.Duration
		want  string
	}{
		{0, ""},
		{9 * time.Second, ""},
		{10 * time.Second, character.GazeLeft},
		{10*time.Second + lookGlance - 1, character.GazeLeft},
		{10*time.Second + lookGlance, character.GazeRight},
		{10*time.Second + 2*lookGlance, ""},
		{19 * time.Second, ""},
		{10*time.Second + 2*lookGlance + 10*time.Second, character.GazeLeft},
	} {
		if got := l.at(t0.Add(c.after), pause); got != c.want {
			t.Fatalf("after %v: %q, want %q", c.after, got, c.want)
		}
	}
	l.reset(t0.Add(time.Minute), pause)
	if got := l.at(t0.Add(time.Minute+time.Second), pause); got != "" {
		t.Fatalf("after a reset: %q", got)
	}
}

// A pointer that moves is passed on at once; one that stays is passed on
// once stillTick has gone by since the last reading passed on, for the
// look-around, at the fast pace (every third reading) and the slow one
// (each); a failed reading, and the first good one after it, are passed on.
func TestPointerThrottle(t *testing.T) {
	a, b := image.Pt(10, 10), image.Pt(11, 10)
	const fast, slow = 150 * time.Millisecond, 450 * time.Millisecond
	steps := []struct {
		after time.Duration // since the reading before
		p     image.Point
		ok    bool
		want  bool
	}{
		{0, a, true, true},      // the first reading
		{fast, a, true, false},  // still
		{fast, a, true, false},  // still
		{fast, a, true, true},   // the third: a tick for the look-around
		{fast, a, true, false},  // still
		{fast, b, true, true},   // moved
		{fast, b, false, true},  // the reading failed
		{fast, b, false, false}, // still failing
		{fast, b, true, true},   // back
		{slow, b, true, true},   // the poller slowed down: each still reading
		{slow, b, true, true},
		{fast, b, true, false},
	}
	var th pointerThrottle
	now := time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC)
	for i, s := range steps {
		now = now.Add(s.after)
		if got := th.pass(s.p, s.ok, now); got != s.want {
			t.Errorf("reading %d (%v, %v): passed %v, want %v", i, s.p, s.ok, got, s.want)
		}
	}
}
