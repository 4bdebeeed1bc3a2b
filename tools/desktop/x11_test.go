//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"image"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/tools/internal/xvfbtest"
)

// client is a second X client that plays the window manager's and an
// application's part.
type client struct {
	t    *testing.T
	conn *xgb.Conn
	root xproto.Window
}

func (c *client) atom(name string) xproto.Atom {
	r, err := xproto.InternAtom(c.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		c.t.Fatal(err)
	}
	return r.Atom
}

func (c *client) set(w xproto.Window, prop string, typ xproto.Atom, format byte, data []byte) {
	n := uint32(len(data))
	if format == 32 {
		n /= 4
	}
	if err := xproto.ChangePropertyChecked(c.conn, xproto.PropModeReplace, w, c.atom(prop), typ, format, n, data).Check(); err != nil {
		c.t.Fatal(err)
	}
}

func u32s(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		xgb.Put32(b[4*i:], v)
	}
	return b
}

func (c *client) window(r image.Rectangle, title, class string) xproto.Window {
	id, err := xproto.NewWindowId(c.conn)
	if err != nil {
		c.t.Fatal(err)
	}
	s := xproto.Setup(c.conn).DefaultScreen(c.conn)
	if err := xproto.CreateWindowChecked(c.conn, s.RootDepth, id, c.root, int16(r.Min.X), int16(r.Min.Y),
		uint16(r.Dx()), uint16(r.Dy()), 0, xproto.WindowClassInputOutput, s.RootVisual, 0, nil).Check(); err != nil {
		c.t.Fatal(err)
	}
	c.set(id, "_NET_WM_NAME", c.atom("UTF8_STRING"), 8, []byte(title))
	c.set(id, "WM_CLASS", xproto.AtomString, 8, []byte(class+"\x00"+class+"\x00"))
	if err := xproto.MapWindowChecked(c.conn, id).Check(); err != nil {
		c.t.Fatal(err)
	}
	return id
}

func waitChange(t *testing.T, ch <-chan Change, kind ChangeKind) Change {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case c := <-ch:
			if c.Kind == kind {
				return c
			}
		case <-deadline:
			t.Fatalf("no %s change", kind)
		}
	}
}

// openUnderXvfb starts an Xvfb for the test and returns a second client
// on it and the desktop layer, both closed when the test ends.
func openUnderXvfb(t *testing.T) (*client, *x11) {
	xvfbtest.Start(t, "1280x800x24")
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	d, err := Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return &client{t: t, conn: conn, root: xproto.Setup(conn).DefaultScreen(conn).Root}, d.(*x11)
}

