// Package desktop is what the pet knows of the desktop around it: the
// monitors and their work areas, the other applications' top-level
// windows, the active window, and a watch on one window's moves and
// closes. One implementation per platform (X11 through EWMH, Windows
// through EnumWindows and DWM) sits behind the Desktop interface; the
// tests' in-memory one is tools/desktop/desktoptest's Fake. On X11 the layer runs on the process's one X connection
// (xconn), which XConn hands to the pet windows so that they share it.
package desktop

import (
	"errors"
	"image"
	"strconv"

	"yui/tools/xconn"
)

// ErrUnsupported is returned by Open on a platform without a desktop layer
// (macOS, Wayland without XWayland): the pet then stands on the screen
// bottom and the look and body tools answer from what they know.
var ErrUnsupported = errors.New("desktop: not supported on this platform")

// errClosed is returned by every method after Close.
var errClosed = errors.New("desktop: closed")

// ID identifies a top-level window: the X window id or the HWND.
type ID uint64

// String is the id as look's perch_targets writes it after "w-": lower-case hex.
func (id ID) String() string { return strconv.FormatUint(uint64(id), 16) }

// Monitor is one display.
type Monitor struct {
	// Bounds is the monitor in desktop pixels; WorkArea is the part not
	// covered by panels and task bars (X11: _NET_WORKAREA clipped to the
	// monitor; Windows: rcWork).
	Bounds, WorkArea image.Rectangle
	Primary          bool
}

// Window is one top-level window of any application.
type Window struct {
	ID ID
	// App is the application's name: WM_CLASS's class on X11, the
	// executable's base name without ".exe" on Windows.
	App   string
	Title string
	// Frame is the window's outer rectangle on the desktop, decorations
	// included (X11: the client rectangle grown by _NET_FRAME_EXTENTS;
	// Windows: DWMWA_EXTENDED_FRAME_BOUNDS).
	Frame image.Rectangle
	// Minimized is true for a minimised (iconic), hidden or cloaked window.
	Minimized bool
	// Normal is true for an ordinary application window: not a dock,
	// desktop, menu, tooltip, splash or notification.
	Normal bool
	// PID is the owning process, 0 when unknown.
	PID int
	// Fullscreen is true for a fullscreen window (X11:
	// _NET_WM_STATE_FULLSCREEN). Windows sets it for the active window
	// only, when its frame covers a whole monitor.
	Fullscreen bool
}

// Visible reports whether the window can be seen and sat on.
func (w Window) Visible() bool { return !w.Minimized && !w.Frame.Empty() }

// ChangeKind says what happened to a watched window.
type ChangeKind int

const (
	// Moved: the window moved or was resized; Change.Window has the new frame.
	Moved ChangeKind = iota + 1
	// Minimized: the window was minimised or hidden.
	Minimized
	// Closed: the window is gone.
	Closed
)

func (k ChangeKind) String() string {
	switch k {
	case Moved:
		return "moved"
	case Minimized:
		return "minimized"
	case Closed:
		return "closed"
	}
	return "change(" + strconv.Itoa(int(k)) + ")"
}

// Change is one event of a watch.
type Change struct {
	Kind   ChangeKind
	Window Window // the window as it is now; only ID is set for Closed
}

// Desktop is the desktop layer. All methods are safe for concurrent use
// and may block on the display server for a round trip, so callers keep
// them out of locks a UI event needs.
type Desktop interface {
	// Monitors returns the monitors, the primary first, then in the
	// display server's order. Index in this list is the monitor number of
	// look and body_action.
	Monitors() ([]Monitor, error)
	// Windows returns the managed top-level windows, including minimised
	// ones and the caller's own, in Z order, the topmost first (X11:
	// _NET_CLIENT_LIST_STACKING reversed, or _NET_CLIENT_LIST's reversed
	// when the window manager keeps no stacking list).
	Windows() ([]Window, error)
	// Active returns the focused window; ok is false when there is none.
	Active() (w Window, ok bool, err error)
	// Watch calls f for each move, minimise and close of window id until
	// stop is called or a Closed change was delivered. f runs on the
	// layer's own goroutine (the fake: the caller's), one change at a
	// time, and must return quickly. After stop returns no new call of f
	// starts; one already running may finish, so f may call stop itself
	// and callers drop changes that arrive late. stop is idempotent.
	// Watching a window that does not exist is an error.
	Watch(id ID, f func(Change)) (stop func(), err error)
	// Close ends the connection and every watch. Idempotent.
	Close() error
}

// MonitorAt returns the index of the monitor containing p, else the one
// nearest to it; -1 when there are none.
func MonitorAt(ms []Monitor, p image.Point) int {
	best, bestD := -1, 0
	for i, m := range ms {
		if p.In(m.Bounds) {
			return i
		}
		d := distSq(m.Bounds, p)
		if best < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// distSq is the squared distance from p to the nearest point of r.
func distSq(r image.Rectangle, p image.Point) int {
	dx := max(r.Min.X-p.X, 0, p.X-(r.Max.X-1))
	dy := max(r.Min.Y-p.Y, 0, p.Y-(r.Max.Y-1))
	return dx*dx + dy*dy
}

// XConn is d's X connection, for the pet windows to share: one X
// connection per process. It is nil when d has none (no X server, another
// platform, a fake).
func XConn(d Desktop) *xconn.Conn {
	if x, ok := d.(interface{ xConn() *xconn.Conn }); ok {
		return x.xConn()
	}
	return nil
}
