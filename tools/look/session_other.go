//go:build !((linux || freebsd || openbsd || netbsd) && !android)

package look

import (
	"errors"
	"fmt"
	"image"

	"yui/tools/desktop"
)

// ErrNoPortal: no XDG desktop portal outside the free Unix desktops.
var ErrNoPortal = errors.New("no screenshot portal on this platform")

// noPortal is the portal's place where there is none (Wayland is not a
// session here; kept so that the session choice builds everywhere).
type noPortal struct{}

func (noPortal) Capture(r image.Rectangle) (*image.RGBA, error) {
	return nil, fmt.Errorf("capture %v: %w", r, ErrNoPortal)
}

func newPortal(string, desktop.Desktop) Capturer { return noPortal{} }
