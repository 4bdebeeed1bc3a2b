package petwindow

import (
	"image"
	"testing"
)

func TestLerpEndsOnTheTargetInEveryDirection(t *testing.T) {
	from := image.Pt(980, 363)
	for _, to := range []image.Point{{120, 363}, {1200, 100}, {-40, 900}, {980, 363}} {
		if got := lerp(from, to, 1); got != to {
			t.Errorf("lerp(%v, %v, 1) = %v", from, to, got)
		}
		if got := lerp(from, to, 0); got != from {
			t.Errorf("lerp(%v, %v, 0) = %v", from, to, got)
		}
	}
	if got := lerp(image.Pt(0, 0), image.Pt(-10, 10), 0.5); got != image.Pt(-5, 5) {
		t.Errorf("half way = %v, want (-5,5)", got)
	}
}
