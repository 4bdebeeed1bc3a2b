//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// The idle time of a Wayland session, which XWayland's screensaver
// extension does not know: it counts only the input X windows get, so a
// user typing in a native window looks idle. The compositor knows, and
// tells it on the session bus without a Wayland client of our own:
//   - GNOME Shell (Mutter): org.gnome.Mutter.IdleMonitor on
//     /org/gnome/Mutter/IdleMonitor/Core, GetIdletime in milliseconds, and
//     watches (AddIdleWatch, AddUserActiveWatch) answered by WatchFired,
//     so that away and back need no polling;
//   - elsewhere, a desktop whose screen locker serves
//     org.freedesktop.ScreenSaver's GetSessionIdleTime (milliseconds, as
//     KDE's kscreenlocker answers on X11). KDE Plasma 5.27 and 6 answer
//     NotSupported there on Wayland (kscreenlocker's interface.cpp):
//     their idle time is only in the ext-idle-notify Wayland protocol,
//     read on a Wayland connection of Yui's own (idle_wayland.go).
const (
	mutterIdleName  = "org.gnome.Mutter.IdleMonitor"
	mutterIdlePath  = dbus.ObjectPath("/org/gnome/Mutter/IdleMonitor/Core")
	mutterIdleIface = "org.gnome.Mutter.IdleMonitor"
	saverName       = "org.freedesktop.ScreenSaver"
	saverPath       = dbus.ObjectPath("/org/freedesktop/ScreenSaver")
	saverIface      = "org.freedesktop.ScreenSaver"
)

// idleCallWait bounds one idle-time call: the compositor answers at once
// or is stuck.
const idleCallWait = 2 * time.Second

// BusIdle is an IdleReader over the session bus. Close ends its
// connection and its watches.
type BusIdle struct {
	conn   *dbus.Conn
	obj    dbus.BusObject
	method string
	mutter bool
	log    *slog.Logger

	mu      sync.Mutex
	watches map[uint32]func() // Mutter watch id → what its WatchFired does
	closed  bool
	done    chan struct{} // the signal loop ended

	// On Mutter UserIdle reads a watch of idlePrecision instead of a
	// call a second (tracked): idle since lastInput, or active.
	tracked   bool
	baseIdle  bool
	lastInput time.Time
	now       func() time.Time
	baseHook  func(idle bool) // tests: after each change
	stopBase  func()
}

// OpenBusIdle connects to the session bus at addr ("" is the
// environment's) and finds the session's idle time there: Mutter's on
// GNOME, else the ScreenSaver's. It fails when neither answers.
func OpenBusIdle(s Session, addr string, log *slog.Logger) (*BusIdle, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	conn, err := dialBus(addr)
	if err != nil {
		return nil, err
	}
	b := &BusIdle{conn: conn, log: log, watches: map[uint32]func(){}, done: make(chan struct{}), now: time.Now}
	var errs []error
	var idle0 time.Duration
	try := func(name string, path dbus.ObjectPath, method string, mutter bool) bool {
		b.obj, b.method, b.mutter = conn.Object(name, path), method, mutter
		var err error
		if idle0, err = b.call(); err != nil {
			errs = append(errs, err)
			return false
		}
		return true
	}
	if !(s.GNOME() && try(mutterIdleName, mutterIdlePath, mutterIdleIface+".GetIdletime", true)) &&
		!try(saverName, saverPath, saverIface+".GetSessionIdleTime", false) &&
		!(!s.GNOME() && try(mutterIdleName, mutterIdlePath, mutterIdleIface+".GetIdletime", true)) {
		conn.Close()
		return nil, fmt.Errorf("desktop: no idle time on the session bus: %w", errors.Join(errs...))
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	go b.loop(signals)
	if b.mutter {
		b.track(idle0)
	}
	return b, nil
}

// track makes UserIdle follow a Mutter watch of idlePrecision, so that
// the life sampler's reads each second cost GNOME Shell nothing; idle0 is
// the idle time read at the start. Without the watch UserIdle calls.
func (b *BusIdle) track(idle0 time.Duration) {
	b.mu.Lock()
	if idle0 >= idlePrecision {
		b.baseIdle, b.lastInput = true, b.now().Add(-idle0)
	}
	b.mu.Unlock()
	stop, err := b.WatchIdle(idlePrecision, b.baseChanged)
	if err != nil {
		b.log.Warn("idle_watch", "err", err.Error(), "note", "the idle time is read each second instead")
		return
	}
	b.mu.Lock()
	b.tracked, b.stopBase = true, stop
	b.mu.Unlock()
}

// baseChanged is the base watch's change: idle after idlePrecision
// without input, or active again.
func (b *BusIdle) baseChanged(idle bool) {
	b.mu.Lock()
	if idle != b.baseIdle {
		b.baseIdle = idle
		if idle {
			b.lastInput = b.now().Add(-idlePrecision)
		}
	}
	hook := b.baseHook
	b.mu.Unlock()
	if hook != nil {
		hook(idle)
	}
}

func dialBus(addr string) (*dbus.Conn, error) {
	var conn *dbus.Conn
	var err error
	if addr != "" {
		conn, err = dbus.Dial(addr)
	} else {
		conn, err = dbus.SessionBusPrivate()
	}
	if err != nil {
		return nil, fmt.Errorf("desktop: session bus: %w", err)
	}
	if err = conn.Auth(nil); err == nil {
		err = conn.Hello()
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("desktop: session bus: %w", err)
	}
	return conn, nil
}

// Source names where the idle time comes from, for the log.
func (b *BusIdle) Source() string {
	if b.mutter {
		return mutterIdleIface
	}
	return saverIface
}

// UserIdle implements IdleReader: on Mutter from its watch, elsewhere
// one call on the bus.
func (b *BusIdle) UserIdle() (time.Duration, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return 0, errClosed
	}
	if b.tracked {
		defer b.mu.Unlock()
		if b.baseIdle {
			return b.now().Sub(b.lastInput), nil
		}
		return 0, nil
	}
	b.mu.Unlock()
	return b.call()
}

