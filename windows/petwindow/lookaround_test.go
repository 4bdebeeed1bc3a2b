package petwindow

import (
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
