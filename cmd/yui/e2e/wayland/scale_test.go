//go:build e2e

package wayland

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// sitScenario: the first typed turn sits on Notes.
const sitScenario = `{"steps": [` + sitTurn + `,
  {"wait": "turn", "timeout_ms": 600000}
]}`

// TestKWinScaled: a display scaled by 2 under KWin, with XWayland scaled
// too (Plasma's "Legacy applications (X11): apply scaling themselves"),
// so that X's coordinates are twice the compositor's: the pet's own
// window, an X11 one, lands on the native window's top edge in X's
// coordinates, and follows it when it moves (tools/desktop/xscale.go).
func TestKWinScaled(t *testing.T) {
	harness.BinDir(t)
	s := harness.NewSession(t, "KDE")
	s.Scale = 2
	s.KWin(t)
	d := s.Display
	dk := kwinDesk{s}
	s.Native(t, "Notes", "notes")
	harness.WaitFor(t, 30*time.Second, "Notes shown", func() bool { return !dk.frame(t, "Notes").Empty() })
	placeAt(t, dk, "Notes", image.Pt(200, 400))

	scen := filepath.Join(t.TempDir(), "sit.json")
	if err := os.WriteFile(scen, []byte(sitScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	sim := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	cfg := t.TempDir()
	writeSettings(t, cfg, sim, harness.QuietLife())
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	a.WaitRecord(30*time.Second, "desktop_compositor", nil)
	petID := d.WindowID(t, "Yui")

	talkAt(t, a, petID, "sit on my notes")
	if targets := sim.ToolResult(t, "c-targets"); !strings.Contains(targets, `"title":"Notes"`) {
		t.Fatalf("perch_targets = %s", targets)
	}
	if res := sim.ToolResult(t, "c-sit"); !strings.HasPrefix(res, "ok: sitting on ") {
		t.Fatalf("sit_on_window Notes = %q", res)
	}
	onTop := func(what string) {
		t.Helper()
		var pet, notes image.Rectangle
		if !harness.WaitForOr(15*time.Second, func() bool {
			pet, notes = d.Frame(t, petID), dk.frame(t, "Notes")
			x, feet := a.PetFeet(pet)
			return feet == 2*notes.Min.Y && x >= 2*notes.Min.X && x <= 2*notes.Max.X
		}) {
			x, feet := a.PetFeet(pet)
			t.Fatalf("%s: the pet %v (feet %d,%d in X) is not on Notes %v (in the compositor's coordinates, ×2 in X)", what, pet, x, feet, notes)
		}
		t.Logf("%s: pet %v in X, Notes %v in the compositor's coordinates", what, pet, notes)
	}
	onTop("the pet on Notes' top edge")
	a.WaitRecord(20*time.Second, "push.turn_end", nil)
	d.Run(t, "xdotool", "key", "Escape")
	placeAt(t, dk, "Notes", image.Pt(500, 300))
	onTop("the pet following Notes")
}
