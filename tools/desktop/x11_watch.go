//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"fmt"

	"github.com/jezek/xgb/xproto"
)

// Watching a window for moves, minimising and closing (Desktop.Watch);
// x11_events.go's event delivers what the X server tells of it.

func (x *x11) Watch(id ID, f func(Change)) (func(), error) {
	if x.isClosed() {
		return nil, errClosed
	}
	win := xproto.Window(id)
	mask := []uint32{xproto.EventMaskStructureNotify | xproto.EventMaskPropertyChange}
	if err := xproto.ChangeWindowAttributesChecked(x.conn, win, xproto.CwEventMask, mask).Check(); err != nil {
		return nil, fmt.Errorf("desktop: watch %s: %w", id, err)
	}
	// A reparenting window manager moves its frame, not the client: the
	// frame's ConfigureNotify tells of moves a WM does not forward.
	frame := x.frameOf(win)
	if frame != 0 {
		xproto.ChangeWindowAttributes(x.conn, frame, xproto.CwEventMask, []uint32{xproto.EventMaskStructureNotify})
	}
	w := &x11Watch{id: id, frame: frame, f: f}
	if cur, ok := x.query(win, true).result(false); ok {
		w.last, w.mini = cur.Frame, cur.Minimized
	}
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return nil, errClosed
	}
	x.watches[win] = append(x.watches[win], w)
	if frame != 0 {
		x.watches[frame] = append(x.watches[frame], w)
	}
	x.mu.Unlock()
	return func() { x.unwatch(w) }, nil
}

func (x *x11) unwatch(w *x11Watch) {
	w.stopped.Store(true)
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, key := range []xproto.Window{xproto.Window(w.id), w.frame} {
		list := x.watches[key]
		for i, v := range list {
			if v == w {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(x.watches, key)
		} else {
			x.watches[key] = list
		}
	}
}
