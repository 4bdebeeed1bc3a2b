//go:build windows

package native

import (
	"fmt"
	"image"
	"log/slog"
	"unsafe"

	"yui/tools/xconn"

	"fyne.io/fyne/v2/driver"
	"golang.org/x/sys/windows"
)

// Win32 entry points through golang.org/x/sys/windows (docs/product.md §3),
// loaded from the system directory only, so a DLL planted beside the
// executable is never picked up.
var (
	user32 = windows.NewLazySystemDLL("user32.dll")
	gdi32  = windows.NewLazySystemDLL("gdi32.dll")

	procSetWindowRgn     = user32.NewProc("SetWindowRgn")
	procSetWindowPos     = user32.NewProc("SetWindowPos")
	procGetWindowRect    = user32.NewProc("GetWindowRect")
	procGetCursorPos     = user32.NewProc("GetCursorPos")
	procGetWindowLongPtr = user32.NewProc("GetWindowLongPtrW")
	procSetWindowLongPtr = user32.NewProc("SetWindowLongPtrW")
	procGetSystemMetrics = user32.NewProc("GetSystemMetrics")
	procSetForeground    = user32.NewProc("SetForegroundWindow")
	procCreateRectRgn    = gdi32.NewProc("CreateRectRgn")
	procCombineRgn       = gdi32.NewProc("CombineRgn")
	procDeleteObject     = gdi32.NewProc("DeleteObject")
)

const (
	gwlExStyle       = -20
	wsExToolWindow   = 0x00000080
	wsExAppWindow    = 0x00040000
	hwndTopmost      = ^uintptr(0) // (HWND)-1
	swpNoSize        = 0x0001
	swpNoMove        = 0x0002
	swpNoZOrder      = 0x0004
	swpNoActivate    = 0x0010
	swpFrameChanged  = 0x0020
	rgnOr            = 2
	smXVirtualScreen = 76
	smYVirtualScreen = 77
	smCXVirtual      = 78
	smCYVirtual      = 79
	smCXScreen       = 0
	smCYScreen       = 1
)

type winRect struct{ Left, Top, Right, Bottom int32 }

// win32Window shapes the pet window with a window region (SetWindowRgn),
// keeps it topmost and, as a tool window, out of the task bar.
type win32Window struct {
	log    *slog.Logger
	hwnd   uintptr
	hotkey *hotkey // nil until grabShortcut
}

func New(log *slog.Logger, _ *xconn.Conn) Window { return &win32Window{log: log} }

func (w *win32Window) Attach(ctx any) error {
	wc, ok := ctx.(driver.WindowsWindowContext)
	if !ok || wc.HWND == 0 {
		return fmt.Errorf("win32: no window handle (context %T): %w", ctx, ErrUnsupported)
	}
	w.hwnd = wc.HWND
	style, _, _ := procGetWindowLongPtr.Call(w.hwnd, uintptr(gwlExStyleArg()))
	style = (style | wsExToolWindow) &^ wsExAppWindow
	procSetWindowLongPtr.Call(w.hwnd, uintptr(gwlExStyleArg()), style)
	procSetWindowPos.Call(w.hwnd, hwndTopmost, 0, 0, 0, 0, swpNoMove|swpNoSize|swpNoActivate|swpFrameChanged)
	return nil
}

// gwlExStyleArg converts the negative GWL_EXSTYLE index to the uintptr the
// call takes.
func gwlExStyleArg() int { return gwlExStyle }

