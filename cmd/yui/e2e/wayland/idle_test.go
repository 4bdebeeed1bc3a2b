//go:build e2e

package wayland

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"yui/cmd/yui/e2e/harness"
	"yui/tools/desktop/gnome"
)

// idleWindow is how long an idle pet is watched.
const idleWindow = 8 * time.Second

// TestGnomeIdle: an idle pet under GNOME Shell with its extension asks the
// extension nothing (the facts come as signals, and an idle desktop sends
// none) and wakes no more than the same pet reading XWayland's windows on
// the same display.
func TestGnomeIdle(t *testing.T) {
	s := gnomeWithNotes(t)

	// Every call and signal of the extension's interface, seen by a monitor.
	mon := s.SessionConn(t)
	rules := []string{"type='method_call',interface='" + gnome.Interface + "'", "type='signal',interface='" + gnome.Interface + "'"}
	if err := mon.BusObject().Call("org.freedesktop.DBus.Monitoring.BecomeMonitor", 0, rules, uint32(0)).Err; err != nil {
		t.Fatalf("become a monitor: %v", err)
	}
	msgs := make(chan *dbus.Message, 1024)
	mon.Eavesdrop(msgs)
	var calls, signals atomic.Int64
	var seen sync.Mutex
	var bodies []string // every signal's facts, for the failure report
	go func() {
		for m := range msgs {
			switch m.Type {
			case dbus.TypeMethodCall:
				calls.Add(1)
			case dbus.TypeSignal:
				seen.Lock()
				bodies = append(bodies, fmt.Sprint(m.Body))
				seen.Unlock()
				signals.Add(1)
			}
		}
	}()

	var idleSignals int64
	onGnome := idlePet(t, s.Display, "gnome", func(begin bool) {
		if begin {
			idleSignals = -signals.Load()
		} else {
			idleSignals += signals.Load()
		}
	})
	if c := calls.Load(); c != 1 {
		t.Fatalf("%d calls to the extension: want the start's GetAll alone", c)
	}
	if idleSignals != 0 {
		seen.Lock()
		defer seen.Unlock()
		t.Fatalf("%d window facts sent while nothing moved; the facts sent:\n%s", idleSignals, strings.Join(bodies, "\n"))
	}
	// The same pet reading XWayland's windows: another desktop name.
	x := *s.Display
	x.Extra = append(append([]string(nil), s.Display.Extra...), "XDG_CURRENT_DESKTOP=X-Yui-Test")
	onX := idlePet(t, &x, "x11", func(bool) {})
	// The proof that nothing polls is above (one call, no facts while
	// nothing moved); the two rates are reported, not judged: timing
	// goals live in the benchmarks (docs/testing.md), where a loaded
	// machine cannot fail a test (BenchmarkGnomeIdle, below, in make
	// bench's report).
	t.Logf("idle wake-ups per second: %.1f with GNOME Shell's facts, %.1f with XWayland's windows; %d signals seen",
		onGnome, onX, signals.Load())
}

// idlePet starts a pet with nothing to do and returns its threads'
// wake-ups per second over idleWindow, once it settled.
func idlePet(t testing.TB, d *harness.Display, name string, mark func(begin bool)) float64 {
	t.Helper()
	scen := filepath.Join(t.TempDir(), "idle.json")
	if err := os.WriteFile(scen, []byte(`{"steps": [{"wait": "turn", "timeout_ms": 600000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	sim := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	cfg := t.TempDir()
	writeSettings(t, cfg, sim, harness.QuietLife())
	a := harness.StartYuiIn(t, d, cfg, "")
	defer a.Proc.Stop()
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	if name == "gnome" {
		a.WaitRecord(10*time.Second, "desktop_gnome_facts", nil)
	}
	// Settled: the start's work done (a window's first paints, the
	// memory given back).
	harness.WaitForOr(3*time.Second, func() bool { return false })
	pid := a.Proc.Cmd.Process.Pid
	mark(true)
	before := wakeups(t, pid)
	start := time.Now()
	harness.WaitForOr(idleWindow, func() bool { return false })
	n := wakeups(t, pid) - before
	mark(false)
	return float64(n) / time.Since(start).Seconds()
}

// wakeups is a process's context switches so far, over its threads.
func wakeups(t testing.TB, pid int) int64 {
	t.Helper()
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if len(tasks) == 0 {
		t.Fatalf("no threads of %d", pid)
	}
	var n int64
	for _, task := range tasks {
		b, err := os.ReadFile(task)
		if err != nil {
			continue // a thread that ended
		}
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && (k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches") {
				c, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += c
			}
		}
	}
	return n
}

// BenchmarkGnomeIdle is TestGnomeIdle's timing goal, for make bench: an
// idle pet under GNOME Shell with its extension wakes no more than the
// same pet reading XWayland's windows on the same display
// (gnome/x11-wakeups ≤ 1).
func BenchmarkGnomeIdle(b *testing.B) {
	s := gnomeWithNotes(b)
	b.ResetTimer()
	var onGnome, onX float64
	for range b.N {
		onGnome = idlePet(b, s.Display, "gnome", func(bool) {})
		x := *s.Display
		x.Extra = append(append([]string(nil), s.Display.Extra...), "XDG_CURRENT_DESKTOP=X-Yui-Test")
		onX = idlePet(b, &x, "x11", func(bool) {})
	}
	b.ReportMetric(onGnome, "gnome-wakeups/s")
	b.ReportMetric(onX, "x11-wakeups/s")
	if onX > 0 {
		b.ReportMetric(onGnome/onX, "gnome/x11-wakeups")
	}
}

// gnomeWithNotes is GNOME Shell with Yui's extension and a native window,
// Notes, shown.
func gnomeWithNotes(t testing.TB) *harness.Session {
	harness.BinDir(t)
	s := harness.NewSession(t, "GNOME")
	s.GnomeShell(t, func(env []string) { yuiSetup(t, env) })
	s.Native(t, "Notes", "notes")
	// Shown before anything is measured: a terminal's first frame may
	// come seconds after its window.
	harness.WaitFor(t, 30*time.Second, "Notes shown", func() bool {
		return s.Eval(t, "(w => !!w && w.showing_on_its_workspace() && !w.minimized)("+harness.GnomeWindow("Notes")+")") == "true"
	})
	return s
}
