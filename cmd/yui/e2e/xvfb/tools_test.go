//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"image"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// toolScenario is a yui-sim scenario: on the first turn it asks the pet
// to sit on Notes, then for its perch targets, then for the screen, each
// once the previous result came back, and ends the turn.
const toolScenario = `{"steps": [
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-sit", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "sit_on_window", "app": "Notes"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-targets", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "perch_targets"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-screen", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "screen"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "Comfy up here."}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-screen-2", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "screen"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-sit-3", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "sit_on_window", "app": "notes"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

func TestToolsSitOnWindow(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	notes := harness.Start(t, d.Env(), "xmessage", "-title", "Notes", "-geometry", "420x160+300+360", "Shopping: milk, eggs, tea")
	notesID := d.WindowID(t, "Notes")

	scen := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(scen, []byte(toolScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	port := harness.FreePort(t)
	s := harness.StartSim(t, port, "sim-key", scen)
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.Url, "--stats-every", "500ms")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	hello := s.Frames("hello")
	if len(hello) == 0 {
		t.Fatal("no hello")
	}
	b, _ := json.Marshal(hello[0]["tools"])
	for _, name := range []string{`"look"`, `"body_action"`, `"rate_relation"`, `"address_character"`} {
		if !strings.Contains(string(b), name) {
			t.Fatalf("hello.tools lacks %s: %s", name, b)
		}
	}
	petID := d.WindowID(t, "Yui")
	d.WaitShot(t, "tools-start", 10*time.Second, harness.DrawnCheck(d.Frame(t, petID)))

	a.Talk("please sit on my notes")
	res := s.ToolResult(t, "c-sit")
	if !strings.HasPrefix(res, `ok: sitting on `) || !strings.Contains(res, "Notes") {
		t.Fatalf("sit_on_window result = %q", res)
	}
	var pet image.Rectangle
	nr := d.Frame(t, notesID)
	harness.WaitFor(t, 10*time.Second, "the pet's feet on Notes' top edge", func() bool {
		pet = d.Frame(t, petID)
		_, feet := a.PetFeet(pet)
		return feet == nr.Min.Y
	})
	x, _ := a.PetFeet(pet)
	t.Logf("pet %v (feet at x %d), Notes' frame %v", pet, x, nr)
	if x < nr.Min.X || x > nr.Max.X {
		t.Fatalf("the pet's centre x %d is not over Notes (%v)", x, nr)
	}
	d.Screenshot(t, "sitting")

	targets := s.ToolResult(t, "c-targets")
	if !strings.Contains(targets, `"title":"Notes"`) || !strings.Contains(targets, `"kind":"window_top"`) {
		t.Fatalf("perch_targets = %s", targets)
	}
	screen := s.ToolResult(t, "c-screen")
	if screen != "error: waiting for the user's permission; ask again after they answer" {
		t.Fatalf("look screen without permission = %q", screen)
	}
	a.WaitRecord(10*time.Second, "pet_screen_look_prompt", nil)
	prompt := d.WindowID(t, "Yui — screen access")
	d.WaitShot(t, "permission-prompt", 10*time.Second, harness.PaintedCheck(d.Frame(t, prompt)))

	// Allow: the answer is saved, and the next look at the screen sees it.
	d.Run(t, "xdotool", "mousemove", "--window", prompt, "35", "84", "click", "1")
	a.WaitRecord(10*time.Second, "screen_look", map[string]string{"value": "allowed"})
	harness.WaitFor(t, 10*time.Second, "screen_look saved", func() bool {
		b, err := os.ReadFile(filepath.Join(a.Cfg, "settings.json"))
		return err == nil && strings.Contains(strings.ReplaceAll(string(b), " ", ""), `"screen_look":"allowed"`)
	})
	// The pet can see the screen now: its watching sign shows by the pill.
	a.WaitRecord(10*time.Second, "pet_watching", map[string]string{"on": "true"})
	d.WaitShot(t, "watching", 10*time.Second, harness.DrawnCheck(d.Frame(t, petID)))
	// The pet is not where it was shown first: the shortcut opens the
	// composer, whose include-screen toggle (screen_on_turn "toggle", the
	// default) is the second button, 64,482 into the window.
	shortcutComposer(a)
	d.Run(t, "xdotool", "mousemove", "--window", petID, "64", fmt.Sprint(482-a.Rise()), "click", "1")
	a.WaitRecord(10*time.Second, "pet_screen_toggle", map[string]string{"on": "true"})
	d.Screenshot(t, "screen-toggle-on")
	shortcutComposer(a) // the entry takes the keys again
	d.Run(t, "xdotool", "type", "--delay", "30", "and now?")
	d.Run(t, "xdotool", "key", "Return")
	var cc string
	harness.WaitFor(t, 20*time.Second, "the second turn at the simulator", func() bool {
		fs := s.Frames("turn")
		if len(fs) < 2 {
			return false
		}
		cc, _ = fs[1]["client_context"].(string)
		return true
	})
	if !strings.Contains(cc, `character: Yui; emotion happy; sitting on "Xmessage"`) {
		t.Fatalf("the character line does not say where the pet sits: %q", cc)
	}
	if !strings.Contains(cc, "screenshot source: display 1 of 1, 1280x800") {
		t.Fatalf("a typed turn with the screen toggle on: client_context = %q", cc)
	}
	shot := s.ToolResult(t, "c-screen-2")
	if !strings.Contains(shot, "screenshot of display 0 (1280x800)") || !strings.Contains(shot, "data:image/jpeg;base64,") {
		t.Fatalf("look screen once allowed = %.300s", shot)
	}

	// Notes moves: the pet follows it.
	d.Run(t, "xdotool", "windowmove", notesID, "760", "450")
	harness.WaitFor(t, 10*time.Second, "the pet following Notes", func() bool {
		_, feet := a.PetFeet(d.Frame(t, petID))
		return feet == d.Frame(t, notesID).Min.Y
	})
	d.Screenshot(t, "followed")

	// Notes closes: the pet falls to the screen bottom.
	notes.Stop()
	var last image.Rectangle
	t.Cleanup(func() { t.Logf("pet at the end: %v", last) })
	harness.WaitFor(t, 10*time.Second, "the pet on the screen bottom", func() bool {
		last = d.Frame(t, petID)
		_, feet := a.PetFeet(last)
		return feet == 800
	})
	d.Screenshot(t, "fallen")

	// Sitting again, the user drags the pet away: it no longer follows Notes.
	harness.Start(t, d.Env(), "xmessage", "-title", "Notes", "-geometry", "420x160+300+360", "Shopping: bread")
	notesID = d.WindowID(t, "Notes")
	shortcutComposer(a)
	d.Run(t, "xdotool", "type", "--delay", "30", "once more")
	d.Run(t, "xdotool", "key", "Return")
	if res := s.ToolResult(t, "c-sit-3"); !strings.HasPrefix(res, "ok: sitting on ") {
		t.Fatalf("second sit_on_window = %q", res)
	}
	harness.WaitFor(t, 10*time.Second, "the pet sitting on the new Notes", func() bool {
		_, feet := a.PetFeet(d.Frame(t, petID))
		return feet == d.Frame(t, notesID).Min.Y
	})

	// The composer's attach button opens a file dialog for an image (while
	// the pet sits on Notes: on the screen bottom the composer is below it).
	d.Run(t, "xdotool", "mousemove", "--window", petID, "28", fmt.Sprint(482-a.Rise()), "click", "1")
	dlg := d.WindowID(t, "Yui — attach an image")
	d.WaitShot(t, "attach-dialog", 10*time.Second, harness.PaintedCheck(d.Frame(t, dlg)))
	d.Run(t, "xdotool", "windowactivate", "--sync", dlg, "key", "alt+F4")
	harness.WaitFor(t, 10*time.Second, "the file dialog closed", func() bool {
		out, _ := d.Command("xdotool", "search", "--onlyvisible", "--name", "attach an image").Output()
		return strings.TrimSpace(string(out)) == ""
	})

	pet = d.Frame(t, petID)
	_, pf := a.PetFeet(pet)
	from := image.Pt(pet.Min.X+180, pf-128)
	d.Drag(t, from, from.Add(image.Pt(-480, -60)))
	a.WaitRecord(10*time.Second, "pet_window_moved", nil)
	// Dropped beside Notes, the pet falls to the screen bottom.
	var dropped image.Rectangle
	harness.WaitFor(t, 10*time.Second, "the dropped pet on the screen bottom", func() bool {
		dropped = d.Frame(t, petID)
		_, feet := a.PetFeet(dropped)
		return feet == 800
	})
	if dropped.Min.X == pet.Min.X {
		t.Fatalf("the drag did not move the pet from %v", pet)
	}
	d.Run(t, "xdotool", "windowmove", notesID, "760", "450")
	a.WaitTicks(3) // a following pet moves within a frame or two
	if now := d.Frame(t, petID); now != dropped {
		t.Fatalf("the pet followed Notes after the user dragged it: %v, dropped at %v", now, dropped)
	}
	d.Screenshot(t, "dragged-off")

	t.Logf("pet where the user dropped it: %v", d.Frame(t, petID))
}

func TestToolsBrowserReadsAPage(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium on this machine")
	}
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Tea shop</title></head><body><p>Sencha, 12 euros.</p></body></html>`)
	}))
	defer page.Close()
	scen := filepath.Join(t.TempDir(), "browser.json")
	scenario := `{"steps": [
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-read", "turn_id": "{turn_id}", "name": "browser", "arguments": {"action": "read", "url": "` + page.URL + `"}}},
  {"wait": "tool_result", "timeout_ms": 40000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`
	if err := os.WriteFile(scen, []byte(scenario), 0o600); err != nil {
		t.Fatal(err)
	}
	d := harness.StartXvfb(t, 1280, 800)
	port := harness.FreePort(t)
	s := harness.StartSim(t, port, "sim-key", scen)
	cfg := t.TempDir()
	harness.WriteSettings(t, cfg, harness.Preset{ID: "p-1", Name: "Yui", Enabled: true, ChatAPI: "push", ChatBaseURL: s.Url, Key: "sim-key", ChatID: "yui-0000abcd"})
	st := harness.ReadSettings(t, cfg)
	st["browser_tool"] = true
	st["browser_local"] = true // the page is on loopback: the App tab's switch allows it
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	if b, _ := json.Marshal(s.Frames("hello")); !strings.Contains(string(b), `"browser"`) {
		t.Fatalf("hello does not declare browser: %.400s", b)
	}
	a.Talk("what does the tea cost?")
	res := s.ToolResult(t, "c-read")
	if res != "title: Tea shop\n\nSencha, 12 euros." {
		t.Fatalf("browser read = %q", res)
	}
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"tool": "browser running"})
	a.WaitRecord(10*time.Second, "pet_pill", map[string]string{"tool": "browser done"})
}
