package petwindow

import (
	"image"
	"testing"
)

func TestRiseFor(t *testing.T) {
	mons := []image.Rectangle{image.Rect(0, 0, 1920, 1080), image.Rect(1920, 0, 3200, 720)}
	body := image.Rect(84, 150, 276, 406) // the character in a 360-wide window
	for _, c := range []struct {
		p    image.Point
		want int
	}{
		{image.Pt(500, 300), 0},    // room above: no rise
		{image.Pt(500, -94), 94},   // the window's top 94 px above the monitor's
		{image.Pt(500, -150), 150}, // the character at the top edge: the whole bubble room
		{image.Pt(500, -300), 150}, // higher still: at most the bubble room
		{image.Pt(2200, -40), 40},  // on the second monitor
		{image.Pt(5000, -40), 0},   // on no monitor
	} {
		if got := riseFor(c.p, body, mons, 150); got != c.want {
			t.Errorf("riseFor(%v) = %d, want %d", c.p, got, c.want)
		}
	}
}

func TestUpTriangleRects(t *testing.T) {
	r := image.Rect(10, 20, 32, 33)
	down, up := triangleRects(r), upTriangleRects(r)
	if len(up) != len(down) || len(up) == 0 {
		t.Fatalf("%d rows up, %d down", len(up), len(down))
	}
	// The widest row is at the bottom, the apex at the top.
	if up[0].Min.Y != r.Max.Y-1 || up[0].Dx() != down[0].Dx() || up[len(up)-1].Min.Y != r.Min.Y || up[len(up)-1].Dx() > 2 {
		t.Fatalf("up %v", up)
	}
}
