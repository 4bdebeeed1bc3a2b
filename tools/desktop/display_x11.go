//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"fmt"
	"os"
	"time"

	"github.com/jezek/xgb"
)

// CheckDisplay reports, before any window opens, whether the X display of
// $DISPLAY can be reached: nil when it can, else an error wrapping
// ErrNoDisplay that says what is needed.
func CheckDisplay() error {
	display := os.Getenv("DISPLAY")
	if err := needDisplay(display, os.Getenv("WAYLAND_DISPLAY")); err != nil {
		return err
	}
	return dial(display, displayTimeout)
}

// dial connects to display once and closes the connection, within limit.
func dial(display string, limit time.Duration) error {
	done := make(chan error, 1)
	go func() { // ends with the dial; a hung one is left to the process exit
		c, err := xgb.NewConnDisplay(display)
		if err == nil {
			c.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%w (X11 or XWayland): cannot connect to DISPLAY=%s: %v", ErrNoDisplay, display, err)
		}
		return nil
	case <-time.After(limit):
		return fmt.Errorf("%w (X11 or XWayland): DISPLAY=%s did not answer within %s", ErrNoDisplay, display, limit)
	}
}
