//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// What changed on the desktop, counted from the root window's events for
// do-not-disturb (quiet.go's changeCounter).

// Changes counts the changes of the top-level windows and of the root
// window's properties seen since the first call, which asks the X server
// for them: the structure events of the root's children (mapped,
// unmapped, moved, resized, restacked, made, destroyed, reparented), and
// every property change of the root (the active window, the window
// manager's client lists). A reparenting window manager's frames are
// the root's children: a client made fullscreen resizes its frame.
func (x *x11) Changes() uint64 {
	x.rootEvents.Do(func() {
		mask := []uint32{xproto.EventMaskSubstructureNotify | xproto.EventMaskPropertyChange}
		if err := xproto.ChangeWindowAttributesChecked(x.conn, x.root, xproto.CwEventMask, mask).Check(); err != nil {
			x.log.Warn("desktop_root_events", "err", err.Error())
		}
	})
	return x.changes.Load()
}

// rootChange reports whether ev is one of the root's own events that
// Changes counts: those its SubstructureNotify and PropertyChange bring.
func (x *x11) rootChange(ev xgb.Event) bool {
	var via, about xproto.Window // the window it came through, the one it tells of
	switch e := ev.(type) {
	case xproto.ConfigureNotifyEvent:
		via, about = e.Event, e.Window
	case xproto.MapNotifyEvent:
		via, about = e.Event, e.Window
	case xproto.UnmapNotifyEvent:
		via, about = e.Event, e.Window
	case xproto.DestroyNotifyEvent:
		via, about = e.Event, e.Window
	case xproto.CreateNotifyEvent:
		via, about = e.Parent, e.Window
	case xproto.ReparentNotifyEvent:
		via, about = e.Event, e.Window
	case xproto.CirculateNotifyEvent:
		via, about = e.Event, e.Window
	case xproto.GravityNotifyEvent:
		via, about = e.Event, e.Window
	case xproto.PropertyNotifyEvent:
		return e.Window == x.root
	default:
		return false
	}
	return via == x.root && about != x.root
}