// setShape sets the window region; a region shapes input too, so the
// input rectangles are not needed.
func (w *win32Window) SetShape(rects, _ []image.Rectangle) error {
	if w.hwnd == 0 {
		return ErrUnsupported
	}
	rgn, _, _ := procCreateRectRgn.Call(0, 0, 0, 0)
	if rgn == 0 {
		return fmt.Errorf("win32: CreateRectRgn failed")
	}
	for _, r := range rects {
		if r.Empty() {
			continue
		}
		part, _, _ := procCreateRectRgn.Call(uintptr(r.Min.X), uintptr(r.Min.Y), uintptr(r.Max.X), uintptr(r.Max.Y))
		if part == 0 {
			continue
		}
		procCombineRgn.Call(rgn, rgn, part, rgnOr)
		procDeleteObject.Call(part)
	}
	// The system owns the region after a successful SetWindowRgn.
	if ok, _, err := procSetWindowRgn.Call(w.hwnd, rgn, 1); ok == 0 {
		procDeleteObject.Call(rgn)
		return fmt.Errorf("win32: SetWindowRgn: %w", err)
	}
	return nil
}

func (w *win32Window) Move(x, y int) error {
	if w.hwnd == 0 {
		return ErrUnsupported
	}
	if ok, _, err := procSetWindowPos.Call(w.hwnd, 0, uintptr(x), uintptr(y), 0, 0, swpNoSize|swpNoZOrder|swpNoActivate); ok == 0 {
		return fmt.Errorf("win32: SetWindowPos: %w", err)
	}
	return nil
}

func (w *win32Window) Position() (image.Point, error) {
	var r winRect
	if ok, _, err := procGetWindowRect.Call(w.hwnd, uintptr(unsafe.Pointer(&r))); ok == 0 {
		return image.Point{}, fmt.Errorf("win32: GetWindowRect: %w", err)
	}
	return image.Pt(int(r.Left), int(r.Top)), nil
}

func (w *win32Window) Pointer() (image.Point, error) {
	var p struct{ X, Y int32 }
	if ok, _, err := procGetCursorPos.Call(uintptr(unsafe.Pointer(&p))); ok == 0 {
		return image.Point{}, fmt.Errorf("win32: GetCursorPos: %w", err)
	}
	return image.Pt(int(p.X), int(p.Y)), nil
}

// monitors reports the primary screen first and, when the virtual desktop
// is larger, the virtual desktop as a second rectangle.
func (w *win32Window) Monitors() ([]image.Rectangle, error) {
	metric := func(i int) int {
		v, _, _ := procGetSystemMetrics.Call(uintptr(i))
		return int(int32(v))
	}
	primary := image.Rect(0, 0, metric(smCXScreen), metric(smCYScreen))
	x, y := metric(smXVirtualScreen), metric(smYVirtualScreen)
	virtual := image.Rect(x, y, x+metric(smCXVirtual), y+metric(smCYVirtual))
	if virtual.Eq(primary) || virtual.Empty() {
		return []image.Rectangle{primary}, nil
	}
	return []image.Rectangle{primary, virtual}, nil
}

func (w *win32Window) Focus() error {
	procSetForeground.Call(w.hwnd)
	return nil
}

// grabShortcut registers Ctrl+Alt+Y as a system-wide hot key on a thread
// of its own (hotkey_windows.go): WM_HOTKEY goes to the message loop of
// the thread that registered it, and GLFW's loop is not the shim's.
func (w *win32Window) GrabShortcut(onPress func()) error {
	h, err := startHotkey(onPress)
	if err != nil {
		return err
	}
	w.hotkey = h
	return nil
}

func (w *win32Window) OnShortcutRelease(f func()) {
	if w.hotkey != nil {
		w.hotkey.setOnRelease(f)
	}
}

// watchMonitors is not wired on Windows yet (WM_DISPLAYCHANGE goes to the
// window procedure GLFW owns); the position is checked at start and after
// each drag.
func (w *win32Window) WatchMonitors(func()) error { return ErrUnsupported }

func (w *win32Window) Close() error {
	if w.hotkey != nil {
		w.hotkey.stop()
		w.hotkey = nil
	}
	return nil
}

// The optional abilities this shim has (native.go).
var (
	_ MonitorWatcher = (*win32Window)(nil)
	_ Shortcut       = (*win32Window)(nil)
)
