package voice

import (
	"testing"
	"time"
)

// The echo floor reads the reference where its echo arrives: the
// loudest block that ended within the span, newest block at zero.
func TestRefLevelsLoudest(t *testing.T) {
	var r refLevels
	const b = 20 * time.Millisecond
	for _, ms := range []float64{0.5, 0.1, 0.2, 0.01, 0.02} { // oldest first
		r.add(ms, b)
	}
	cases := []struct {
		from, to time.Duration
		want     float64
	}{
		{0, 0, 0.02},    // the newest block alone
		{0, b, 0.02},    // the newest two
		{b, 3 * b, 0.2}, // 20 to 60 ms ago
		{3 * b, 5 * b, 0.5},
		{10 * b, 20 * b, 0}, // before anything was recorded
	}
	for _, c := range cases {
		if got := r.loudest(c.from, c.to); got != c.want {
			t.Errorf("loudest(%v, %v) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}
