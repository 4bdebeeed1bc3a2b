//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"fmt"
	"image"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"yui/tools/xconn"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/screensaver"
	"github.com/jezek/xgb/xproto"
)

// x11 is the desktop layer over the process's one X connection
// (tools/xconn), reading the EWMH properties the window manager
// keeps on the root window and on each client.
type x11 struct {
	log   *slog.Logger
	xc    *xconn.Conn
	own   bool // Close closes xc (Open made it)
	conn  *xgb.Conn
	root  xproto.Window
	saver bool // the screensaver extension (user idle time) present

	unsubscribe func() // ends the event delivery from xc

	// changes counts the root's structure and property events
	// (Changes), once rootEvents has asked for them.
	changes    atomic.Uint64
	rootEvents sync.Once

	mu      sync.Mutex
	watches map[xproto.Window][]*x11Watch // by the window whose events carry it: the client and its frame
	closed  bool
}

type x11Watch struct {
	id      ID
	frame   xproto.Window // the window manager's frame, 0 when not reparented
	f       func(Change)
	stopped atomic.Bool
	last    image.Rectangle // last frame delivered, read and written by the event loop only
	mini    bool            // Minimized delivered and not yet undone
}

// Open connects to the display named by $DISPLAY, on a connection of its
// own that Close closes; in a GNOME or KDE Plasma Wayland session the
// windows' facts come from the compositor (compositor.go). log nil
// discards.
func Open(log *slog.Logger) (Desktop, error) {
	c, err := xconn.Open(log)
	if err != nil {
		return nil, fmt.Errorf("desktop: %w", err)
	}
	d := OpenOn(c, log).(*x11)
	d.own = true
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// On GNOME's and KDE Plasma's Wayland the windows come from the
	// compositor (compositor.go); elsewhere from X11 alone.
	return onCompositor(d, log), nil
}

// OpenOn is the desktop layer over the process's X connection c, which
// stays open when the layer closes. log nil discards.
func OpenOn(c *xconn.Conn, log *slog.Logger) Desktop {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	x := &x11{
		log:     log,
		xc:      c,
		conn:    c.X(),
		root:    c.Root(),
		watches: map[xproto.Window][]*x11Watch{},
	}
	x.saver = screensaver.Init(x.conn) == nil
	x.unsubscribe = c.Subscribe(x.event)
	return x
}

// xConn is the X connection, for the pet windows to share (XConn).
func (x *x11) xConn() *xconn.Conn { return x.xc }

// atom returns the interned atom, cached for the connection's life.
func (x *x11) atom(name string) xproto.Atom { return x.xc.Atom(name) }

// prop requests a property; the cookie's reply is read later, so that the
// requests for many windows go out before the first answer is awaited.
func (x *x11) prop(w xproto.Window, name string, typ xproto.Atom) xproto.GetPropertyCookie {
	return xproto.GetProperty(x.conn, false, w, x.atom(name), typ, 0, 1<<16)
}

func cardinals(r *xproto.GetPropertyReply, err error) []uint32 {
	if err != nil || r == nil || r.Format != 32 {
		return nil
	}
	out := make([]uint32, r.ValueLen)
	for i := range out {
		out[i] = xgb.Get32(r.Value[4*i:])
	}
	return out
}

func text(r *xproto.GetPropertyReply, err error) string {
	if err != nil || r == nil || r.Format != 8 {
		return ""
	}
	return string(r.Value)
}

func (x *x11) Monitors() ([]Monitor, error) {
	if x.isClosed() {
		return nil, errClosed
	}
	rects, err := x.xc.Monitors() // the primary first
	if err != nil {
		return nil, fmt.Errorf("desktop: %w", err)
	}
	work := x.workArea()
	out := make([]Monitor, len(rects))
	for i, r := range rects {
		out[i] = Monitor{Bounds: r, WorkArea: r, Primary: i == 0}
		if w := r.Intersect(work); !work.Empty() && !w.Empty() {
			out[i].WorkArea = w
		}
	}
	return out, nil
}

// workArea reads _NET_WORKAREA for the current desktop; empty when the
// window manager sets none.
func (x *x11) workArea() image.Rectangle {
	cur := x.prop(x.root, "_NET_CURRENT_DESKTOP", xproto.AtomCardinal)
	wa := x.prop(x.root, "_NET_WORKAREA", xproto.AtomCardinal)
	desk := 0
	if c := cardinals(cur.Reply()); len(c) > 0 {
		desk = int(c[0])
	}
	v := cardinals(wa.Reply())
	if len(v) < 4*(desk+1) {
		desk = 0
	}
	if len(v) < 4 {
		return image.Rectangle{}
	}
	a := v[4*desk:]
	return image.Rect(int(int32(a[0])), int(int32(a[1])), int(int32(a[0]))+int(a[2]), int(int32(a[1]))+int(a[3]))
}

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

// UserIdle implements IdleReader through the screensaver extension.
func (x *x11) UserIdle() (time.Duration, error) {
	if x.isClosed() {
		return 0, errClosed
	}
	if !x.saver {
		return 0, ErrUnsupported
	}
	r, err := screensaver.QueryInfo(x.conn, xproto.Drawable(x.root)).Reply()
	if err != nil {
		return 0, fmt.Errorf("desktop: idle time: %w", err)
	}
	return time.Duration(r.MsSinceUserInput) * time.Millisecond, nil
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

func (x *x11) isClosed() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.closed
}

func (x *x11) Close() error {
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return nil
	}
	x.closed = true
	for _, list := range x.watches {
		for _, w := range list {
			w.stopped.Store(true)
		}
	}
	x.watches = map[xproto.Window][]*x11Watch{}
	x.mu.Unlock()
	x.unsubscribe()
	if x.own {
		return x.xc.Close()
	}
	return nil
}
