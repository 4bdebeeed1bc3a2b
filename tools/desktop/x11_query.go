//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"fmt"
	"image"
	"slices"

	"github.com/jezek/xgb/xproto"
)

// Listing the windows and reading one window's facts (Windows,
// WindowStates, Active, ActiveName) from the EWMH properties the window
// manager keeps.

func (x *x11) Windows() ([]Window, error) {
	return x.windows(true)
}

// mapped keeps the windows that are mapped and not override-redirect: of
// the root's children, those a person sees as top-level windows. Every
// toolkit keeps unmapped helper windows there, and one request each
// here spares the rest of a window's query for them.
func (x *x11) mapped(ws []xproto.Window) []xproto.Window {
	cs := make([]xproto.GetWindowAttributesCookie, len(ws))
	for i, w := range ws {
		cs[i] = xproto.GetWindowAttributes(x.conn, w)
	}
	out := ws[:0:0]
	for i, c := range cs {
		if a, err := c.Reply(); err == nil && !a.OverrideRedirect && a.MapState == xproto.MapStateViewable {
			out = append(out, ws[i])
		}
	}
	return out
}

// WindowStates is Windows without what only a person reads (titles, the
// application, the frame's extents), with the active window's id: what
// do-not-disturb reads every QuietPoll (quiet.go). Each xgb request waits
// for xgb's sender goroutine, so an idle pet's cost follows the number of
// requests: seven a window here against twelve, and none more for the
// active window, which is in the list (docs/performance.md, idle).
func (x *x11) WindowStates() ([]Window, ID, error) {
	active := x.activeProp() // answered while the list is read
	ws, err := x.windows(false)
	return ws, ID(activeOf(active)), err
}

// windows lists the windows, top first, each with what a person reads too
// when full.
func (x *x11) windows(full bool) ([]Window, error) {
	if x.isClosed() {
		return nil, errClosed
	}
	// The stacking list (bottom first) gives the Z order gravity needs;
	// the plain client list is the fallback of a manager without it.
	ids := cardinals(x.prop(x.root, "_NET_CLIENT_LIST_STACKING", xproto.AtomWindow).Reply())
	if ids == nil {
		ids = cardinals(x.prop(x.root, "_NET_CLIENT_LIST", xproto.AtomWindow).Reply())
	}
	var wins []xproto.Window
	if ids != nil {
		for _, id := range ids {
			wins = append(wins, xproto.Window(id))
		}
	} else {
		// No EWMH window manager: the root's mapped children are the
		// top-level windows, bottom first too.
		t, err := xproto.QueryTree(x.conn, x.root).Reply()
		if err != nil {
			return nil, fmt.Errorf("desktop: window list: %w", err)
		}
		wins = x.mapped(t.Children)
	}
	slices.Reverse(wins) // top first, as on Windows
	// Every request for every window goes out before the first reply is
	// read: one round trip's latency for the whole list.
	qs := make([]*windowQuery, len(wins))
	for i, w := range wins {
		qs[i] = x.query(w, full)
	}
	out := make([]Window, 0, len(wins))
	for _, q := range qs {
		w, ok := q.result(ids == nil)
		if ok {
			out = append(out, w)
		}
	}
	return out, nil
}

// activeProp asks for _NET_ACTIVE_WINDOW; activeOf reads its reply: the
// focused window, 0 for none.
func (x *x11) activeProp() xproto.GetPropertyCookie {
	return x.prop(x.root, "_NET_ACTIVE_WINDOW", xproto.AtomWindow)
}

func activeOf(c xproto.GetPropertyCookie) xproto.Window {
	if v := cardinals(c.Reply()); len(v) > 0 {
		return xproto.Window(v[0])
	}
	return 0
}

// title is a window's title: _NET_WM_NAME, else WM_NAME.
func title(netName, name string) string {
	if netName != "" {
		return netName
	}
	return name
}

func (x *x11) Active() (Window, bool, error) {
	if x.isClosed() {
		return Window{}, false, errClosed
	}
	win := activeOf(x.activeProp())
	if win == 0 {
		return Window{}, false, nil
	}
	w, ok := x.query(win, true).result(false)
	return w, ok, nil
}

// ActiveName is the focused window's id, title and application alone:
// what the life scheduler reads every ActivityPoll (activity.go), in four
// requests against Active's thirteen.
func (x *x11) ActiveName() (Window, bool, error) {
	if x.isClosed() {
		return Window{}, false, errClosed
	}
	win := activeOf(x.activeProp())
	if win == 0 {
		return Window{}, false, nil
	}
	netName := x.prop(win, "_NET_WM_NAME", x.atom("UTF8_STRING"))
	name := x.prop(win, "WM_NAME", xproto.GetPropertyTypeAny)
	class := x.prop(win, "WM_CLASS", xproto.AtomString)
	return Window{ID: ID(win), Title: title(text(netName.Reply()), text(name.Reply())),
		App: wmClass(text(class.Reply()))}, true, nil
}

// windowQuery holds the requests for one window's state; the names and
// extents only when full.
type windowQuery struct {
	x                                    *x11
	win                                  xproto.Window
	full                                 bool
	attrs                                xproto.GetWindowAttributesCookie
	geom                                 xproto.GetGeometryCookie
	pos                                  xproto.TranslateCoordinatesCookie
	netName, name, class, extents, state xproto.GetPropertyCookie
	wmState, wtype, pid, gtkExtents      xproto.GetPropertyCookie
}

