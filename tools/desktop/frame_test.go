package desktop

import (
	"errors"
	"image"
	"testing"
)

func TestFrameOf(t *testing.T) {
	// Windows 10: the window rectangle holds the invisible borders, the
	// DWM bounds do not.
	withBorders := image.Rect(93, 100, 707, 507)
	visible := image.Rect(100, 100, 700, 500)
	for _, c := range []struct {
		name string
		dwm  image.Rectangle
		err  error
		want image.Rectangle
	}{
		{"DWM bounds", visible, nil, visible},
		{"no DWM composition", image.Rectangle{}, errors.New("E_NOTIMPL"), withBorders},
		{"an empty DWM answer", image.Rectangle{}, nil, withBorders},
	} {
		if got := frameOf(c.dwm, c.err, withBorders); got != c.want {
			t.Errorf("%s: frame %v, want %v", c.name, got, c.want)
		}
	}
}
