//go:build (linux || freebsd || openbsd || netbsd) && !android

package xconn

import (
	"image"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/tools/internal/xvfbtest"
)

const wait = 10 * time.Second

func TestConnUnderXvfb(t *testing.T) {
	xvfbtest.Start(t, "1280x800x24")
	c, err := Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	ms, err := c.Monitors()
	if err != nil || len(ms) != 1 || ms[0] != image.Rect(0, 0, 1280, 800) {
		t.Fatalf("monitors %v %v, want the root's 1280x800", ms, err)
	}
	if a, b := c.Atom("_NET_WM_STATE"), c.Atom("_NET_WM_STATE"); a == 0 || a != b {
		t.Fatalf("atoms %d %d", a, b)
	}

	// Every subscriber sees each event; one that left sees none.
	got := make(chan xgb.Event, 4)
	var left atomic.Int32
	stop1 := c.Subscribe(func(ev xgb.Event) { got <- ev })
	stop2 := c.Subscribe(func(ev xgb.Event) { left.Add(1) })
	stop2()
	stop2() // twice is fine
	defer stop1()
	win, err := xproto.NewWindowId(c.X())
	if err != nil {
		t.Fatal(err)
	}
	xproto.CreateWindow(c.X(), 0, win, c.Root(), 0, 0, 10, 10, 0, xproto.WindowClassInputOutput, 0,
		xproto.CwEventMask, []uint32{xproto.EventMaskStructureNotify})
	xproto.MapWindow(c.X(), win)
	select {
	case ev := <-got:
		if _, ok := ev.(xproto.MapNotifyEvent); !ok {
			t.Fatalf("event %T, want MapNotify", ev)
		}
	case <-time.After(wait):
		t.Fatal("no event delivered")
	}
	if left.Load() != 0 {
		t.Fatal("an unsubscribed handler got events")
	}

	// Two watchers share one poller; both hear where the pointer is.
	xproto.WarpPointer(c.X(), 0, c.Root(), 0, 0, 0, 0, 300, 200)
	at := make(chan image.Point, 16)
	other := make(chan image.Point, 16)
	s1 := c.WatchPointer(10*time.Millisecond, func(p image.Point, ok bool) {
		if ok {
			select {
			case at <- p:
			default:
			}
		}
	})
	s2 := c.WatchPointer(10*time.Millisecond, func(p image.Point, ok bool) {
		select {
		case other <- p:
		default:
		}
	})
	for _, ch := range []chan image.Point{at, other} {
		select {
		case p := <-ch:
			if p != image.Pt(300, 200) {
				t.Fatalf("pointer at %v, want (300,200)", p)
			}
		case <-time.After(wait):
			t.Fatal("no pointer position delivered")
		}
	}
	s1()
	s2()
	c.ptr.mu.Lock()
	running := c.ptr.stop != nil
	c.ptr.mu.Unlock()
	if running {
		t.Fatal("the poller runs with nobody watching")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// After Close, requests fail instead of hanging or panicking.
	if _, err := c.Pointer(); err == nil {
		t.Fatal("Pointer after Close succeeded")
	}
	c.WatchPointer(time.Millisecond, func(image.Point, bool) {})()
}
