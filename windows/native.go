package windows

import (
	"errors"
	"image"
)

// errUnsupported is returned by a native shim for what its platform cannot do.
var errUnsupported = errors.New("not supported on this platform")

// nativeWindow is the per-platform part of a pet window: the window shape,
// stacking, position and pointer. One implementation per platform lives in
// a file with build tags (shape_x11.go, shape_windows.go, shape_other.go);
// newNative returns it.
//
// Coordinates are physical pixels: window-relative for shapes, root (virtual
// desktop) relative for positions. Methods are called from the Fyne main
// goroutine only.
type nativeWindow interface {
	// attach binds the shim to the window, given the context value that
	// fyne's driver.NativeWindow.RunNative passed. It makes the window stay
	// above others and out of the task bar and pager where the platform
	// allows.
	attach(ctx any) error
	// setShape limits the window's drawn area to the union of bounding
	// and its clickable area to the union of input within it (a nil input
	// keeps the input shape set last; where the platform has no separate
	// input shape, bounding shapes input too). An empty bounding list
	// leaves nothing visible. It may return before the platform applied
	// the shape.
	setShape(bounding, input []image.Rectangle) error
	// move places the window's top-left corner at x, y.
	move(x, y int) error
	// position returns the window's top-left corner.
	position() (image.Point, error)
	// pointer returns the pointer position.
	pointer() (image.Point, error)
	// monitors returns the monitors' rectangles, the primary first.
	monitors() ([]image.Rectangle, error)
	// focus gives the window the keyboard focus.
	focus() error
	// grabShortcut makes the global shortcut (Ctrl+Alt+Y) call onPress,
	// from any goroutine. Only one pet of a desktop can hold it.
	grabShortcut(onPress func()) error
	// onShortcutRelease makes the release of the grabbed shortcut's key
	// call f, from any goroutine (push-to-talk; a key held down may also
	// repeat press and release). Where the platform reports no release it
	// does nothing.
	onShortcutRelease(f func())
	// watchMonitors calls onChange, from any goroutine, when the monitor
	// layout changes (a monitor added, removed or resized).
	watchMonitors(onChange func()) error
	// close releases the shim's resources (the X connection).
	close() error
}
