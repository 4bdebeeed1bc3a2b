package aec

import "testing"

// A tracked move the delay line cannot hold in full is applied as far as
// it goes, and the tracker hears where that leaves the path.
func TestTrackedMoveClampedAtTheLineEnd(t *testing.T) {
	for _, tc := range []struct {
		name            string
		delay, move     int
		wantDelay, want int // the delay applied, where the path is then
	}{
		{"fits", 1000, 40, 1040, 300},
		{"past the end", -1, 50, -1, 350}, // delay: the line's last place
		{"before the start", 10, -40, 0, 270},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New(Config{})
			end := len(c.line) - 2*Block
			if tc.delay < 0 {
				tc.delay, tc.wantDelay = end, end
			}
			c.delay = tc.delay
			c.tr.ref = 300 // where the tracker learned the path
			c.moveBy(tc.move)
			if c.delay != tc.wantDelay {
				t.Fatalf("delay %d, want %d", c.delay, tc.wantDelay)
			}
			if c.tr.ref != tc.want {
				t.Fatalf("the tracker keeps the path at %d, want %d", c.tr.ref, tc.want)
			}
		})
	}
}
