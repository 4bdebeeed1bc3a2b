//go:build e2e

package xvfb

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// gravityScenario answers each of two turns with a look at the body.
const gravityScenario = `{"steps": [
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-body-1", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "body"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-body-2", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "body"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

// ask sends text from the composer the shortcut opens.
func ask(a *harness.App, text string) {
	a.T.Helper()
	shortcutComposer(a)
	a.D.Run(a.T, "xdotool", "type", "--delay", "30", text)
	a.D.Run(a.T, "xdotool", "key", "Return")
}

// shortcutComposer presses the global shortcut and waits until the main
// pet's composer is open and its window has the keyboard focus.
func shortcutComposer(a *harness.App) {
	a.T.Helper()
	opened := a.Count("pet_composer_open", nil)
	a.D.Run(a.T, "xdotool", "key", "ctrl+alt+y")
	harness.WaitFor(a.T, 10*time.Second, "the composer to open", func() bool { return a.Count("pet_composer_open", nil) > opened })
	pet := a.D.WindowID(a.T, "Yui")
	a.D.WaitFocus(a.T, pet)
}

func TestGravityLandsOnNotesOrTheFloor(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	harness.Start(t, d.Env(), "xmessage", "-title", "Notes", "-geometry", "420x160+300+360", "Shopping: milk, eggs, tea")
	notesID := d.WindowID(t, "Notes")

	scen := filepath.Join(t.TempDir(), "gravity.json")
	if err := os.WriteFile(scen, []byte(gravityScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	// The drag is the day's first input: with the first activity on, its
	// turn would take the scenario's first look.
	cfg := t.TempDir()
	p := harness.PushPreset("p-grav0001", "Yui", s, "sim-key")
	p.Life = harness.QuietLife()
	harness.WriteSettings(t, cfg, p)
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	petID := d.WindowID(t, "Yui")
	before := d.WaitShot(t, "gravity-start", 10*time.Second, harness.DrawnCheck(d.Frame(t, petID)))

	// Dropped with its feet 30 px above Notes' top edge: it falls onto it.
	nr := d.Frame(t, notesID)
	harness.DragPet(t, a, petID, (nr.Min.X+nr.Max.X)/2, nr.Min.Y-30)
	a.WaitRecord(10*time.Second, "pet_window_moved", nil)
	var pet image.Rectangle
	harness.WaitFor(t, 10*time.Second, "the pet sitting on Notes", func() bool {
		pet = d.Frame(t, petID)
		_, feet := a.PetFeet(pet)
		return feet == d.Frame(t, notesID).Min.Y
	})
	if x, _ := a.PetFeet(pet); x < nr.Min.X || x > nr.Max.X {
		t.Fatalf("the pet's centre x %d is not over Notes (%v)", x, nr)
	}
	sitting := d.WaitShot(t, "gravity-sitting", 10*time.Second, harness.DrawnCheck(pet))
	// The pill and the name tag sit above the pet's head, never over the
	// window it sits on: Notes' text area under the pet looks as it did
	// before the pet came.
	under := image.Rect(pet.Min.X, nr.Min.Y+25, pet.Max.X, nr.Min.Y+90).Intersect(nr)
	for y := under.Min.Y; y < under.Max.Y; y++ {
		for x := under.Min.X; x < under.Max.X; x++ {
			if before.At(x, y) != sitting.At(x, y) {
				t.Fatalf("the sitting pet draws over Notes at %d,%d", x, y)
			}
		}
	}
	ask(a, "where are you?")
	body := s.ToolResult(t, "c-body-1")
	if !strings.Contains(body, `"perch":{"kind":"window_top"`) || !strings.Contains(body, `"title":"Notes"`) {
		t.Fatalf("look body after the drop on Notes = %s", body)
	}
	cc, _ := s.Frames("turn")[0]["client_context"].(string)
	if !strings.Contains(cc, `sitting on "Xmessage"`) {
		t.Fatalf("the character line does not say where the pet sits: %q", cc)
	}
	// Notes moves: the pet follows it, as sit_on_window's does.
	d.Run(t, "xdotool", "windowmove", notesID, "700", "420")
	harness.WaitFor(t, 10*time.Second, "the pet following Notes", func() bool {
		_, feet := a.PetFeet(d.Frame(t, petID))
		return feet == d.Frame(t, notesID).Min.Y
	})

	// Dropped in mid-air, far from Notes: it falls to the work area's bottom.
	a.WaitRecord(10*time.Second, "push.turn_end", nil) // the turn ends right after the look
	harness.DragPet(t, a, petID, 250, 200)
	harness.WaitFor(t, 10*time.Second, "the pet on the bottom of the work area", func() bool {
		_, feet := a.PetFeet(d.Frame(t, petID))
		return feet == 800
	})
	d.WaitShot(t, "gravity-floor", 10*time.Second, harness.DrawnCheck(d.Frame(t, petID)))
	ask(a, "and now?")
	if body := s.ToolResult(t, "c-body-2"); !strings.Contains(body, `"perch":null`) {
		t.Fatalf("look body after a drop in mid-air = %s", body)
	}
}
