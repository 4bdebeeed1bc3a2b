//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"slices"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Delivering what the X server's events tell of watched windows
// (x11_watch.go's Watch) and counting the root's changes.

// event delivers the watch changes an event of the connection tells of
// (on the connection's event loop), and counts the root's (Changes). A
// watched window's own structure events come to it as well: those
// through the root are counted only, not delivered twice.
func (x *x11) event(ev xgb.Event) {
	if x.rootChange(ev) {
		x.changes.Add(1)
		return
	}
	var win xproto.Window
	closed := false
	switch e := ev.(type) {
	case xproto.ConfigureNotifyEvent:
		win = e.Window
	case xproto.UnmapNotifyEvent:
		win = e.Window
	case xproto.MapNotifyEvent:
		win = e.Window
	case xproto.DestroyNotifyEvent:
		win, closed = e.Window, true
	case xproto.PropertyNotifyEvent:
		if !slices.Contains(x.watchedProps(), e.Atom) {
			return
		}
		win = e.Window
	default:
		return
	}
	x.mu.Lock()
	subs := append([]*x11Watch(nil), x.watches[win]...)
	x.mu.Unlock()
	for _, w := range subs {
		x.update(w, closed && xproto.Window(w.id) == win)
	}
}

// update reads a watched window again and delivers what changed.
func (x *x11) update(w *x11Watch, destroyed bool) {
	if w.stopped.Load() {
		return
	}
	cur, ok := Window{}, false
	if !destroyed {
		cur, ok = x.query(xproto.Window(w.id), true).result(false)
	}
	if !ok {
		x.unwatch(w)
		w.f(Change{Kind: Closed, Window: Window{ID: w.id}})
		return
	}
	switch {
	case cur.Minimized && !w.mini:
		w.mini = true
		w.f(Change{Kind: Minimized, Window: cur})
	case !cur.Minimized && cur.Frame != w.last:
		w.mini = false
		w.last = cur.Frame
		w.f(Change{Kind: Moved, Window: cur})
	case !cur.Minimized:
		w.mini = false
	}
}

// watchedProps are the properties whose change may change a watched
// window's state or its visible frame.
func (x *x11) watchedProps() []xproto.Atom {
	return []xproto.Atom{x.atom("_NET_WM_STATE"), x.atom("WM_STATE"),
		x.atom("_NET_FRAME_EXTENTS"), x.atom("_GTK_FRAME_EXTENTS")}
}