func TestX11UnderXvfb(t *testing.T) {
	c, d := openUnderXvfb(t)
	conn := c.conn

	// No window manager: the root's mapped children are the windows.
	notes := c.window(image.Rect(100, 200, 500, 500), "Shopping", "Notes")
	ws, err := d.Windows()
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].ID != ID(notes) || ws[0].Title != "Shopping" || ws[0].App != "Notes" ||
		ws[0].Frame != image.Rect(100, 200, 500, 500) || ws[0].Minimized || !ws[0].Normal {
		t.Fatalf("bare windows %+v", ws)
	}
	ms, err := d.Monitors()
	if err != nil || len(ms) != 1 || ms[0].Bounds != image.Rect(0, 0, 1280, 800) || ms[0].WorkArea != ms[0].Bounds || !ms[0].Primary {
		t.Fatalf("monitors %+v %v", ms, err)
	}

	// EWMH, as a window manager keeps it.
	hidden := c.window(image.Rect(0, 0, 50, 50), "", "Hidden")
	c.set(hidden, "WM_NAME", xproto.AtomString, 8, []byte("legacy title"))
	c.set(hidden, "_NET_WM_STATE", xproto.AtomAtom, 32, u32s(uint32(c.atom("_NET_WM_STATE_HIDDEN"))))
	c.set(notes, "_NET_FRAME_EXTENTS", xproto.AtomCardinal, 32, u32s(2, 3, 20, 4))
	c.set(notes, "_NET_WM_PID", xproto.AtomCardinal, 32, u32s(4321))
	c.set(c.root, "_NET_CLIENT_LIST", xproto.AtomWindow, 32, u32s(uint32(hidden), uint32(notes)))
	// Bottom first: Notes is raised above Hidden, so it comes first.
	c.set(c.root, "_NET_CLIENT_LIST_STACKING", xproto.AtomWindow, 32, u32s(uint32(hidden), uint32(notes)))
	c.set(c.root, "_NET_WORKAREA", xproto.AtomCardinal, 32, u32s(0, 0, 1280, 760))
	c.set(c.root, "_NET_ACTIVE_WINDOW", xproto.AtomWindow, 32, u32s(uint32(notes)))
	ws, err = d.Windows()
	if err != nil || len(ws) != 2 {
		t.Fatalf("EWMH windows %+v %v", ws, err)
	}
	if w := ws[0]; w.Frame != image.Rect(98, 180, 503, 504) || w.PID != 4321 {
		t.Fatalf("framed window %+v", w)
	}
	if w := ws[1]; !w.Minimized || w.Title != "legacy title" || w.App != "Hidden" {
		t.Fatalf("hidden window %+v", w)
	}
	if ms, _ := d.Monitors(); ms[0].WorkArea != image.Rect(0, 0, 1280, 760) {
		t.Fatalf("work area %v", ms[0].WorkArea)
	}
	if a, ok, err := d.Active(); err != nil || !ok || a.ID != ID(notes) {
		t.Fatalf("active %+v %v %v", a, ok, err)
	}
	// The life scheduler's read: the active window's id, title and
	// application (WM_CLASS's class part), nothing else.
	c.set(notes, "WM_CLASS", xproto.AtomString, 8, []byte("notes\x00Notes\x00"))
	if a, ok, err := d.ActiveName(); err != nil || !ok || a != (Window{ID: ID(notes), Title: "Shopping", App: "Notes"}) {
		t.Fatalf("active name %+v %v %v", a, ok, err)
	}
	// Do-not-disturb's read: the same windows and states, no names or
	// frame extents, and the active window's id.
	sts, active, err := d.WindowStates()
	if err != nil || active != ID(notes) || len(sts) != 2 {
		t.Fatalf("window states %+v, active %v, %v", sts, active, err)
	}
	if w := sts[0]; w.ID != ID(notes) || w.Frame != image.Rect(100, 200, 500, 500) || w.PID != 4321 || w.Title != "" || w.App != "" || w.Minimized || !w.Normal {
		t.Fatalf("framed window's state %+v", w)
	}
	if w := sts[1]; w.ID != ID(hidden) || !w.Minimized {
		t.Fatalf("hidden window's state %+v", w)
	}

	// Watch: a move, a minimise, a close.
	ch := make(chan Change, 16)
	stop, err := d.Watch(ID(notes), func(c Change) { ch <- c })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	xproto.ConfigureWindow(conn, notes, xproto.ConfigWindowX|xproto.ConfigWindowY, []uint32{300, 250})
	if got := waitChange(t, ch, Moved); got.Window.Frame != image.Rect(298, 230, 703, 554) {
		t.Fatalf("moved to %v", got.Window.Frame)
	}
	// Client-side decorations: the shadow drawn inside the X window is
	// not part of the visible frame; the change is a move to the watch.
	c.set(notes, "_GTK_FRAME_EXTENTS", xproto.AtomCardinal, 32, u32s(10, 12, 8, 14))
	if got := waitChange(t, ch, Moved); got.Window.Frame != image.Rect(298+10, 230+8, 703-12, 554-14) {
		t.Fatalf("with _GTK_FRAME_EXTENTS: %v", got.Window.Frame)
	}
	xproto.UnmapWindow(conn, notes)
	waitChange(t, ch, Minimized)
	xproto.MapWindow(conn, notes)
	xproto.DestroyWindow(conn, notes)
	if got := waitChange(t, ch, Closed); got.Window.ID != ID(notes) {
		t.Fatalf("closed %+v", got)
	}
	if _, err := d.Watch(ID(notes), func(Change) {}); err == nil {
		t.Fatal("watching a destroyed window succeeded")
	}
}

func TestVisibleFrame(t *testing.T) {
	r := image.Rect(100, 100, 500, 400)
	for _, c := range []struct {
		net, gtk []uint32
		want     image.Rectangle
	}{
		{nil, nil, r},
		{[]uint32{2, 3, 20, 4}, nil, image.Rect(98, 80, 503, 404)},
		{nil, []uint32{23, 23, 15, 31}, image.Rect(123, 115, 477, 369)},
		{[]uint32{0, 0, 0, 0}, []uint32{23, 23, 15, 31}, image.Rect(123, 115, 477, 369)},
		{nil, []uint32{300, 300, 0, 0}, r},     // a shadow wider than the window: ignored
		{nil, []uint32{1 << 31, 0, 0, 0}, r},   // garbage: ignored
		{[]uint32{1, 2}, []uint32{1, 2, 3}, r}, // short: ignored
	} {
		if got := visibleFrame(r, c.net, c.gtk); got != c.want {
			t.Errorf("visibleFrame(%v, %v, %v) = %v, want %v", r, c.net, c.gtk, got, c.want)
		}
	}
}

