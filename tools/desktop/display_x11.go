//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/jezek/xgb"
)

// CheckDisplay reports, before any window opens, whether the X display of
// $DISPLAY can be reached: nil when it can, else an error wrapping
// ErrNoDisplay that says what is needed. The connection it made stays
// open until release is called (after the app's own connections are
// up): an X server whose last client leaves resets itself, and Xvfb
// would lose its root background.
func CheckDisplay() (release func(), err error) {
	display := os.Getenv("DISPLAY")
	if err := needDisplay(display, os.Getenv("WAYLAND_DISPLAY")); err != nil {
		return func() {}, err
	}
	return dial(display, displayTimeout)
}

// dial connects to display within limit; release closes the connection.
func dial(display string, limit time.Duration) (release func(), err error) {
	type result struct {
		c   *xgb.Conn
		err error
	}
	done := make(chan result, 1)
	go func() { // ends with the dial; a hung one is left to the process exit
		c, err := xgb.NewConnDisplay(display)
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return func() {}, fmt.Errorf("%w (X11 or XWayland): cannot connect to DISPLAY=%s: %v", ErrNoDisplay, display, r.err)
		}
		var once sync.Once
		return func() { once.Do(r.c.Close) }, nil
	case <-time.After(limit):
		return func() {}, fmt.Errorf("%w (X11 or XWayland): DISPLAY=%s did not answer within %s", ErrNoDisplay, display, limit)
	}
}
