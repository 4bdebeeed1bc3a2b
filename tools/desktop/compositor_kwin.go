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
	kwin   string // KWin's unique name: the only sender taken
	plugin string // the script's name in KWin
	file   string

	// The bus hands its method calls to goroutines of their own, so the
	// script's events may arrive out of order: each is applied in its
	// number's turn, under mu, those early held in pending.
	mu      sync.Mutex
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
		next: 1, pending: map[uint64]factEvent{}}
	if err := s.start(); err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

func (s *kwinSource) start() error {
	if err := s.conn.BusObject().Call("org.freedesktop.DBus.GetNameOwner", 0, kwinName).Store(&s.kwin); err != nil {
		return fmt.Errorf("KWin: %s is not on the session bus: %w", kwinName, err)
	}
	if err := s.conn.Export(kwinReceiver{s}, kwinPath, kwinIface); err != nil {
		return fmt.Errorf("KWin: export the receiver: %w", err)
	}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	s.file = filepath.Join(dir, s.plugin+".js")
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
	if string(sender) != r.s.kwin {
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

// Close unloads the script and ends the connection.
func (s *kwinSource) Close() error {
	s.conn.Object(kwinName, "/Scripting").Call("org.kde.kwin.Scripting.unloadScript", 0, s.plugin)
	os.Remove(s.file)
	return s.conn.Close()
}
