//go:build (linux || freebsd || openbsd || netbsd) && !android

// Package wltest is a fake Wayland compositor for tests of Yui's own
// Wayland connection (tools/desktop/idle_wayland.go): it lists a seat and
// ext_idle_notifier_v1 (or only a seat), answers sync, and sends a
// notification's idled and resumed when the test says. Only tests import
// it.
package wltest

import (
	"encoding/binary"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var order = binary.NativeEndian

// Compositor is the fake; Name is its socket's name in Dir (the
// WAYLAND_DISPLAY and XDG_RUNTIME_DIR a client uses).
type Compositor struct {
	Dir, Name string
	l         net.Listener
	notifier  bool

	mu     sync.Mutex
	conn   net.Conn
	notifs map[uint32]time.Duration // live notifications: id → timeout
	wg     sync.WaitGroup

	// Made has each notification's timeout as the client asks for it;
	// Destroyed each one the client destroys.
	Made, Destroyed chan time.Duration
}

// Start serves one client until the test ends; notifier false leaves
// ext_idle_notifier_v1 out of the globals (a compositor without it).
func Start(t testing.TB, notifier bool) *Compositor {
	t.Helper()
	c := &Compositor{Dir: t.TempDir(), Name: "wayland-test", notifier: notifier,
		notifs: map[uint32]time.Duration{},
		Made:   make(chan time.Duration, 16), Destroyed: make(chan time.Duration, 16)}
	l, err := net.Listen("unix", filepath.Join(c.Dir, c.Name))
	if err != nil {
		t.Fatal(err)
	}
	c.l = l
	c.wg.Add(1)
	go c.serve()
	t.Cleanup(func() {
		l.Close()
		c.mu.Lock()
		if c.conn != nil {
			c.conn.Close()
		}
		c.mu.Unlock()
		c.wg.Wait()
	})
	return c
}

func (c *Compositor) serve() {
	defer c.wg.Done()
	conn, err := c.l.Accept()
	if err != nil {
		return
	}
	c.mu.Lock()
	c.conn = conn
	c.mu.Unlock()
	var registry, notifier uint32
	for {
		obj, op, args, err := read(conn)
		if err != nil {
			return
		}
		switch {
		case obj == 1 && op == 1: // get_registry
			registry = u(args, 0)
			c.send(registry, 0, uint32Arg(1), stringArg("wl_seat"), uint32Arg(7))
			if c.notifier {
				c.send(registry, 0, uint32Arg(2), stringArg("ext_idle_notifier_v1"), uint32Arg(1))
			}
		case obj == 1 && op == 0: // sync
			c.send(u(args, 0), 0, uint32Arg(0))
		case obj == registry && op == 0: // bind: name, interface, version, id
			if u(args, 0) == 2 {
				n := u(args, 4)
				notifier = u(args, 4+4+int((n+3)&^3)+4)
			}
		case obj == notifier && notifier != 0 && op == 1: // get_idle_notification
			to := time.Duration(u(args, 4)) * time.Millisecond
			c.mu.Lock()
			c.notifs[u(args, 0)] = to
			c.mu.Unlock()
			c.Made <- to
		default: // a notification's destroy
			c.mu.Lock()
			to, ok := c.notifs[obj]
			if ok && op == 0 {
				delete(c.notifs, obj)
			}
			c.mu.Unlock()
			if ok && op == 0 {
				c.Destroyed <- to
			}
		}
	}
}

// Notifications returns the live notifications' timeouts.
func (c *Compositor) Notifications() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []time.Duration
	for _, d := range c.notifs {
		out = append(out, d)
	}
	return out
}

// Idle sends idled to each notification whose timeout is at most d: the
// user has not touched anything for d.
func (c *Compositor) Idle(d time.Duration) {
	c.mu.Lock()
	var ids []uint32
	for id, to := range c.notifs {
		if to <= d {
			ids = append(ids, id)
		}
	}
	c.mu.Unlock()
	for _, id := range ids {
		c.send(id, 0)
	}
}

// Input sends resumed to every notification: the user touched a key.
func (c *Compositor) Input() {
	c.mu.Lock()
	var ids []uint32
	for id := range c.notifs {
		ids = append(ids, id)
	}
	c.mu.Unlock()
	for _, id := range ids {
		c.send(id, 1)
	}
}

func (c *Compositor) send(obj uint32, op uint16, args ...[]byte) {
	var body []byte
	for _, a := range args {
		body = append(body, a...)
	}
	b := make([]byte, 8, 8+len(body))
	order.PutUint32(b, obj)
	order.PutUint32(b[4:], uint32(8+len(body))<<16|uint32(op))
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	if conn != nil {
		_, _ = conn.Write(append(b, body...))
	}
}

func read(r io.Reader) (uint32, uint16, []byte, error) {
	var h [8]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return 0, 0, nil, err
	}
	w := order.Uint32(h[4:])
	args := make([]byte, int(w>>16)-8)
	if _, err := io.ReadFull(r, args); err != nil {
		return 0, 0, nil, err
	}
	return order.Uint32(h[:]), uint16(w), args, nil
}

func u(b []byte, off int) uint32 {
	if off+4 > len(b) {
		return 0
	}
	return order.Uint32(b[off:])
}

func uint32Arg(v uint32) []byte { return order.AppendUint32(nil, v) }

func stringArg(s string) []byte {
	b := order.AppendUint32(nil, uint32(len(s)+1))
	b = append(append(b, s...), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}