// call reads the idle time with one call on the bus.
func (b *BusIdle) call() (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), idleCallWait)
	defer cancel()
	call := b.obj.CallWithContext(ctx, b.method, 0)
	if call.Err != nil {
		return 0, fmt.Errorf("desktop: idle time: %w", call.Err)
	}
	if b.mutter {
		var ms uint64
		if err := call.Store(&ms); err != nil {
			return 0, fmt.Errorf("desktop: idle time: %w", err)
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	var ms uint32
	if err := call.Store(&ms); err != nil {
		return 0, fmt.Errorf("desktop: idle time: %w", err)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// WatchIdle implements IdleWatcher on Mutter: f(true) once the user has
// been idle for after, f(false) at their next input, as WatchFired
// signals; nothing polls. f runs on the watch's goroutine, one call at a
// time. Without Mutter it is ErrUnsupported.
func (b *BusIdle) WatchIdle(after time.Duration, f func(away bool)) (stop func(), err error) {
	if !b.mutter {
		return nil, ErrUnsupported
	}
	// From Mutter alone: another program's WatchFired is not heard.
	if err := b.conn.AddMatchSignal(dbus.WithMatchSender(mutterIdleName), dbus.WithMatchObjectPath(mutterIdlePath),
		dbus.WithMatchInterface(mutterIdleIface), dbus.WithMatchMember("WatchFired")); err != nil {
		return nil, fmt.Errorf("desktop: idle watch: %w", err)
	}
	w := &idleWatch{b: b, f: f}
	var idleID uint32
	if err := b.obj.Call(mutterIdleIface+".AddIdleWatch", 0, uint64(after/time.Millisecond)).Store(&idleID); err != nil {
		return nil, fmt.Errorf("desktop: idle watch: %w", err)
	}
	w.idleID = idleID
	b.mu.Lock()
	// Mutter's idle watch stays and fires each time the user has been
	// idle for after; the user-active watch fires once and is gone.
	b.watches[idleID] = w.wentAway
	b.mu.Unlock()
	// Already away at the start: the idle watch fires only on the next
	// crossing.
	if idle, err := b.call(); err == nil && idle >= after {
		w.wentAway()
	}
	return w.stop, nil
}

type idleWatch struct {
	b        *BusIdle
	f        func(bool)
	idleID   uint32
	activeID uint32
	mu       sync.Mutex
	stopped  bool
}

func (w *idleWatch) wentAway() {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return
	}
	w.mu.Unlock()
	var id uint32
	if err := w.b.obj.Call(mutterIdleIface+".AddUserActiveWatch", 0).Store(&id); err != nil {
		w.b.log.Warn("idle_watch", "err", err.Error())
		return
	}
	w.b.mu.Lock()
	w.b.watches[id] = w.cameBack
	w.b.mu.Unlock()
	w.mu.Lock()
	w.activeID = id
	stopped := w.stopped
	w.mu.Unlock()
	if !stopped {
		w.f(true)
	}
}

func (w *idleWatch) cameBack() {
	w.mu.Lock()
	w.activeID = 0
	stopped := w.stopped
	w.mu.Unlock()
	if !stopped {
		w.f(false)
	}
}

func (w *idleWatch) stop() {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return
	}
	w.stopped = true
	ids := []uint32{w.idleID, w.activeID}
	w.mu.Unlock()
	w.b.mu.Lock()
	closed := w.b.closed
	for _, id := range ids {
		delete(w.b.watches, id)
	}
	w.b.mu.Unlock()
	if closed {
		return
	}
	for _, id := range ids {
		if id != 0 {
			ctx, cancel := context.WithTimeout(context.Background(), idleCallWait)
			_ = w.b.obj.CallWithContext(ctx, mutterIdleIface+".RemoveWatch", 0, id).Err
			cancel()
		}
	}
}

// loop runs the watches' WatchFired signals until the connection closes.
func (b *BusIdle) loop(signals chan *dbus.Signal) {
	defer close(b.done)
	for s := range signals {
		if s.Path != mutterIdlePath || s.Name != mutterIdleIface+".WatchFired" || len(s.Body) != 1 {
			continue
		}
		id, ok := s.Body[0].(uint32)
		if !ok {
			continue
		}
		b.mu.Lock()
		f := b.watches[id]
		b.mu.Unlock()
		if f != nil {
			f()
		}
	}
}

// Close ends the connection, and with it the watches (Mutter drops a
// closed connection's watches). Idempotent.
func (b *BusIdle) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	b.mu.Unlock()
	err := b.conn.Close()
	<-b.done
	return err
}

func openBusIdle(s Session, addr string, log *slog.Logger) (*BusIdle, error) {
	return OpenBusIdle(s, addr, log)
}

func openWaylandIdle(s Session, log *slog.Logger) (*WaylandIdle, error) {
	return OpenWaylandIdle(s.RuntimeDir, s.Display, log)
}
