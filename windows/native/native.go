// Package native holds the pet window's per-platform shims behind
// interfaces cut by ability (Window and the optional ones it may have): the X11 SHAPE extension (shape_x11.go), a Windows
// window region and the RegisterHotKey thread (shape_windows.go,
// hotkey_windows.go), and a rectangular fallback elsewhere (shape_other.go).
// The X11 shim runs on the process's one X connection (tools/xconn),
// shared with the desktop layer and the other pets.
package native

import (
	"errors"
	"image"
	"time"
)

// ErrUnsupported is returned by a native shim for what its platform cannot do.
var ErrUnsupported = errors.New("not supported on this platform")

// Window is the per-platform part of a pet window that every platform
// has: binding and release, and the abilities a pet uses on every draw and
// move (Shaper, Placer, Screen). The abilities a platform may lack are
// interfaces of their own that callers find by type assertion, as
// net/http's Flusher is found: MonitorWatcher, Shortcut, PointerWatcher.
// One implementation per platform lives in a file with build tags
// (shape_x11.go, shape_windows.go, shape_other.go); New returns it.
//
// Coordinates are physical pixels: window-relative for shapes, root (virtual
// desktop) relative for positions. Methods are called from the Fyne main
// goroutine only.
type Window interface {
	// Attach binds the shim to the window, given the context value that
	// fyne's driver.NativeWindow.RunNative passed. It makes the window stay
	// above others and out of the task bar and pager where the platform
	// allows.
	Attach(ctx any) error
	Shaper
	Placer
	Screen
	// Close releases the shim's resources (the X connection).
	Close() error
}

// Shaper shapes the window.
type Shaper interface {
	// SetShape limits the window's drawn area to the union of bounding
	// and its clickable area to the union of input within it (a nil input
	// keeps the input shape set last; where the platform has no separate
	// input shape, bounding shapes input too). An empty bounding list
	// leaves nothing visible. It may return before the platform applied
	// the shape.
	SetShape(bounding, input []image.Rectangle) error
}

// Placer moves and raises the window.
type Placer interface {
	// Move places the window's top-left corner at x, y.
	Move(x, y int) error
	// Position returns the window's top-left corner.
	Position() (image.Point, error)
	// Focus gives the window the keyboard focus.
	Focus() error
}

// Screen reads the desktop around the window.
type Screen interface {
	// Pointer returns the pointer position.
	Pointer() (image.Point, error)
	// Monitors returns the monitors' rectangles, the primary first.
	Monitors() ([]image.Rectangle, error)
}

// MonitorWatcher is a shim that hears the monitor layout change.
type MonitorWatcher interface {
	// WatchMonitors calls onChange, from any goroutine, when the monitor
	// layout changes (a monitor added, removed or resized).
	WatchMonitors(onChange func()) error
}

// Shortcut is a shim that grabs the global shortcut.
type Shortcut interface {
	// GrabShortcut makes the global shortcut (Ctrl+Alt+Y) call onPress,
	// from any goroutine. Only one pet of a desktop can hold it.
	GrabShortcut(onPress func()) error
	// OnShortcutRelease makes the release of the grabbed shortcut's key
	// call f, from any goroutine (push-to-talk; a key held down may also
	// repeat press and release). Where the platform reports no release it
	// does nothing.
	OnShortcutRelease(f func())
}

// PointerWatcher is a shim that reads the pointer for every pet at once:
// the X11 shim, with one poller on the process's X connection. A shim
// without it is polled through Pointer, off the UI goroutine.
type PointerWatcher interface {
	// WatchPointer calls f with the pointer's position (ok false when it
	// could not be read) every period, from a goroutine of the shim's,
	// until stop is called. ok is false when the shim cannot watch now.
	WatchPointer(every time.Duration, f func(p image.Point, ok bool)) (stop func(), ok bool)
}
