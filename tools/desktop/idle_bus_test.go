//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"testing"
	"time"

	"yui/tools/internal/dbustest"
	"yui/transport/clock/clocktest"
)

var gnomeWayland = Session{Wayland: true, Desktops: []string{"gnome"}}

// On GNOME Wayland the idle time is Mutter's, which counts input to
// native windows too.
// idleFake is a desktop layer that counts the idle time itself (the X11
// layer's XScreenSaver count, XWayland's on Wayland). The tests here only
// ask SessionIdle which reader it picks, never the layer's windows, so the
// Desktop is left nil.
type idleFake struct {
	Desktop
	idle time.Duration
}

func (f idleFake) UserIdle() (time.Duration, error) { return f.idle, nil }

// noIdle is a desktop layer with no idle count of its own.
type noIdle struct{ Desktop }

func TestBusIdleReadsMutter(t *testing.T) {
	addr := dbustest.Start(t)
	m := dbustest.ServeIdleMonitor(t, addr)
	r, closeIdle := SessionIdle(noIdle{}, gnomeWayland, addr, nil)
	defer closeIdle()
	b, ok := r.(*BusIdle)
	if !ok || b.Source() != "org.gnome.Mutter.IdleMonitor" {
		t.Fatalf("idle reader = %T", r)
	}
	// The idle time follows Mutter's watches: no call each read.
	changed := make(chan bool, 4)
	base := time.Unix(1000, 0)
	b.mu.Lock()
	b.now = func() time.Time { return base }
	b.baseHook = func(idle bool) { changed <- idle }
	b.mu.Unlock()
	reads := m.Reads()
	m.IdleFor(time.Second)
	if !next(t, changed) {
		t.Fatal("not idle after the watch fired")
	}
	b.mu.Lock()
	b.now = func() time.Time { return base.Add(41 * time.Second) }
	b.mu.Unlock()
	if d, err := r.UserIdle(); err != nil || d != 42*time.Second {
		t.Fatalf("idle = %v, %v", d, err)
	}
	m.Input()
	if next(t, changed) {
		t.Fatal("still idle after input")
	}
	if d, err := r.UserIdle(); err != nil || d != 0 {
		t.Fatalf("idle after input = %v, %v", d, err)
	}
	if m.Reads() != reads {
		t.Fatalf("%d calls of GetIdletime for reads a watch answers", m.Reads()-reads)
	}
}

// A user idle at start reads their whole idle time, from the one call
// at start.
func TestBusIdleAtStart(t *testing.T) {
	addr := dbustest.Start(t)
	m := dbustest.ServeIdleMonitor(t, addr)
	m.IdleFor(10 * time.Minute)
	b, err := OpenBusIdle(gnomeWayland, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if d, err := b.UserIdle(); err != nil || d < 10*time.Minute || d > 10*time.Minute+time.Minute {
		t.Fatalf("idle = %v, %v", d, err)
	}
}

// Away follows Mutter's watches: away when the idle watch fires, back at
// the user-active watch, and no clock armed for polling; Close removes
// the watches.
func TestAwayFollowsMutterWatches(t *testing.T) {
	addr := dbustest.Start(t)
	m := dbustest.ServeIdleMonitor(t, addr)
	b, err := OpenBusIdle(gnomeWayland, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	clk := clocktest.NewFake(time.Unix(0, 0))
	changes := make(chan bool, 4)
	a := NewAway(b, clk, time.Minute, func(away bool) { changes <- away })
	if clk.Armed() != 0 {
		t.Fatal("Away polls although Mutter watches")
	}
	// UserIdle's watch (idlePrecision) and Away's.
	if idle, _ := m.Watches(); idle != 2 {
		t.Fatalf("%d idle watches", idle)
	}
	m.IdleFor(time.Minute)
	if got := next(t, changes); !got || !a.Away() {
		t.Fatal("not away after the idle watch fired")
	}
	m.Input()
	if got := next(t, changes); got || a.Away() {
		t.Fatal("not back after input")
	}
	// The idle watch stays: a second absence is seen too.
	m.IdleFor(2 * time.Minute)
	if !next(t, changes) {
		t.Fatal("second absence missed")
	}
	a.Close()
	if idle, active := m.Watches(); idle != 1 || active > 1 {
		t.Fatalf("watches left after Close: %d idle, %d active (UserIdle's are one of each at most)", idle, active)
	}
}

// A user already idle past the threshold at start is away at once.
func TestAwayAtStartFromMutter(t *testing.T) {
	addr := dbustest.Start(t)
	m := dbustest.ServeIdleMonitor(t, addr)
	m.IdleFor(10 * time.Minute)
	b, err := OpenBusIdle(gnomeWayland, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	changes := make(chan bool, 4)
	a := NewAway(b, clocktest.NewFake(time.Unix(0, 0)), 5*time.Minute, func(away bool) { changes <- away })
	defer a.Close()
	if !next(t, changes) || !a.Away() {
		t.Fatal("not away at start")
	}
}

// On KDE Plasma Wayland the ScreenSaver answers NotSupported and there is
// no Mutter: the idle time is the layer's XWayland count, as before.
func TestKDEWaylandFallsBack(t *testing.T) {
	addr := dbustest.Start(t)
	dbustest.ServeScreenSaverNotSupported(t, addr)
	d := idleFake{nil, 7 * time.Second}
	r, closeIdle := SessionIdle(d, Session{Wayland: true, Desktops: []string{"kde"}}, addr, nil)
	defer closeIdle()
	if _, ok := r.(idleFake); !ok {
		t.Fatalf("idle reader = %T, want the layer's", r)
	}
}

// Outside Wayland the layer's idle time is used and the bus is not asked.
func TestX11KeepsItsIdle(t *testing.T) {
	d := idleFake{nil, time.Second}
	r, closeIdle := SessionIdle(d, Session{Desktops: []string{"gnome"}}, "unix:path=/nonexistent", nil)
	defer closeIdle()
	if _, ok := r.(idleFake); !ok {
		t.Fatalf("idle reader = %T", r)
	}
	if r, _ := SessionIdle(nil, Session{}, "", nil); r != nil {
		t.Fatal("no desktop, yet an idle reader")
	}
}

func TestDetectSession(t *testing.T) {
	for _, tc := range []struct {
		env     map[string]string
		wayland bool
		gnome   bool
		kde     bool
	}{
		{map[string]string{"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"}, true, true, false},
		{map[string]string{"XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"}, false, false, true},
		{map[string]string{"WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"}, true, false, true},
		{map[string]string{}, false, false, false},
	} {
		s := DetectSession(func(k string) string { return tc.env[k] })
		if s.Wayland != tc.wayland || s.GNOME() != tc.gnome || s.KDE() != tc.kde {
			t.Errorf("%v: %+v", tc.env, s)
		}
	}
}

func next(t *testing.T, ch <-chan bool) bool {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("no change")
		return false
	}
}
