//go:build (linux || freebsd || openbsd || netbsd) && !android

// Package xconn is the process's one X connection (pure Go,
// github.com/jezek/xgb), shared by the desktop layer (tools/desktop) and the
// pet windows' X11 shim (windows): one socket, one event loop, one atom
// cache, one monitor listing and one pointer poller, however many pets run.
//
// The event loop reads every event and the errors of unchecked requests
// (which xgb would otherwise queue until its buffer blocks) and hands each
// event to every subscriber, on its own goroutine: a subscriber picks the
// events it asked for (its window's, its grabbed key's) and must not block.
//
// Requests may come from any goroutine. After Close they fail (a reply is
// an error, an unchecked request goes nowhere); nothing panics.
package xconn

import (
	"fmt"
	"image"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/randr"
	"github.com/jezek/xgb/xproto"
)

// Conn is one X connection with its event loop. Build it with Open.
type Conn struct {
	log   *slog.Logger
	x     *xgb.Conn
	root  xproto.Window
	randr bool // RandR 1.5 monitors present

	atomMu sync.Mutex
	atoms  map[string]xproto.Atom

	mu     sync.Mutex // guards subs, next and closed
	subs   map[int]func(xgb.Event)
	next   int
	closed bool
	done   chan struct{} // closed when the event loop ends

	ptr pointerPoller
}

// Open connects to the display named by $DISPLAY. log nil discards.
func Open(log *slog.Logger) (*Conn, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	x, err := xgb.NewConn()
	if err != nil {
		return nil, fmt.Errorf("x11: connect: %w", err)
	}
	c := &Conn{
		log:   log,
		x:     x,
		root:  xproto.Setup(x).DefaultScreen(x).Root,
		atoms: map[string]xproto.Atom{},
		subs:  map[int]func(xgb.Event){},
		done:  make(chan struct{}),
	}
	if randr.Init(x) == nil {
		if v, err := randr.QueryVersion(x, 1, 5).Reply(); err == nil &&
			(v.MajorVersion > 1 || v.MinorVersion >= 5) {
			c.randr = true
		}
	}
	c.ptr.c = c
	go c.loop()
	return c, nil
}

// X is the xgb connection, for requests.
func (c *Conn) X() *xgb.Conn { return c.x }

// Root is the default screen's root window.
func (c *Conn) Root() xproto.Window { return c.root }

// RandR reports whether RandR 1.5 (monitors, screen-change events) is present.
func (c *Conn) RandR() bool { return c.randr }

// Atom returns the interned atom, cached for the connection's life; 0 when
// the server did not answer.
func (c *Conn) Atom(name string) xproto.Atom {
	c.atomMu.Lock()
	a, ok := c.atoms[name]
	c.atomMu.Unlock()
	if ok {
		return a
	}
	r, err := xproto.InternAtom(c.x, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0
	}
	c.atomMu.Lock()
	c.atoms[name] = r.Atom
	c.atomMu.Unlock()
	return r.Atom
}

// Subscribe hands every event to f, on the event loop's goroutine, until
// the returned function is called (safe to call twice).
func (c *Conn) Subscribe(f func(xgb.Event)) (unsubscribe func()) {
	c.mu.Lock()
	id := c.next
	c.next++
	c.subs[id] = f
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.subs, id)
		c.mu.Unlock()
	}
}

// loop reads events until the connection closes and hands each to the
// subscribers.
func (c *Conn) loop() {
	defer close(c.done)
	for {
		ev, err := c.x.WaitForEvent()
		if ev == nil && err == nil {
			return
		}
		if err != nil {
			c.log.Debug("x11 request failed", "err", err.Error())
			continue
		}
		c.mu.Lock()
		subs := make([]func(xgb.Event), 0, len(c.subs))
		for _, f := range c.subs {
			subs = append(subs, f)
		}
		c.mu.Unlock()
		for _, f := range subs {
			f(ev)
		}
	}
}

// Monitors returns the monitors' rectangles, the primary first: RandR 1.5's
// monitors where there are any, else the root window's size.
func (c *Conn) Monitors() ([]image.Rectangle, error) {
	if c.randr {
		r, err := randr.GetMonitors(c.x, c.root, true).Reply()
		if err == nil && len(r.Monitors) > 0 {
			ms := append([]randr.MonitorInfo(nil), r.Monitors...)
			sort.SliceStable(ms, func(i, j int) bool { return ms[i].Primary && !ms[j].Primary })
			out := make([]image.Rectangle, len(ms))
			for i, m := range ms {
				out[i] = image.Rect(int(m.X), int(m.Y), int(m.X)+int(m.Width), int(m.Y)+int(m.Height))
			}
			return out, nil
		}
	}
	g, err := xproto.GetGeometry(c.x, xproto.Drawable(c.root)).Reply()
	if err != nil {
		return nil, fmt.Errorf("x11: root geometry: %w", err)
	}
	return []image.Rectangle{image.Rect(0, 0, int(g.Width), int(g.Height))}, nil
}

// Pointer returns the pointer's position on the root window.
func (c *Conn) Pointer() (image.Point, error) {
	r, err := xproto.QueryPointer(c.x, c.root).Reply()
	if err != nil {
		return image.Point{}, fmt.Errorf("x11: pointer: %w", err)
	}
	return image.Pt(int(r.RootX), int(r.RootY)), nil
}

// WatchPointer calls f with the pointer's position (ok false when it could
// not be read) every period while the pointer moves, and a third as often
// once it has stood still for a second (pointerPace), from one poller goroutine that all watchers
// share and that runs only while one watches; the first watcher's period
// sets it. f must not block. The returned function stops the watch (safe to
// call twice).
func (c *Conn) WatchPointer(every time.Duration, f func(p image.Point, ok bool)) (stop func()) {
	return c.ptr.watch(every, f)
}

// Close closes the connection and waits for the event loop and the
// pointer poller to end. Safe to call twice.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.subs = map[int]func(xgb.Event){}
	c.mu.Unlock()
	c.ptr.close()
	c.x.Close()
	<-c.done
	return nil
}
