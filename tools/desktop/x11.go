//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"fmt"
	"image"
	"log/slog"
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
