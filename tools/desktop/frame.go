package desktop

import "image"

// frameOf is a Windows window's frame: DWM's extended frame bounds when
// DWM gives them, the rectangle the user sees (on Windows 10 and 11
// GetWindowRect also counts the invisible resize borders, about seven
// pixels left, right and below); else the window rectangle, when there is
// no DWM composition to ask (Windows 7's basic theme, Wine) or the call
// failed. An empty DWM answer counts as none.
func frameOf(dwm image.Rectangle, dwmErr error, rect image.Rectangle) image.Rectangle {
	if dwmErr == nil && !dwm.Empty() {
		return dwm
	}
	return rect
}
