//go:build !((linux || freebsd || openbsd || netbsd) && !android && !wayland && !wasm) && !windows

package native

import (
	"image"
	"log/slog"

	"yui/tools/xconn"
)

// rectWindow is the fallback shim (macOS, Wayland, mobile): a rectangular
// borderless window that Fyne places; shaping, moving and the pointer are
// not available, so the pet stays where the driver centred it.
type rectWindow struct{}

func New(*slog.Logger, *xconn.Conn) Window { return rectWindow{} }

func (rectWindow) Attach(any) error                      { return ErrUnsupported }
func (rectWindow) SetShape(_, _ []image.Rectangle) error { return ErrUnsupported }
func (rectWindow) Move(int, int) error                   { return ErrUnsupported }
func (rectWindow) Position() (image.Point, error)        { return image.Point{}, ErrUnsupported }
func (rectWindow) Pointer() (image.Point, error)         { return image.Point{}, ErrUnsupported }
func (rectWindow) Monitors() ([]image.Rectangle, error)  { return nil, ErrUnsupported }
func (rectWindow) Focus() error                          { return ErrUnsupported }
func (rectWindow) GrabShortcut(func()) error             { return ErrUnsupported }
func (rectWindow) OnShortcutRelease(func())              {}
func (rectWindow) WatchMonitors(func()) error            { return ErrUnsupported }
func (rectWindow) Close() error                          { return nil }

// The optional abilities this shim has (native.go).
var (
	_ MonitorWatcher = rectWindow{}
	_ Shortcut       = rectWindow{}
)
