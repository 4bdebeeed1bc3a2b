//go:build (linux || freebsd || openbsd || netbsd) && !android

package look

import (
	"image"

	"github.com/kbinani/screenshot"
)

// captureOrigin is where screenshot's coordinates start in desktop
// coordinates. On X it measures from its display 0 (Xinerama screen 0);
// the screens' union starts at the root window's origin, so display 0
// sits at minus the smallest corner screenshot reports.
func captureOrigin() image.Point {
	var o image.Point
	for i := range screenshot.NumActiveDisplays() {
		b := screenshot.GetDisplayBounds(i)
		o.X, o.Y = min(o.X, b.Min.X), min(o.Y, b.Min.Y)
	}
	return image.Pt(-o.X, -o.Y)
}
