//go:build !((linux || freebsd || openbsd || netbsd) && !android)

package look

import "image"

// captureOrigin is where screenshot's coordinates start in desktop
// coordinates: on Windows both are the virtual screen's.
func captureOrigin() image.Point { return image.Point{} }
