//go:build !((linux || freebsd || openbsd || netbsd) && !android && !wayland && !wasm) && !windows

package windows

import (
	"image"
	"log/slog"

	"yui/tools/desktop/xconn"
)

// rectWindow is the fallback shim (macOS, Wayland, mobile): a rectangular
// borderless window that Fyne places; shaping, moving and the pointer are
// not available, so the pet stays where the driver centred it.
type rectWindow struct{}

func newNative(*slog.Logger, *xconn.Conn) nativeWindow { return rectWindow{} }

func (rectWindow) attach(any) error                      { return errUnsupported }
func (rectWindow) setShape(_, _ []image.Rectangle) error { return errUnsupported }
func (rectWindow) move(int, int) error                   { return errUnsupported }
func (rectWindow) position() (image.Point, error)        { return image.Point{}, errUnsupported }
func (rectWindow) pointer() (image.Point, error)         { return image.Point{}, errUnsupported }
func (rectWindow) monitors() ([]image.Rectangle, error)  { return nil, errUnsupported }
func (rectWindow) focus() error                          { return errUnsupported }
func (rectWindow) grabShortcut(func()) error             { return errUnsupported }
func (rectWindow) onShortcutRelease(func())              {}
func (rectWindow) watchMonitors(func()) error            { return errUnsupported }
func (rectWindow) close() error                          { return nil }
