//go:build e2e

package wayland

import (
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// TestHarnessGnome: the session harness itself under GNOME Shell: a
// native foot window is in the shell's window list, and the test can
// move it.
func TestHarnessGnome(t *testing.T) {
	s := harness.NewSession(t, "GNOME")
	s.GnomeShell(t, nil)
	s.Native(t, "Notes", "notes")
	w := harness.GnomeWindow("Notes")
	harness.WaitFor(t, 30*time.Second, "the foot window in GNOME Shell", func() bool {
		return strings.Contains(s.Eval(t, "!!"+w), "true")
	})
	// The first placement may come after the window is listed: moved
	// until it stays.
	harness.WaitFor(t, 10*time.Second, "the foot window moved to 300,200", func() bool {
		s.Eval(t, w+".move_frame(true, 300, 200)")
		return strings.Contains(s.Eval(t, "(r => [r.x, r.y].join(','))("+w+".get_frame_rect())"), "300,200")
	})
	t.Logf("X display %s, Wayland %s", s.Name, s.Wayland)
}

// TestHarnessKWin: the same under KWin, moved by a test script.
func TestHarnessKWin(t *testing.T) {
	s := harness.NewSession(t, "KDE")
	s.KWin(t)
	s.Native(t, "Notes", "notes")
	find := "workspace.clientList().filter(c => c.caption === 'Notes')"
	var last string
	if !harness.WaitForOr(30*time.Second, func() bool {
		last = s.KWinEval(t, "workspace.clientList().map(c => c.caption + '|' + c.resourceClass).join(';')")
		return s.KWinEval(t, find+".length") == "1"
	}) {
		t.Fatalf("no foot window in KWin's list: %q", last)
	}
	got := s.KWinEval(t, "(c => { c.frameGeometry = {x: 300, y: 200, width: c.frameGeometry.width, height: c.frameGeometry.height}; return c.frameGeometry.x + ',' + c.frameGeometry.y; })("+find+"[0])")
	if got != "300,200" {
		t.Fatalf("frame after the move: %s", got)
	}
	t.Logf("X display %s, Wayland %s", s.Name, s.Wayland)
}
