package desktop

import (
	"errors"
	"fmt"
	"time"
)

// ErrNoDisplay wraps every answer of CheckDisplay that means Yui cannot
// open a window: it draws through X11 (XWayland in a Wayland session), so
// a session without one is told so in one line, not by a panic of the
// windowing library.
var ErrNoDisplay = errors.New("needs an X display")

// displayTimeout bounds the connection attempt: a display server that
// accepts and never answers must not hang the start.
const displayTimeout = 10 * time.Second

// needDisplay says what is missing, from the environment's DISPLAY and
// WAYLAND_DISPLAY, and nil when DISPLAY names a display to try.
func needDisplay(display, wayland string) error {
	switch {
	case display != "":
		return nil
	case wayland != "":
		return fmt.Errorf("%w (X11 or XWayland): this Wayland session (WAYLAND_DISPLAY=%s) has no XWayland, DISPLAY is not set; enable XWayland or start Yui in an X11 session", ErrNoDisplay, wayland)
	}
	return fmt.Errorf("%w (X11 or XWayland): DISPLAY is not set; start Yui inside a graphical session", ErrNoDisplay)
}
