//go:build (linux || freebsd || openbsd || netbsd) && !android

package desktop

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"sync"
	"time"
)

// WaylandIdle is the user's idle time from the compositor's
// ext-idle-notify-v1 protocol, on a Wayland connection of Yui's own: the
// one way KDE Plasma (5.27, 6) tells it, and wlroots compositors (Sway,
// Hyprland) too. It holds no window and draws nothing. The protocol tells
// transitions, not a count: a notification with a timeout says "idled"
// once there was no input for that long and "resumed" at the next input.
// UserIdle reads one with a short timeout (idlePrecision): active, the
// idle time is 0; idled at t, it is now − t + the timeout. WatchIdle
// makes one with the away threshold. Nothing polls.
type WaylandIdle struct {
	conn net.Conn
	log  *slog.Logger
	now  func() time.Time

	wmu sync.Mutex // one message written at a time

	mu       sync.Mutex
	next     uint32 // the last object id handed out
	seat     uint32
	notifier uint32
	notifs   map[uint32]*wlNotif
	base     *wlNotif // UserIdle's
	closed   bool
	done     chan struct{}
}

type wlNotif struct {
	timeout time.Duration
	made    time.Time // when it was asked for
	idle    bool
	since   time.Time // when idled came
	f       func(idle bool)
}

// errIdleUnknown: the first timeout has not passed, so the compositor
// has not told yet whether the user is there.
var errIdleUnknown = errors.New("desktop: wayland idle: not known yet")

// idlePrecision is UserIdle's notification timeout: the idle time reads
// 0 for the first second after input, as the life scheduler's samples
// come once a second anyway (activity.go).
const idlePrecision = time.Second

// The protocol's objects, requests and events used here.
const (
	wlDisplayID          = 1
	wlDisplayGetRegistry = 1
	wlDisplaySync        = 0
	wlDisplayError       = 0
	wlDisplayDeleteID    = 1
	wlRegistryBind       = 0
	wlRegistryGlobal     = 0
	wlCallbackDone       = 0
	extNotifierName      = "ext_idle_notifier_v1"
	extNotifierGet       = 1 // get_idle_notification(new_id, uint timeout, object seat)
	extNotifIdled        = 0
	extNotifResumed      = 1
	extNotifDestroy      = 0
)

// OpenWaylandIdle connects to the compositor named by waylandDisplay
// (WAYLAND_DISPLAY: a name in runtimeDir, or a path) and finds its seat
// and ext-idle-notify; it fails when the compositor has none.
func OpenWaylandIdle(runtimeDir, waylandDisplay string, log *slog.Logger) (*WaylandIdle, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if waylandDisplay == "" {
		waylandDisplay = "wayland-0"
	}
	path := waylandDisplay
	if !filepath.IsAbs(path) {
		if runtimeDir == "" {
			return nil, errors.New("desktop: wayland idle: XDG_RUNTIME_DIR is not set")
		}
		path = filepath.Join(runtimeDir, path)
	}
	conn, err := net.DialTimeout("unix", path, idleCallWait)
	if err != nil {
		return nil, fmt.Errorf("desktop: wayland idle: %w", err)
	}
	w := &WaylandIdle{conn: conn, log: log, now: time.Now, next: wlDisplayID, notifs: map[uint32]*wlNotif{}, done: make(chan struct{})}
	if err := w.setup(); err != nil {
		conn.Close()
		return nil, err
	}
	w.base = &wlNotif{timeout: idlePrecision}
	if err := w.notify(w.base); err != nil {
		conn.Close()
		return nil, err
	}
	go w.loop()
	return w, nil
}

