//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startWM runs openbox, an EWMH window manager, on d and waits until it
// manages the screen.
func startWM(t testing.TB, d *display) {
	t.Helper()
	start(t, d.env(), "openbox")
	waitFor(t, 15*time.Second, "openbox managing the screen", func() bool {
		out, err := d.command("xprop", "-root", "_NET_SUPPORTING_WM_CHECK").CombinedOutput()
		return err == nil && strings.Contains(string(out), "window id")
	})
}

// windowID finds the one window titled name.
func (d *display) windowID(t testing.TB, name string) string {
	t.Helper()
	var id string
	found := waitForOr(15*time.Second, func() bool {
		out, err := d.command("xdotool", "search", "--onlyvisible", "--name", "^"+name+"$").Output()
		ids := strings.Fields(string(out))
		if err != nil || len(ids) == 0 {
			return false
		}
		id = ids[0]
		return true
	})
	if !found {
		tree, _ := d.command("xwininfo", "-root", "-tree").CombinedOutput()
		t.Fatalf("timed out after 15s waiting for window %s on display %s; the windows:\n%s", name, d.name, tree)
	}
	return id
}

// frame is the rectangle of a window's frame on the root window: the
// window manager's frame window around it (decorations included), or the
// window itself when it is a child of the root. xwininfo, not xdotool:
// xdotool's getwindowgeometry adds the decorations once more.
func (d *display) frame(t testing.TB, id string) image.Rectangle {
	t.Helper()
	out := d.run(t, "xwininfo", "-id", d.topLevel(t, id))
	v := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		if k, s, ok := strings.Cut(strings.TrimSpace(l), ":"); ok {
			v[k], _ = strconv.Atoi(strings.TrimSpace(s))
		}
	}
	x, y := v["Absolute upper-left X"], v["Absolute upper-left Y"]
	return image.Rect(x, y, x+v["Width"], y+v["Height"])
}

// petFeet is the bottom edge of the character: the pet window is laid
// out as 150 units of bubble area above a 192x256 character, less the
// rise of its content at the top of a monitor that the app last logged.
func (a *app) petFeet(win image.Rectangle) (x, y int) {
	return win.Min.X + win.Dx()/2, win.Min.Y + 150 + 256 - a.rise()
}

// rise is the pet window content's rise the app last logged
// (pet_window_rise), 0 when none.
func (a *app) rise() int {
	rise := 0
	for _, r := range a.log() {
		if r.str("msg") == "pet_window_rise" {
			v, _ := r["by"].(float64)
			rise = int(v)
		}
	}
	return rise
}

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

// toolResult waits for the tool_result of call id at the simulator.
func (s *sim) toolResult(t testing.TB, id string) string {
	t.Helper()
	var text string
	waitFor(t, 30*time.Second, "tool_result "+id, func() bool {
		for _, f := range s.frames("tool_result") {
			if f["id"] == id {
				text, _ = f["result"].(string)
				if imgs, _ := f["images"].([]any); len(imgs) > 0 {
					// Images follow the text, each as the start of its data URL.
					for _, im := range imgs {
						u, _ := im.(string)
						text += "\n" + u[:min(len(u), 40)]
					}
				}
				return true
			}
		}
		return false
	})
	return text
}

