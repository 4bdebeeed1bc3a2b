//go:build (linux || freebsd || openbsd || netbsd) && !android

package dbustest

import (
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

const (
	mutterPath  = dbus.ObjectPath("/org/gnome/Mutter/IdleMonitor/Core")
	mutterIface = "org.gnome.Mutter.IdleMonitor"
)

// IdleMonitor is a fake of GNOME Shell's org.gnome.Mutter.IdleMonitor
// (Mutter's meta-idle-monitor-dbus): GetIdletime in milliseconds; idle
// watches that fire WatchFired each time the idle time reaches their
// interval and stay; user-active watches that fire once at the next input
// and are gone.
type IdleMonitor struct {
	conn *dbus.Conn

	mu     sync.Mutex
	idle   time.Duration
	reads  int
	next   uint32
	idles  map[uint32]time.Duration
	active map[uint32]bool
}

// ServeIdleMonitor serves the fake on the bus at addr until the test ends.
func ServeIdleMonitor(t testing.TB, addr string) *IdleMonitor {
	t.Helper()
	m := &IdleMonitor{conn: Connect(t, addr), idles: map[uint32]time.Duration{}, active: map[uint32]bool{}}
	if err := m.conn.Export(idleObject{m}, mutterPath, mutterIface); err != nil {
		t.Fatal(err)
	}
	own(t, m.conn, "org.gnome.Mutter.IdleMonitor")
	return m
}

// IdleFor sets the idle time to d, firing the idle watches it reaches.
func (m *IdleMonitor) IdleFor(d time.Duration) {
	m.mu.Lock()
	var fire []uint32
	for id, iv := range m.idles {
		if m.idle < iv && d >= iv {
			fire = append(fire, id)
		}
	}
	m.idle = d
	m.mu.Unlock()
	m.fire(fire)
}

// Input is the user touching a key: the idle time is 0 and the
// user-active watches fire.
func (m *IdleMonitor) Input() {
	m.mu.Lock()
	m.idle = 0
	var fire []uint32
	for id := range m.active {
		fire = append(fire, id)
		delete(m.active, id)
	}
	m.mu.Unlock()
	m.fire(fire)
}

// Watches returns how many watches are set, idle and user-active.
func (m *IdleMonitor) Watches() (idle, active int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.idles), len(m.active)
}

func (m *IdleMonitor) fire(ids []uint32) {
	for _, id := range ids {
		_ = m.conn.Emit(mutterPath, mutterIface+".WatchFired", id)
	}
}

type idleObject struct{ m *IdleMonitor }

// Reads is how many times GetIdletime was called.
func (m *IdleMonitor) Reads() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reads
}

func (o idleObject) GetIdletime() (uint64, *dbus.Error) {
	o.m.mu.Lock()
	defer o.m.mu.Unlock()
	o.m.reads++
	return uint64(o.m.idle / time.Millisecond), nil
}

func (o idleObject) AddIdleWatch(interval uint64) (uint32, *dbus.Error) {
	o.m.mu.Lock()
	defer o.m.mu.Unlock()
	o.m.next++
	o.m.idles[o.m.next] = time.Duration(interval) * time.Millisecond
	return o.m.next, nil
}

func (o idleObject) AddUserActiveWatch() (uint32, *dbus.Error) {
	o.m.mu.Lock()
	defer o.m.mu.Unlock()
	o.m.next++
	o.m.active[o.m.next] = true
	return o.m.next, nil
}

func (o idleObject) RemoveWatch(id uint32) *dbus.Error {
	o.m.mu.Lock()
	defer o.m.mu.Unlock()
	delete(o.m.idles, id)
	delete(o.m.active, id)
	return nil
}

// ServeScreenSaverNotSupported serves a fake org.freedesktop.ScreenSaver whose
// GetSessionIdleTime answers as KDE's kscreenlocker does on Wayland:
// org.freedesktop.DBus.Error.NotSupported.
func ServeScreenSaverNotSupported(t testing.TB, addr string) {
	t.Helper()
	conn := Connect(t, addr)
	if err := conn.Export(saverObject{}, "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver"); err != nil {
		t.Fatal(err)
	}
	own(t, conn, "org.freedesktop.ScreenSaver")
}

type saverObject struct{}

func (saverObject) GetSessionIdleTime() (uint32, *dbus.Error) {
	return 0, dbus.NewError("org.freedesktop.DBus.Error.NotSupported", []any{"GetSessionIdleTime is not supported on this platform"})
}