// setup reads the globals (up to a sync's answer) and binds the seat and
// the notifier, before the event loop runs.
func (w *WaylandIdle) setup() error {
	registry := w.newID()
	callback := w.newID()
	if err := w.send(wlDisplayID, wlDisplayGetRegistry, new(wlArgs).uint(registry)); err != nil {
		return err
	}
	if err := w.send(wlDisplayID, wlDisplaySync, new(wlArgs).uint(callback)); err != nil {
		return err
	}
	_ = w.conn.SetReadDeadline(time.Now().Add(idleCallWait))
	defer w.conn.SetReadDeadline(time.Time{})
	var seatName, notifierName, seatVersion uint32
	for {
		m, err := readWL(w.conn)
		if err != nil {
			return fmt.Errorf("desktop: wayland idle: %w", err)
		}
		r := &wlReader{b: m.args}
		switch {
		case m.object == wlDisplayID && m.opcode == wlDisplayError:
			r.uint()
			r.uint()
			return fmt.Errorf("desktop: wayland idle: the compositor's error: %s", r.string())
		case m.object == registry && m.opcode == wlRegistryGlobal:
			name, iface, version := r.uint(), r.string(), r.uint()
			if r.err != nil {
				return fmt.Errorf("desktop: wayland idle: %w", r.err)
			}
			switch {
			case iface == "wl_seat" && seatName == 0:
				seatName, seatVersion = name, min(version, 1)
			case iface == extNotifierName:
				notifierName = name
			}
		case m.object == callback && m.opcode == wlCallbackDone:
			if seatName == 0 || notifierName == 0 {
				return fmt.Errorf("desktop: wayland idle: the compositor has no %s (or no seat)", extNotifierName)
			}
			w.seat, w.notifier = w.newID(), w.newID()
			if err := w.send(registry, wlRegistryBind, new(wlArgs).uint(seatName).string("wl_seat").uint(seatVersion).uint(w.seat)); err != nil {
				return err
			}
			return w.send(registry, wlRegistryBind, new(wlArgs).uint(notifierName).string(extNotifierName).uint(1).uint(w.notifier))
		}
	}
}

func (w *WaylandIdle) newID() uint32 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.next++
	return w.next
}

func (w *WaylandIdle) send(object uint32, opcode uint16, a *wlArgs) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	_ = w.conn.SetWriteDeadline(time.Now().Add(idleCallWait))
	if _, err := w.conn.Write(wlMessage{object: object, opcode: opcode, args: a.b}.encode()); err != nil {
		return fmt.Errorf("desktop: wayland idle: %w", err)
	}
	return nil
}

// notify asks for n's notification.
func (w *WaylandIdle) notify(n *wlNotif) error {
	id := w.newID()
	w.mu.Lock()
	n.made = w.now()
	w.notifs[id] = n
	w.mu.Unlock()
	ms := uint32(max(n.timeout/time.Millisecond, 1))
	return w.send(w.notifier, extNotifierGet, new(wlArgs).uint(id).uint(ms).uint(w.seat))
}

// loop runs the notifications' events until the connection closes.
func (w *WaylandIdle) loop() {
	defer close(w.done)
	for {
		m, err := readWL(w.conn)
		if err != nil {
			w.mu.Lock()
			closed := w.closed
			w.mu.Unlock()
			if !closed {
				w.log.Warn("idle_wayland", "err", err.Error())
			}
			return
		}
		if m.object == wlDisplayID && m.opcode == wlDisplayError {
			r := &wlReader{b: m.args}
			r.uint()
			r.uint()
			w.log.Warn("idle_wayland", "err", "the compositor's error: "+r.string())
			continue
		}
		if m.opcode != extNotifIdled && m.opcode != extNotifResumed {
			continue
		}
		w.mu.Lock()
		n := w.notifs[m.object]
		var f func(bool)
		if n != nil {
			idle := m.opcode == extNotifIdled
			if idle != n.idle {
				n.idle, n.since = idle, w.now()
				f = n.f
			}
		}
		w.mu.Unlock()
		if f != nil {
			f(m.opcode == extNotifIdled)
		}
	}
}

// Source names the idle source for the log.
func (w *WaylandIdle) Source() string { return extNotifierName }

// UserIdle implements IdleReader without a round trip.
func (w *WaylandIdle) UserIdle() (time.Duration, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, errClosed
	}
	if !w.base.idle {
		// Active: there was input within the timeout, once one passed;
		// before, a user idle for hours would read as one who just typed.
		if w.now().Sub(w.base.made) < w.base.timeout {
			return 0, errIdleUnknown
		}
		return 0, nil
	}
	return w.now().Sub(w.base.since) + w.base.timeout, nil
}

// WatchIdle implements IdleWatcher: a notification with after as its
// timeout. f runs on the connection's goroutine.
func (w *WaylandIdle) WatchIdle(after time.Duration, f func(away bool)) (stop func(), err error) {
	n := &wlNotif{timeout: after, f: f}
	if err := w.notify(n); err != nil {
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			var id uint32
			for k, v := range w.notifs {
				if v == n {
					id = k
				}
			}
			delete(w.notifs, id)
			closed := w.closed
			w.mu.Unlock()
			if !closed && id != 0 {
				_ = w.send(id, extNotifDestroy, new(wlArgs))
			}
		})
	}, nil
}

// Close ends the connection and the notifications. Idempotent.
func (w *WaylandIdle) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	err := w.conn.Close()
	<-w.done
	return err
}