func (x *x11) query(w xproto.Window, full bool) *windowQuery {
	q := &windowQuery{
		x:       x,
		win:     w,
		full:    full,
		attrs:   xproto.GetWindowAttributes(x.conn, w),
		geom:    xproto.GetGeometry(x.conn, xproto.Drawable(w)),
		pos:     xproto.TranslateCoordinates(x.conn, w, x.root, 0, 0),
		state:   x.prop(w, "_NET_WM_STATE", xproto.AtomAtom),
		wmState: x.prop(w, "WM_STATE", x.atom("WM_STATE")),
		wtype:   x.prop(w, "_NET_WM_WINDOW_TYPE", xproto.AtomAtom),
		pid:     x.prop(w, "_NET_WM_PID", xproto.AtomCardinal),
	}
	if full {
		q.netName = x.prop(w, "_NET_WM_NAME", x.atom("UTF8_STRING"))
		q.name = x.prop(w, "WM_NAME", xproto.GetPropertyTypeAny)
		q.class = x.prop(w, "WM_CLASS", xproto.AtomString)
		q.extents = x.prop(w, "_NET_FRAME_EXTENTS", xproto.AtomCardinal)
		// Client-side decorations: the shadow GTK and libadwaita draw
		// around the visible frame, inside the X window.
		q.gtkExtents = x.prop(w, "_GTK_FRAME_EXTENTS", xproto.AtomCardinal)
	}
	return q
}

// result reads the replies. ok is false for a window that is gone, and,
// when bare (no window manager), for one that is unmapped or override-redirect.
func (q *windowQuery) result(bare bool) (Window, bool) {
	x := q.x
	a, errA := q.attrs.Reply()
	g, errG := q.geom.Reply()
	p, errP := q.pos.Reply()
	var netName, name, class string
	var ext, gtk []uint32
	if q.full {
		netName, name = text(q.netName.Reply()), text(q.name.Reply())
		class = text(q.class.Reply())
		ext = cardinals(q.extents.Reply())
		gtk = cardinals(q.gtkExtents.Reply())
	}
	state := cardinals(q.state.Reply())
	wmState := cardinals(q.wmState.Reply())
	wtype := cardinals(q.wtype.Reply())
	pid := cardinals(q.pid.Reply())
	if errA != nil || errG != nil || errP != nil {
		return Window{}, false
	}
	if bare && (a.OverrideRedirect || a.MapState != xproto.MapStateViewable) {
		return Window{}, false
	}
	w := Window{ID: ID(q.win), Title: title(netName, name), Normal: true}
	w.App = wmClass(class)
	r := image.Rect(int(p.DstX), int(p.DstY), int(p.DstX)+int(g.Width), int(p.DstY)+int(g.Height))
	w.Frame = visibleFrame(r, ext, gtk)
	w.Minimized = a.MapState != xproto.MapStateViewable ||
		(len(wmState) > 0 && wmState[0] == iconicState) ||
		x.hasAtom(state, "_NET_WM_STATE_HIDDEN")
	w.Fullscreen = x.hasAtom(state, "_NET_WM_STATE_FULLSCREEN")
	if len(wtype) > 0 {
		w.Normal = x.hasAtom(wtype, "_NET_WM_WINDOW_TYPE_NORMAL")
	}
	if len(pid) > 0 {
		w.PID = int(pid[0])
	}
	return w, true
}

// visibleFrame is what a person sees of a window whose X window is r: a
// window manager's frame (_NET_FRAME_EXTENTS, left, right, top, bottom)
// added, the client-drawn shadow of client-side decorations
// (_GTK_FRAME_EXTENTS, same order) taken off. A shadow larger than the
// window is ignored.
func visibleFrame(r image.Rectangle, net, gtk []uint32) image.Rectangle {
	if len(gtk) == 4 {
		// Not image.Rect, which would swap the edges of a shadow wider
		// than the window instead of leaving it empty.
		in := image.Rectangle{Min: image.Pt(r.Min.X+int(gtk[0]), r.Min.Y+int(gtk[2])),
			Max: image.Pt(r.Max.X-int(gtk[1]), r.Max.Y-int(gtk[3]))}
		if !in.Empty() && int(gtk[0]|gtk[1]|gtk[2]|gtk[3]) < 1<<15 {
			r = in
		}
	}
	if len(net) == 4 && int(net[0]|net[1]|net[2]|net[3]) < 1<<15 {
		r.Min.X -= int(net[0])
		r.Max.X += int(net[1])
		r.Min.Y -= int(net[2])
		r.Max.Y += int(net[3])
	}
	return r
}

// iconicState is WM_STATE's IconicState (ICCCM 4.1.3.1).
const iconicState = 3

func (x *x11) hasAtom(list []uint32, name string) bool {
	a := uint32(x.atom(name))
	for _, v := range list {
		if v == a && a != 0 {
			return true
		}
	}
	return false
}

// wmClass returns the class part of WM_CLASS ("instance\0Class\0"), else
// the instance.
func wmClass(v string) string {
	var parts []string
	start := 0
	for i := 0; i < len(v); i++ {
		if v[i] == 0 {
			parts = append(parts, v[start:i])
			start = i + 1
		}
	}
	if start < len(v) {
		parts = append(parts, v[start:])
	}
	switch {
	case len(parts) >= 2 && parts[1] != "":
		return parts[1]
	case len(parts) >= 1:
		return parts[0]
	}
	return ""
}

// frameOf returns the window manager's frame around w: its ancestor that
// is a child of the root; 0 when w is itself a child of the root.
func (x *x11) frameOf(w xproto.Window) xproto.Window {
	cur := w
	for range 16 { // bounded: frames nest a few levels at most
		t, err := xproto.QueryTree(x.conn, cur).Reply()
		if err != nil || t.Parent == 0 {
			return 0
		}
		if t.Parent == x.root {
			if cur == w {
				return 0
			}
			return cur
		}
		cur = t.Parent
	}
	return 0
}
