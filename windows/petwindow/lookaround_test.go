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
// every stillEvery-th reading, for the look-around; a failed reading, and
// the first good one after it, are passed on.
func TestPointerThrottle(t *testing.T) {
	a, b := image.Pt(10, 10), image.Pt(11, 10)
	steps := []struct {
		p    image.Point
		ok   bool
		want bool
	}{
		{a, true, true},   // the first reading
		{a, true, false},  // still
		{a, true, false},  // still
		{a, true, true},   // the third: a tick for the look-around
		{a, true, false},  // still
		{b, true, true},   // moved
		{b, false, true},  // the reading failed
		{b, false, false}, // still failing
		{b, true, true},   // back
	}
	var th pointerThrottle
	for i, s := range steps {
		if got := th.pass(s.p, s.ok); got != s.want {
			t.Errorf("reading %d (%v, %v): passed %v, want %v", i, s.p, s.ok, got, s.want)
		}
	}
}
