//go:build windows

package desktop

import (
	"fmt"
	"image"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Win32 entry points x/sys/windows does not wrap, loaded from the system
// directory only.
var (
	user32                  = windows.NewLazySystemDLL("user32.dll")
	kernel32                = windows.NewLazySystemDLL("kernel32.dll")
	procEnumDisplayMonitors = user32.NewProc("EnumDisplayMonitors")
	procGetMonitorInfo      = user32.NewProc("GetMonitorInfoW")
	procGetWindowText       = user32.NewProc("GetWindowTextW")
	procGetWindowTextLength = user32.NewProc("GetWindowTextLengthW")
	procIsIconic            = user32.NewProc("IsIconic")
	procGetLastInputInfo    = user32.NewProc("GetLastInputInfo")
	procGetTickCount        = kernel32.NewProc("GetTickCount")
	procGetWindowLongPtr    = user32.NewProc("GetWindowLongPtrW")
	procGetWindowRect       = user32.NewProc("GetWindowRect")
)

const (
	gwlExStyle                     = -20
	wsExToolWindow                 = 0x00000080
	monitorInfoPrimary             = 1
	processQueryLimitedInformation = 0x1000
	// pollEvery is how often a watch reads its window again: Windows
	// tells other processes' moves only through a hook that needs a
	// message loop, and a tenth of a second is smooth enough to follow.
	pollEvery = 100 * time.Millisecond
)

type monitorInfo struct {
	Size    uint32
	Monitor windows.Rect
	Work    windows.Rect
	Flags   uint32
}

// win32 is the desktop layer over EnumWindows and DWM.
type win32 struct {
	log *slog.Logger

	// One enumeration at a time: the callbacks (created once, since
	// Windows keeps a bounded number) append to these.
	enumMu      sync.Mutex
	enumWindows uintptr
	enumMons    uintptr
	hwnds       []windows.HWND
	mons        []Monitor

	mu      sync.Mutex
	closed  bool
	stops   map[*win32Watch]struct{}
	pollers sync.WaitGroup
}

type win32Watch struct {
	stop chan struct{}
	once sync.Once
}

// Open returns the Windows desktop layer. log nil discards.
func Open(log *slog.Logger) (Desktop, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w := &win32{log: log, stops: map[*win32Watch]struct{}{}}
	w.enumWindows = windows.NewCallback(func(h windows.HWND, _ uintptr) uintptr {
		w.hwnds = append(w.hwnds, h)
		return 1
	})
	w.enumMons = windows.NewCallback(func(h windows.Handle, _ windows.Handle, _ *windows.Rect, _ uintptr) uintptr {
		mi := monitorInfo{Size: uint32(unsafe.Sizeof(monitorInfo{}))}
		if r, _, _ := procGetMonitorInfo.Call(uintptr(h), uintptr(unsafe.Pointer(&mi))); r != 0 {
			w.mons = append(w.mons, Monitor{
				Bounds:   rect(mi.Monitor),
				WorkArea: rect(mi.Work),
				Primary:  mi.Flags&monitorInfoPrimary != 0,
			})
		}
		return 1
	})
	return w, nil
}

func rect(r windows.Rect) image.Rectangle {
	return image.Rect(int(r.Left), int(r.Top), int(r.Right), int(r.Bottom))
}

func (w *win32) isClosed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.closed
}

func (w *win32) Monitors() ([]Monitor, error) {
	if w.isClosed() {
		return nil, errClosed
	}
	w.enumMu.Lock()
	defer w.enumMu.Unlock()
	w.mons = nil
	if r, _, err := procEnumDisplayMonitors.Call(0, 0, w.enumMons, 0); r == 0 {
		return nil, fmt.Errorf("desktop: EnumDisplayMonitors: %w", err)
	}
	out := make([]Monitor, 0, len(w.mons))
	for _, m := range w.mons {
		if m.Primary {
			out = append([]Monitor{m}, out...)
		} else {
			out = append(out, m)
		}
	}
	return out, nil
}

func (w *win32) Windows() ([]Window, error) {
	if w.isClosed() {
		return nil, errClosed
	}
	w.enumMu.Lock()
	w.hwnds = nil
	err := windows.EnumWindows(w.enumWindows, nil)
	hwnds := w.hwnds
	w.hwnds = nil
	w.enumMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("desktop: EnumWindows: %w", err)
	}
	out := make([]Window, 0, len(hwnds))
	for _, h := range hwnds {
		if !windows.IsWindowVisible(h) {
			continue // never shown: message-only and helper windows
		}
		if win, ok := describe(h); ok {
			out = append(out, win)
		}
	}
	return out, nil
}

// UserIdle implements IdleReader through GetLastInputInfo.
func (w *win32) UserIdle() (time.Duration, error) {
	if w.isClosed() {
		return 0, errClosed
	}
	info := struct{ size, time uint32 }{size: 8}
	if r, _, err := procGetLastInputInfo.Call(uintptr(unsafe.Pointer(&info))); r == 0 {
		return 0, fmt.Errorf("desktop: GetLastInputInfo: %w", err)
	}
	now, _, _ := procGetTickCount.Call()
	return time.Duration(uint32(now)-info.time) * time.Millisecond, nil
}