func TestToolsSitOnWindow(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	startWM(t, d)
	notes := start(t, d.env(), "xmessage", "-title", "Notes", "-geometry", "420x160+300+360", "Shopping: milk, eggs, tea")
	notesID := d.windowID(t, "Notes")

	scen := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(scen, []byte(toolScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	s := startSim(t, port, "sim-key", scen)
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.url, "--stats-every", "500ms")
	a.waitRecord(30*time.Second, "ws_ready", nil)
	hello := s.frames("hello")
	if len(hello) == 0 {
		t.Fatal("no hello")
	}
	b, _ := json.Marshal(hello[0]["tools"])
	for _, name := range []string{`"look"`, `"body_action"`, `"rate_relation"`, `"address_character"`} {
		if !strings.Contains(string(b), name) {
			t.Fatalf("hello.tools lacks %s: %s", name, b)
		}
	}
	petID := d.windowID(t, "Yui")
	d.waitShot(t, "tools-start", 10*time.Second, drawnCheck(d.frame(t, petID)))

	a.talk("please sit on my notes")
	res := s.toolResult(t, "c-sit")
	if !strings.HasPrefix(res, `ok: sitting on `) || !strings.Contains(res, "Notes") {
		t.Fatalf("sit_on_window result = %q", res)
	}
	var pet image.Rectangle
	nr := d.frame(t, notesID)
	waitFor(t, 10*time.Second, "the pet's feet on Notes' top edge", func() bool {
		pet = d.frame(t, petID)
		_, feet := a.petFeet(pet)
		return feet == nr.Min.Y
	})
	x, _ := a.petFeet(pet)
	t.Logf("pet %v (feet at x %d), Notes' frame %v", pet, x, nr)
	if x < nr.Min.X || x > nr.Max.X {
		t.Fatalf("the pet's centre x %d is not over Notes (%v)", x, nr)
	}
	d.screenshot(t, "sitting")

	targets := s.toolResult(t, "c-targets")
	if !strings.Contains(targets, `"title":"Notes"`) || !strings.Contains(targets, `"kind":"window_top"`) {
		t.Fatalf("perch_targets = %s", targets)
	}
	screen := s.toolResult(t, "c-screen")
	if screen != "error: waiting for the user's permission; ask again after they answer" {
		t.Fatalf("look screen without permission = %q", screen)
	}
	a.waitRecord(10*time.Second, "pet_screen_look_prompt", nil)
	prompt := d.windowID(t, "Yui — screen access")
	d.waitShot(t, "permission-prompt", 10*time.Second, paintedCheck(d.frame(t, prompt)))

	// Allow: the answer is saved, and the next look at the screen sees it.
	d.run(t, "xdotool", "mousemove", "--window", prompt, "35", "84", "click", "1")
	a.waitRecord(10*time.Second, "screen_look", map[string]string{"value": "allowed"})
	waitFor(t, 10*time.Second, "screen_look saved", func() bool {
		b, err := os.ReadFile(filepath.Join(a.cfg, "settings.json"))
		return err == nil && strings.Contains(strings.ReplaceAll(string(b), " ", ""), `"screen_look":"allowed"`)
	})
	// The pet can see the screen now: its watching sign shows by the pill.
	a.waitRecord(10*time.Second, "pet_watching", map[string]string{"on": "true"})
	d.waitShot(t, "watching", 10*time.Second, drawnCheck(d.frame(t, petID)))
	// The pet is not where it was shown first: the shortcut opens the
	// composer, whose include-screen toggle (screen_on_turn "toggle", the
	// default) is the second button, 64,482 into the window.
	a.shortcutComposer()
	d.run(t, "xdotool", "mousemove", "--window", petID, "64", fmt.Sprint(482-a.rise()), "click", "1")
	a.waitRecord(10*time.Second, "pet_screen_toggle", map[string]string{"on": "true"})
	d.screenshot(t, "screen-toggle-on")
	a.shortcutComposer() // the entry takes the keys again
	d.run(t, "xdotool", "type", "--delay", "30", "and now?")
	d.run(t, "xdotool", "key", "Return")
	var cc string
	waitFor(t, 20*time.Second, "the second turn at the simulator", func() bool {
		fs := s.frames("turn")
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
	shot := s.toolResult(t, "c-screen-2")
	if !strings.Contains(shot, "screenshot of display 0 (1280x800)") || !strings.Contains(shot, "data:image/jpeg;base64,") {
		t.Fatalf("look screen once allowed = %.300s", shot)
	}

	// Notes moves: the pet follows it.
	d.run(t, "xdotool", "windowmove", notesID, "760", "450")
	waitFor(t, 10*time.Second, "the pet following Notes", func() bool {
		_, feet := a.petFeet(d.frame(t, petID))
		return feet == d.frame(t, notesID).Min.Y
	})
	d.screenshot(t, "followed")

	// Notes closes: the pet falls to the screen bottom.
	notes.stop()
	var last image.Rectangle
	t.Cleanup(func() { t.Logf("pet at the end: %v", last) })
	waitFor(t, 10*time.Second, "the pet on the screen bottom", func() bool {
		last = d.frame(t, petID)
		_, feet := a.petFeet(last)
		return feet == 800
	})
	d.screenshot(t, "fallen")

	// Sitting again, the user drags the pet away: it no longer follows Notes.
	start(t, d.env(), "xmessage", "-title", "Notes", "-geometry", "420x160+300+360", "Shopping: bread")
	notesID = d.windowID(t, "Notes")
	a.shortcutComposer()
	d.run(t, "xdotool", "type", "--delay", "30", "once more")
	d.run(t, "xdotool", "key", "Return")
	if res := s.toolResult(t, "c-sit-3"); !strings.HasPrefix(res, "ok: sitting on ") {
		t.Fatalf("second sit_on_window = %q", res)
	}
	waitFor(t, 10*time.Second, "the pet sitting on the new Notes", func() bool {
		_, feet := a.petFeet(d.frame(t, petID))
		return feet == d.frame(t, notesID).Min.Y
	})

	// The composer's attach button opens a file dialog for an image (while
	// the pet sits on Notes: on the screen bottom the composer is below it).
	d.run(t, "xdotool", "mousemove", "--window", petID, "28", fmt.Sprint(482-a.rise()), "click", "1")
	dlg := d.windowID(t, "Yui — attach an image")
	d.waitShot(t, "attach-dialog", 10*time.Second, paintedCheck(d.frame(t, dlg)))
	d.run(t, "xdotool", "windowactivate", "--sync", dlg, "key", "alt+F4")
	waitFor(t, 10*time.Second, "the file dialog closed", func() bool {
		out, _ := d.command("xdotool", "search", "--onlyvisible", "--name", "attach an image").Output()
		return strings.TrimSpace(string(out)) == ""
	})

	pet = d.frame(t, petID)
	_, pf := a.petFeet(pet)
	from := image.Pt(pet.Min.X+180, pf-128)
	d.drag(t, from, from.Add(image.Pt(-480, -60)))
	a.waitRecord(10*time.Second, "pet_window_moved", nil)
	// Dropped beside Notes, the pet falls to the screen bottom.
	var dropped image.Rectangle
	waitFor(t, 10*time.Second, "the dropped pet on the screen bottom", func() bool {
		dropped = d.frame(t, petID)
		_, feet := a.petFeet(dropped)
		return feet == 800
	})
	if dropped.Min.X == pet.Min.X {
		t.Fatalf("the drag did not move the pet from %v", pet)
	}
	d.run(t, "xdotool", "windowmove", notesID, "760", "450")
	a.waitTicks(3) // a following pet moves within a frame or two
	if now := d.frame(t, petID); now != dropped {
		t.Fatalf("the pet followed Notes after the user dragged it: %v, dropped at %v", now, dropped)
	}
	d.screenshot(t, "dragged-off")

	t.Logf("pet where the user dropped it: %v", d.frame(t, petID))
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
	d := startXvfb(t, 1280, 800)
	port := freePort(t)
	s := startSim(t, port, "sim-key", scen)
	cfg := t.TempDir()
	writeSettings(t, cfg, preset{ID: "p-1", Name: "Yui", Enabled: true, ChatAPI: "push", ChatBaseURL: s.url, Key: "sim-key", ChatID: "yui-0000abcd"})
	st := readSettings(t, cfg)
	st["browser_tool"] = true
	st["browser_local"] = true // the page is on loopback: the App tab's switch allows it
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	a := startYuiIn(t, d, cfg, "")
	a.waitRecord(30*time.Second, "ws_ready", nil)
	if b, _ := json.Marshal(s.frames("hello")); !strings.Contains(string(b), `"browser"`) {
		t.Fatalf("hello does not declare browser: %.400s", b)
	}
	a.talk("what does the tea cost?")
	res := s.toolResult(t, "c-read")
	if res != "title: Tea shop\n\nSencha, 12 euros." {
		t.Fatalf("browser read = %q", res)
	}
	a.waitRecord(10*time.Second, "pet_pill", map[string]string{"tool": "browser running"})
	a.waitRecord(10*time.Second, "pet_pill", map[string]string{"tool": "browser done"})
}
