// Package desktoptest is the in-memory desktop of tests, beside the
// package it fakes (tools/desktop) so that no shipped program links it.
package desktoptest

import (
	"errors"
	"fmt"
	"image"
	"sync"
	"sync/atomic"

	"yui/tools/desktop"
)

// errClosed is returned by every query after Close, as tools/desktop's
// layers return theirs.
var errClosed = errors.New("desktop: closed")

// Fake is an in-memory desktop.Desktop. Changes made through Move,
// Minimize and CloseWindow are delivered to watches synchronously, on the
// caller's goroutine, before the method returns.
type Fake struct {
	mu       sync.Mutex
	monitors []desktop.Monitor
	windows  []desktop.Window
	active   desktop.ID
	watches  map[desktop.ID][]*fakeWatch
	closed   bool
	// Err, when set, is returned by every query.
	err error
}

type fakeWatch struct {
	f       func(desktop.Change)
	stopped atomic.Bool
}

// NewFake returns a fake desktop with the given monitors and no windows.
func NewFake(monitors ...desktop.Monitor) *Fake {
	return &Fake{monitors: monitors, watches: map[desktop.ID][]*fakeWatch{}}
}

// FakeMonitor returns a monitor at bounds whose work area leaves a task bar
// of taskbar pixels at the bottom.
func FakeMonitor(bounds image.Rectangle, taskbar int, primary bool) desktop.Monitor {
	work := bounds
	work.Max.Y -= taskbar
	return desktop.Monitor{Bounds: bounds, WorkArea: work, Primary: primary}
}

// SetMonitors replaces the monitors.
func (f *Fake) SetMonitors(ms ...desktop.Monitor) {
	f.mu.Lock()
	f.monitors = append([]desktop.Monitor(nil), ms...)
	f.mu.Unlock()
}

// SetWindows replaces the window list, without notifying watches. ws is
// in Z order, the topmost first, as Windows returns it.
func (f *Fake) SetWindows(ws ...desktop.Window) {
	f.mu.Lock()
	f.windows = append([]desktop.Window(nil), ws...)
	f.mu.Unlock()
}

// SetActive makes id the active window (0: none).
func (f *Fake) SetActive(id desktop.ID) {
	f.mu.Lock()
	f.active = id
	f.mu.Unlock()
}

// SetError makes every query fail with err (nil: succeed again).
func (f *Fake) SetError(err error) {
	f.mu.Lock()
	f.err = err
	f.mu.Unlock()
}

// Watching returns how many live watches window id has.
func (f *Fake) Watching(id desktop.ID) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.watches[id])
}

// Move sets the window's frame and tells its watches.
func (f *Fake) Move(id desktop.ID, frame image.Rectangle) {
	f.change(id, desktop.Moved, func(w *desktop.Window) { w.Frame = frame })
}

// Minimize minimises the window and tells its watches.
func (f *Fake) Minimize(id desktop.ID) {
	f.change(id, desktop.Minimized, func(w *desktop.Window) { w.Minimized = true })
}

// CloseWindow removes the window and tells its watches, which end.
func (f *Fake) CloseWindow(id desktop.ID) { f.change(id, desktop.Closed, nil) }

func (f *Fake) change(id desktop.ID, kind desktop.ChangeKind, edit func(*desktop.Window)) {
	f.mu.Lock()
	ch := desktop.Change{Kind: kind, Window: desktop.Window{ID: id}}
	for i := range f.windows {
		if f.windows[i].ID != id {
			continue
		}
		if kind == desktop.Closed {
			f.windows = append(f.windows[:i], f.windows[i+1:]...)
		} else {
			edit(&f.windows[i])
			ch.Window = f.windows[i]
		}
		break
	}
	subs := append([]*fakeWatch(nil), f.watches[id]...)
	if kind == desktop.Closed {
		delete(f.watches, id)
	}
	f.mu.Unlock()
	for _, w := range subs {
		if kind == desktop.Closed {
			if !w.stopped.Swap(true) {
				w.f(ch)
			}
		} else if !w.stopped.Load() {
			w.f(ch)
		}
	}
}

// Monitors implements desktop.Desktop.
func (f *Fake) Monitors() ([]desktop.Monitor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable(); err != nil {
		return nil, err
	}
	return append([]desktop.Monitor(nil), f.monitors...), nil
}

// Windows implements desktop.Desktop.
func (f *Fake) Windows() ([]desktop.Window, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable(); err != nil {
		return nil, err
	}
	return append([]desktop.Window(nil), f.windows...), nil
}

// WindowStates is the x11 layer's cheaper read for do-not-disturb
// (tools/desktop/quiet.go's stateReader): the windows, titles and all, with the active
// window's id.
func (f *Fake) WindowStates() ([]desktop.Window, desktop.ID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable(); err != nil {
		return nil, 0, err
	}
	return append([]desktop.Window(nil), f.windows...), f.active, nil
}

// Active implements desktop.Desktop.
func (f *Fake) Active() (desktop.Window, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable(); err != nil {
		return desktop.Window{}, false, err
	}
	for _, w := range f.windows {
		if w.ID == f.active && f.active != 0 {
			return w, true, nil
		}
	}
	return desktop.Window{}, false, nil
}

// Watch implements desktop.Desktop.
func (f *Fake) Watch(id desktop.ID, fn func(desktop.Change)) (func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable(); err != nil {
		return nil, err
	}
	found := false
	for _, w := range f.windows {
		found = found || w.ID == id
	}
	if !found {
		return nil, fmt.Errorf("desktop: watch %s: no such window", id)
	}
	w := &fakeWatch{f: fn}
	f.watches[id] = append(f.watches[id], w)
	return func() {
		w.stopped.Store(true)
		f.mu.Lock()
		list := f.watches[id]
		for i, x := range list {
			if x == w {
				f.watches[id] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(f.watches[id]) == 0 {
			delete(f.watches, id)
		}
		f.mu.Unlock()
	}, nil
}

// Close implements desktop.Desktop.
func (f *Fake) Close() error {
	f.mu.Lock()
	f.closed = true
	f.watches = map[desktop.ID][]*fakeWatch{}
	f.mu.Unlock()
	return nil
}

func (f *Fake) usable() error {
	if f.closed {
		return errClosed
	}
	return f.err
}

var _ desktop.Desktop = (*Fake)(nil)
