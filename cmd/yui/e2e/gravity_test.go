//go:build e2e

package e2e

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// dragPet drags the pet by its body so that its feet end at (x, feet), as
// a person would: press, a few moves, release.
func dragPet(t *testing.T, a *app, petID string, x, feet int) {
	t.Helper()
	d := a.d
	// A drag now and then ends after a few steps on a loaded X server (the
	// pet lets go where it was): the drag is taken up again from there.
	for try := 0; ; try++ {
		pet := d.frame(t, petID)
		px, pf := a.petFeet(pet)
		grab := image.Pt(px, pf-128)
		moved := a.count("pet_window_moved", nil)
		d.drag(t, grab, grab.Add(image.Pt(x-px, feet-pf)))
		a.waitRecord(10*time.Second, "pet_window_moved", nil)
		waitFor(t, 10*time.Second, "the drop", func() bool { return a.count("pet_window_moved", nil) > moved })
		nx, _ := a.petFeet(d.frame(t, petID))
		if abs(nx-x) <= 40 || try == 2 {
			return
		}
		t.Logf("the drag ended early (pet's feet at x %d, want %d): again", nx, x)
	}
}

// drag presses the first button at from, moves the pointer to to in steps
// of at most dragStep pixels, as a hand would, and releases it. Each step
// reaches the X server before the next (--sync).
func (d *display) drag(t *testing.T, from, to image.Point) {
	t.Helper()
	d.run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(from.X), fmt.Sprint(from.Y))
	d.run(t, "xdotool", "mousedown", "1")
	dist := max(abs(to.X-from.X), abs(to.Y-from.Y))
	steps := max(1, (dist+dragStep-1)/dragStep)
	for i := 1; i <= steps; i++ {
		d.run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(from.X+(to.X-from.X)*i/steps), fmt.Sprint(from.Y+(to.Y-from.Y)*i/steps))
	}
	d.run(t, "xdotool", "mouseup", "1")
}

// dragStep is the longest pointer step of a drag: long jumps can outrun a
// window that follows the pointer, as no hand does.
const dragStep = 15

// ask sends text from the composer the shortcut opens.
func (a *app) ask(text string) {
	a.t.Helper()
	a.shortcutComposer()
	a.d.run(a.t, "xdotool", "type", "--delay", "30", text)
	a.d.run(a.t, "xdotool", "key", "Return")
}

// shortcutComposer presses the global shortcut and waits until the main
// pet's composer is open and its window has the keyboard focus.
func (a *app) shortcutComposer() {
	a.t.Helper()
	opened := a.count("pet_composer_open", nil)
	a.d.run(a.t, "xdotool", "key", "ctrl+alt+y")
	waitFor(a.t, 10*time.Second, "the composer to open", func() bool { return a.count("pet_composer_open", nil) > opened })
	pet := a.d.windowID(a.t, "Yui")
	a.d.waitFocus(a.t, pet)
}

func TestGravityLandsOnNotesOrTheFloor(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	startWM(t, d)
	start(t, d.env(), "xmessage", "-title", "Notes", "-geometry", "420x160+300+360", "Shopping: milk, eggs, tea")
	notesID := d.windowID(t, "Notes")

	scen := filepath.Join(t.TempDir(), "gravity.json")
	if err := os.WriteFile(scen, []byte(gravityScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startSim(t, freePort(t), "sim-key", scen)
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.url)
	a.waitRecord(30*time.Second, "ws_ready", nil)
	petID := d.windowID(t, "Yui")
	before := d.waitShot(t, "gravity-start", 10*time.Second, drawnCheck(d.frame(t, petID)))

	// Dropped with its feet 30 px above Notes' top edge: it falls onto it.
	nr := d.frame(t, notesID)
	dragPet(t, a, petID, (nr.Min.X+nr.Max.X)/2, nr.Min.Y-30)
	a.waitRecord(10*time.Second, "pet_window_moved", nil)
	var pet image.Rectangle
	waitFor(t, 10*time.Second, "the pet sitting on Notes", func() bool {
		pet = d.frame(t, petID)
		_, feet := a.petFeet(pet)
		return feet == d.frame(t, notesID).Min.Y
	})
	if x, _ := a.petFeet(pet); x < nr.Min.X || x > nr.Max.X {
		t.Fatalf("the pet's centre x %d is not over Notes (%v)", x, nr)
	}
	sitting := d.waitShot(t, "gravity-sitting", 10*time.Second, drawnCheck(pet))
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
	a.ask("where are you?")
	body := s.toolResult(t, "c-body-1")
	if !strings.Contains(body, `"perch":{"kind":"window_top"`) || !strings.Contains(body, `"title":"Notes"`) {
		t.Fatalf("look body after the drop on Notes = %s", body)
	}
	cc, _ := s.frames("turn")[0]["client_context"].(string)
	if !strings.Contains(cc, `sitting on "Xmessage"`) {
		t.Fatalf("the character line does not say where the pet sits: %q", cc)
	}
	// Notes moves: the pet follows it, as sit_on_window's does.
	d.run(t, "xdotool", "windowmove", notesID, "700", "420")
	waitFor(t, 10*time.Second, "the pet following Notes", func() bool {
		_, feet := a.petFeet(d.frame(t, petID))
		return feet == d.frame(t, notesID).Min.Y
	})

	// Dropped in mid-air, far from Notes: it falls to the work area's bottom.
	a.waitRecord(10*time.Second, "push.turn_end", nil) // the turn ends right after the look
	dragPet(t, a, petID, 250, 200)
	waitFor(t, 10*time.Second, "the pet on the bottom of the work area", func() bool {
		_, feet := a.petFeet(d.frame(t, petID))
		return feet == 800
	})
	d.waitShot(t, "gravity-floor", 10*time.Second, drawnCheck(d.frame(t, petID)))
	a.ask("and now?")
	if body := s.toolResult(t, "c-body-2"); !strings.Contains(body, `"perch":null`) {
		t.Fatalf("look body after a drop in mid-air = %s", body)
	}
}
