//go:build linux && !android

package desktop

import (
	_ "embed"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/godbus/dbus/v5"
)

// The KWin source of the window facts: Yui loads its script (kwin.js)
// into KWin over org.kde.kwin.Scripting, and the script calls Event on
// the object Yui exports here with each change. Nothing is installed: the
// script lives in a file of Yui's runtime folder while Yui runs.

//go:embed kwin.js
var kwinJS string

const (
	kwinPath  = dbus.ObjectPath("/io/github/yui/KWin")
	kwinIface = "io.github.yui.Windows1"
	kwinName  = "org.kde.KWin"
)

type kwinSource struct {
	conn   *dbus.Conn
	facts  *factTable
	log    *slog.Logger
	plugin string // the script's name in KWin
	file   string
	done   chan struct{} // the owner watch ended

	// The bus hands its method calls to goroutines of their own, so the
	// script's events may arrive out of order: each is applied in its
	// number's turn, under mu, those early held in pending.
	mu      sync.Mutex
	kwin    string // KWin's unique name: the only sender taken
	next    uint64
	pending map[uint64]factEvent
}

// maxPending bounds the events held for a missing one: past it the gap is
// given up (an event lost), and the held ones applied in order.
const maxPending = 256

// startKWin loads the script; an error when KWin's scripting is not there.
func startKWin(t *factTable, log *slog.Logger) (*kwinSource, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, fmt.Errorf("KWin: the session bus: %w", err)
	}
	s := &kwinSource{conn: conn, facts: t, log: log, plugin: "yui-windows-" + strconv.Itoa(os.Getpid()),
		next: 1, pending: map[uint64]factEvent{}, done: make(chan struct{})}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	s.file = filepath.Join(dir, s.plugin+".js")
	if err := conn.Export(kwinReceiver{s}, kwinPath, kwinIface); err != nil {
		conn.Close()
		return nil, fmt.Errorf("KWin: export the receiver: %w", err)
	}
	// A KWin that restarts (or ends) is seen: its facts stop counting,
	// and the new one gets the script again.
	if err := conn.AddMatchSignal(dbus.WithMatchSender("org.freedesktop.DBus"), dbus.WithMatchInterface("org.freedesktop.DBus"),
		dbus.WithMatchMember("NameOwnerChanged"), dbus.WithMatchArg(0, kwinName)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("KWin: watch its name: %w", err)
	}
	var owner string
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetNameOwner", 0, kwinName).Store(&owner); err != nil {
		conn.Close()
		return nil, fmt.Errorf("KWin: %s is not on the session bus: %w", kwinName, err)
	}
	if err := s.start(owner); err != nil {
		conn.Close()
		return nil, err
	}
	ch := make(chan *dbus.Signal, 8)
	conn.Signal(ch)
	go s.watchOwner(ch)
	return s, nil
}

// watchOwner follows KWin's name until the connection closes.
func (s *kwinSource) watchOwner(ch <-chan *dbus.Signal) {
	defer close(s.done)
	for sig := range ch {
		if sig.Name != "org.freedesktop.DBus.NameOwnerChanged" || len(sig.Body) != 3 {
			continue
		}
		owner, _ := sig.Body[2].(string)
		s.facts.setDead()
		if owner == "" {
			s.log.Info("desktop_kwin_gone", "hint", "the windows are XWayland's until KWin is back")
			continue
		}
		if err := s.start(owner); err != nil {
			s.log.Warn("desktop_kwin_restart", "err", err.Error())
		}
	}
}

// start loads the script into the KWin whose unique name is owner; its
// events are taken from then on, numbered from 1.
func (s *kwinSource) start(owner string) error {
	s.mu.Lock()
	s.kwin, s.next, s.pending = owner, 1, map[uint64]factEvent{}
	s.mu.Unlock()
	script := "const YUI_SERVICE = " + strconv.Quote(s.conn.Names()[0]) + ";\n" + kwinJS
	if err := os.WriteFile(s.file, []byte(script), 0o600); err != nil {
		return fmt.Errorf("KWin: write the script: %w", err)
	}
	kw := s.conn.Object(kwinName, "/Scripting")
	// One of the same name (a Yui of the same pid before a restart of
	// the session) would refuse the load.
	kw.Call("org.kde.kwin.Scripting.unloadScript", 0, s.plugin)
	var id int32
	if err := kw.Call("org.kde.kwin.Scripting.loadScript", 0, s.file, s.plugin).Store(&id); err != nil {
		os.Remove(s.file)
		return fmt.Errorf("KWin: load the script: %w", err)
	}
	if id < 0 {
		os.Remove(s.file)
		return fmt.Errorf("KWin: load the script: refused (%d)", id)
	}
	if err := kw.Call("org.kde.kwin.Scripting.start", 0).Err; err != nil {
		os.Remove(s.file)
		return fmt.Errorf("KWin: start the script: %w", err)
	}
	s.log.Info("desktop_kwin_script", "id", id)
	return nil
}

// kwinReceiver is the object the script calls.
type kwinReceiver struct{ s *kwinSource }

// Event takes one event of the script; from any other sender it is
// refused: the facts decide where the pet sits and what she keeps private.
func (r kwinReceiver) Event(sender dbus.Sender, text string) *dbus.Error {
	r.s.mu.Lock()
	kwin := r.s.kwin
	r.s.mu.Unlock()
	if string(sender) != kwin {
		return dbus.MakeFailedError(fmt.Errorf("only KWin sends window facts"))
	}
	ev, err := parseFactEvent(text)
	if err != nil {
		r.s.log.Warn("desktop_kwin_event_dropped", "err", err.Error())
		return nil
	}
	r.s.take(ev)
	return nil
}

// take applies ev in its turn, and those held behind it.
func (s *kwinSource) take(ev factEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev.Seq == 0 || ev.Seq < s.next {
		if ev.Seq != 0 {
			s.log.Warn("desktop_kwin_event_dropped", "err", "a late event", "seq", ev.Seq)
			return
		}
		s.applyLocked(ev)
		return
	}
	s.pending[ev.Seq] = ev
	if len(s.pending) > maxPending {
		// Skip to the lowest one held: the gap is lost.
		low := ev.Seq
		for k := range s.pending {
			low = min(low, k)
		}
		s.log.Warn("desktop_kwin_events_lost", "from", s.next, "to", low-1)
		s.next = low
	}
	for {
		e, ok := s.pending[s.next]
		if !ok {
			return
		}
		delete(s.pending, s.next)
		s.next++
		s.applyLocked(e)
	}
}

func (s *kwinSource) applyLocked(ev factEvent) {
	logEvent(s.log, "desktop_kwin_event", ev)
	s.facts.apply(ev)
}

// Close unloads the script, ends the connection and waits for the watch.
func (s *kwinSource) Close() error {
	s.conn.Object(kwinName, "/Scripting").Call("org.kde.kwin.Scripting.unloadScript", 0, s.plugin)
	os.Remove(s.file)
	err := s.conn.Close()
	<-s.done
	return err
}
