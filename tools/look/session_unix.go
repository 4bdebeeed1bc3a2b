//go:build (linux || freebsd || openbsd || netbsd) && !android

package look

import "yui/tools/desktop"

func newPortal(bus string, d desktop.Desktop) Capturer {
	return Portal{Address: bus, Bounds: desktopBounds(d)}
}
