package xconn

import (
	"testing"
	"time"
)

// The poller reads a moving pointer every period, slows down to one
// reading in three once it has stood still for seven readings, and is
// back at full pace with the first reading that sees a move.
func TestPointerPace(t *testing.T) {
	const every = 150 * time.Millisecond
	steps := []struct {
		moved bool
		want  time.Duration
	}{
		{true, every},
		{false, every}, {false, every}, {false, every},
		{false, every}, {false, every}, {false, every},
		{false, 3 * every}, // the seventh still reading
		{false, 3 * every},
		{true, every}, // moved: full pace at once
		{false, every},
	}
	p := pointerPace{every: every}
	for i, s := range steps {
		if got := p.next(s.moved); got != s.want {
			t.Errorf("reading %d (moved %v): wait %v, want %v", i, s.moved, got, s.want)
		}
	}
}