func (w *win32) Active() (Window, bool, error) {
	if w.isClosed() {
		return Window{}, false, errClosed
	}
	h := windows.GetForegroundWindow()
	if h == 0 {
		return Window{}, false, nil
	}
	win, ok := describe(h)
	if ok && win.App != "explorer" { // the desktop itself covers the screen
		// Windows has no fullscreen flag: a frame covering a whole
		// monitor, task bar included, is one.
		if ms, err := w.Monitors(); err == nil {
			for _, m := range ms {
				win.Fullscreen = win.Fullscreen || win.Frame == m.Bounds
			}
		}
	}
	return win, ok, nil
}

// describe reads one window; ok is false when it is gone.
func describe(h windows.HWND) (Window, bool) {
	if !windows.IsWindow(h) {
		return Window{}, false
	}
	win := Window{ID: ID(h), Title: windowText(h)}
	var dwm, wr windows.Rect
	err := windows.DwmGetWindowAttribute(h, windows.DWMWA_EXTENDED_FRAME_BOUNDS, unsafe.Pointer(&dwm), uint32(unsafe.Sizeof(dwm)))
	procGetWindowRect.Call(uintptr(h), uintptr(unsafe.Pointer(&wr)))
	win.Frame = frameOf(rect(dwm), err, rect(wr))
	var cloaked uint32
	_ = windows.DwmGetWindowAttribute(h, windows.DWMWA_CLOAKED, unsafe.Pointer(&cloaked), uint32(unsafe.Sizeof(cloaked)))
	iconic, _, _ := procIsIconic.Call(uintptr(h))
	win.Minimized = iconic != 0 || cloaked != 0 || !windows.IsWindowVisible(h)
	ex, _, _ := procGetWindowLongPtr.Call(uintptr(h), uintptr(gwlExStyleIndex()))
	win.Normal = ex&wsExToolWindow == 0
	var pid uint32
	if _, err := windows.GetWindowThreadProcessId(h, &pid); err == nil {
		win.PID = int(pid)
		win.App = processName(pid)
	}
	return win, true
}

// gwlExStyleIndex converts the negative GWL_EXSTYLE index to the uintptr
// the call takes.
func gwlExStyleIndex() int { return gwlExStyle }

func windowText(h windows.HWND) string {
	n, _, _ := procGetWindowTextLength.Call(uintptr(h))
	if n == 0 {
		return ""
	}
	buf := make([]uint16, n+1)
	procGetWindowText.Call(uintptr(h), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	return windows.UTF16ToString(buf)
}

// processName is the executable's base name without ".exe".
func processName(pid uint32) string {
	p, err := windows.OpenProcess(processQueryLimitedInformation, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(p)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if windows.QueryFullProcessImageName(p, 0, &buf[0], &n) != nil {
		return ""
	}
	name := filepath.Base(windows.UTF16ToString(buf[:n]))
	return strings.TrimSuffix(name, filepath.Ext(name))
}

func (w *win32) Watch(id ID, f func(Change)) (func(), error) {
	h := windows.HWND(id)
	cur, ok := describe(h)
	if !ok {
		return nil, fmt.Errorf("desktop: watch %s: no such window", id)
	}
	wt := &win32Watch{stop: make(chan struct{})}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil, errClosed
	}
	w.stops[wt] = struct{}{}
	w.pollers.Add(1)
	w.mu.Unlock()
	go w.poll(h, cur, wt, f)
	return func() { w.unwatch(wt) }, nil
}

func (w *win32) unwatch(wt *win32Watch) {
	wt.once.Do(func() { close(wt.stop) })
	w.mu.Lock()
	delete(w.stops, wt)
	w.mu.Unlock()
}

// poll reads the window every pollEvery and delivers what changed.
func (w *win32) poll(h windows.HWND, last Window, wt *win32Watch, f func(Change)) {
	defer w.pollers.Done()
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	mini := last.Minimized
	for {
		select {
		case <-wt.stop:
			return
		case <-t.C:
		}
		cur, ok := describe(h)
		select {
		case <-wt.stop:
			return
		default:
		}
		switch {
		case !ok:
			w.unwatch(wt)
			f(Change{Kind: Closed, Window: Window{ID: ID(h)}})
			return
		case cur.Minimized && !mini:
			mini = true
			f(Change{Kind: Minimized, Window: cur})
		case !cur.Minimized && cur.Frame != last.Frame:
			mini = false
			last = cur
			f(Change{Kind: Moved, Window: cur})
		case !cur.Minimized:
			mini = false
		}
	}
}

func (w *win32) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	stops := w.stops
	w.stops = map[*win32Watch]struct{}{}
	w.mu.Unlock()
	for wt := range stops {
		wt.once.Do(func() { close(wt.stop) })
	}
	w.pollers.Wait()
	return nil
}