// FuzzVisibleFrame: any property values give a rectangle, never a panic;
// one that is not empty when the window is not.
func FuzzVisibleFrame(f *testing.F) {
	f.Add(uint32(2), uint32(3), uint32(20), uint32(4), uint32(26), uint32(26), uint32(23), uint32(29))
	f.Add(uint32(1<<31), uint32(0), uint32(0), uint32(0), uint32(1<<32-1), uint32(5), uint32(0), uint32(0))
	f.Fuzz(func(t *testing.T, n0, n1, n2, n3, g0, g1, g2, g3 uint32) {
		r := image.Rect(100, 100, 500, 400)
		got := visibleFrame(r, []uint32{n0, n1, n2, n3}, []uint32{g0, g1, g2, g3})
		if got.Empty() {
			t.Fatalf("visibleFrame(%v, %v, %v) is empty", r, []uint32{n0, n1, n2, n3}, []uint32{g0, g1, g2, g3})
		}
	})
}

// waitCounted waits until d has counted more than n changes and returns
// the count.
func waitCounted(t *testing.T, d *x11, n uint64) uint64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for ; time.Now().Before(deadline); <-tick.C {
		if got := d.Changes(); got > n {
			return got
		}
	}
	t.Fatalf("no change counted past %d", n)
	return 0
}

// Do-not-disturb reads the windows again only after a change the desktop
// counts (quiet.go): top-level windows made, mapped, moved and destroyed,
// and the root's properties, but not a client's own properties.
func TestX11CountsChanges(t *testing.T) {
	c, d := openUnderXvfb(t)
	conn := c.conn

	n := d.Changes() // asks for the root's events
	notes := c.window(image.Rect(100, 200, 500, 500), "Shopping", "Notes")
	n = waitCounted(t, d, n)
	xproto.ConfigureWindowChecked(conn, notes, xproto.ConfigWindowX, []uint32{300}).Check()
	n = waitCounted(t, d, n)
	c.set(c.root, "_NET_ACTIVE_WINDOW", xproto.AtomWindow, 32, u32s(uint32(notes)))
	n = waitCounted(t, d, n)
	xproto.DestroyWindowChecked(conn, notes).Check()
	waitCounted(t, d, n)
}

// Which events count: the root's own, not a window's that comes to its
// watch (its StructureNotify), nor a client's property.
func TestX11RootChange(t *testing.T) {
	const root, win, frame = xproto.Window(1), xproto.Window(50), xproto.Window(60)
	x := &x11{root: root}
	for _, tc := range []struct {
		name string
		ev   xgb.Event
		want bool
	}{
		{"a top-level window moved", xproto.ConfigureNotifyEvent{Event: root, Window: frame}, true},
		{"the same, to the window's own watch", xproto.ConfigureNotifyEvent{Event: frame, Window: frame}, false},
		{"mapped", xproto.MapNotifyEvent{Event: root, Window: win}, true},
		{"unmapped, to its watch", xproto.UnmapNotifyEvent{Event: win, Window: win}, false},
		{"unmapped", xproto.UnmapNotifyEvent{Event: root, Window: win}, true},
		{"made", xproto.CreateNotifyEvent{Parent: root, Window: win}, true},
		{"made inside another", xproto.CreateNotifyEvent{Parent: frame, Window: win}, false},
		{"reparented into a frame", xproto.ReparentNotifyEvent{Event: root, Window: win, Parent: frame}, true},
		{"restacked", xproto.CirculateNotifyEvent{Event: root, Window: win}, true},
		{"destroyed", xproto.DestroyNotifyEvent{Event: root, Window: win}, true},
		{"the active window", xproto.PropertyNotifyEvent{Window: root}, true},
		{"a client's title", xproto.PropertyNotifyEvent{Window: win}, false},
		{"a key", xproto.KeyPressEvent{Root: root, Event: root}, false},
	} {
		if got := x.rootChange(tc.ev); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
