//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"io"
	"testing"
	"time"

	"yui/tools/internal/wltest"
	"yui/transport/clock/clocktest"
)

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s", what)
	}
	var zero T
	return zero
}

// On KDE Plasma's Wayland (no idle time on the session bus) the idle time
// comes from ext-idle-notify on Yui's own Wayland connection: 0 while the
// user is active, counted from the idled event's time minus its timeout.
func TestWaylandIdleReadsExtIdleNotify(t *testing.T) {
	c := wltest.Start(t, true)
	bus := "unix:path=" + c.Dir + "/no-bus"
	r, closeIdle := SessionIdle(noIdle{}, Session{Wayland: true, Desktops: []string{"kde"}, Display: c.Name, RuntimeDir: c.Dir}, bus, nil)
	defer closeIdle()
	w, ok := r.(*WaylandIdle)
	if !ok {
		t.Fatalf("idle reader = %T", r)
	}
	if to := recv(t, c.Made, "notification"); to != idlePrecision {
		t.Fatalf("UserIdle's notification times out after %v", to)
	}
	// Unknown until the first timeout passed, then 0 without idled.
	start := time.Unix(1000, 0)
	w.mu.Lock()
	w.base.made = start
	w.now = func() time.Time { return start.Add(500 * time.Millisecond) }
	w.mu.Unlock()
	if _, err := w.UserIdle(); err == nil {
		t.Fatal("idle time known before the first timeout")
	}
	w.mu.Lock()
	w.now = func() time.Time { return start.Add(idlePrecision) }
	w.mu.Unlock()
	if d, err := w.UserIdle(); err != nil || d != 0 {
		t.Fatalf("idle after a timeout without idled = %v, %v", d, err)
	}
	base := time.Unix(2000, 0)
	changed := make(chan bool, 4)
	w.mu.Lock()
	w.now = func() time.Time { return base }
	w.base.f = func(idle bool) { changed <- idle }
	w.mu.Unlock()
	c.Idle(time.Second)
	recv(t, changed, "idled")
	w.mu.Lock()
	w.now = func() time.Time { return base.Add(41 * time.Second) }
	w.mu.Unlock()
	if d, _ := w.UserIdle(); d != 42*time.Second {
		t.Fatalf("idle = %v, want 42s", d)
	}
	c.Input()
	recv(t, changed, "resumed")
	if d, _ := w.UserIdle(); d != 0 {
		t.Fatalf("idle after input = %v", d)
	}
}

// Away follows an ext-idle-notify notification with the away threshold:
// no polling; Close destroys it.
func TestAwayFollowsExtIdleNotify(t *testing.T) {
	c := wltest.Start(t, true)
	w, err := OpenWaylandIdle(c.Dir, c.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	recv(t, c.Made, "UserIdle's notification")
	clk := clocktest.NewFake(time.Unix(0, 0))
	changes := make(chan bool, 4)
	a := NewAway(w, clk, 5*time.Minute, func(away bool) { changes <- away })
	if to := recv(t, c.Made, "Away's notification"); to != 5*time.Minute {
		t.Fatalf("Away's notification times out after %v", to)
	}
	if clk.Armed() != 0 {
		t.Fatal("Away polls although the compositor notifies")
	}
	c.Idle(5 * time.Minute)
	if !next(t, changes) || !a.Away() {
		t.Fatal("not away after idled")
	}
	c.Input()
	if next(t, changes) || a.Away() {
		t.Fatal("not back after resumed")
	}
	a.Close()
	if to := recv(t, c.Destroyed, "the notification destroyed"); to != 5*time.Minute {
		t.Fatalf("destroyed the %v notification", to)
	}
}

// A compositor without ext-idle-notify: the layer's XWayland count, as
// before.
func TestNoExtIdleNotifyFallsBack(t *testing.T) {
	c := wltest.Start(t, false)
	if _, err := OpenWaylandIdle(c.Dir, c.Name, nil); err == nil {
		t.Fatal("opened without a notifier")
	}
	d := idleFake{nil, time.Second}
	r, closeIdle := SessionIdle(d, Session{Wayland: true, Desktops: []string{"sway"}, Display: "gone", RuntimeDir: c.Dir}, "unix:path="+c.Dir+"/no-bus", nil)
	defer closeIdle()
	if _, ok := r.(idleFake); !ok {
		t.Fatalf("idle reader = %T", r)
	}
}

func FuzzReadWL(f *testing.F) {
	f.Add(wlMessage{object: 3, opcode: 0, args: new(wlArgs).uint(2).string("ext_idle_notifier_v1").uint(1).b}.encode())
	f.Add([]byte{1, 0, 0, 0, 0, 0, 8, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := readWL(bytesReader(b))
		if err != nil {
			return
		}
		r := &wlReader{b: m.args}
		for r.err == nil && len(r.b) > 0 {
			r.string()
		}
	})
}

type sliceReader struct{ b []byte }

func (s *sliceReader) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.b)
	s.b = s.b[n:]
	return n, nil
}

func bytesReader(b []byte) io.Reader { return &sliceReader{b} }
