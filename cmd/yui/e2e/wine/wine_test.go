//go:build e2e

package wine

import (
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// wineStart bounds a yui.exe start under Wine: the Go runtime, GLFW and
// Wine's first window take several seconds on a loaded machine.
const wineStart = 90 * time.Second

// netState is the _NET_WM_STATE of X window id, as xprop prints it.
func netState(d *harness.Display, t testing.TB, id string) string {
	t.Helper()
	return d.Run(t, "xprop", "-id", id, "_NET_WM_STATE")
}

// pillShown reports whether the status pill's row (below the character and
// its name plate) shows drawn pixels, light text on a dark pill or the
// reverse, in the middle of the pet window.
func pillShown(img image.Image, win image.Rectangle) bool {
	const pillY = 150 + 256 + 4 + 22 + 4 // layout.go: bubble area, character, plate, gaps
	drawn := 0
	for y := win.Min.Y + pillY + 4; y < win.Min.Y+pillY+18; y++ {
		for x := win.Min.X + win.Dx()/4; x < win.Max.X-win.Dx()/4; x++ {
			if !harness.IsBackground(img, x, y) {
				drawn++
			}
		}
	}
	return drawn > 200
}

// Where the composer's entry and its send (stop) button are in the pet
// window (layout.go: the composer row under the pill row, 8 px margins,
// 32 px buttons).
var (
	composerEntry  = image.Pt(180, 482)
	composerButton = image.Pt(332, 482)
)

// wineTalk opens the composer with a double click on the pet and sends
// text from it.
func wineTalk(t *testing.T, a *harness.App, petID, text string) {
	t.Helper()
	win := a.D.Frame(t, petID)
	c := harness.CharacterCentre(win)
	c.Y -= a.Rise() // the content rises at the top of a monitor
	opened := a.Count("pet_composer_open", nil)
	a.D.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(c.X), fmt.Sprint(c.Y))
	harness.WaitFor(t, 30*time.Second, "the composer to open", func() bool {
		a.D.Run(t, "xdotool", "click", "--repeat", "2", "--delay", "80", "1")
		return harness.WaitForOr(5*time.Second, func() bool { return a.Count("pet_composer_open", nil) > opened })
	})
	wineType(t, a, win, petID, text)
}

// wineType clicks into the open composer's entry until the pet window has
// the keyboard focus (Wine gives a managed window the X focus on a click,
// not when it asks for the foreground), types text and presses Enter.
func wineType(t *testing.T, a *harness.App, win image.Rectangle, petID, text string) {
	t.Helper()
	want := a.D.TopLevel(t, petID)
	harness.WaitFor(t, 20*time.Second, "the keyboard focus in the composer", func() bool {
		harness.Click(t, a.D, win.Min.X+composerEntry.X, win.Min.Y+composerEntry.Y-a.Rise())
		return harness.WaitForOr(2*time.Second, func() bool {
			return a.D.TopLevel(t, strings.TrimSpace(a.D.Run(t, "xdotool", "getwindowfocus"))) == want
		})
	})
	a.D.Run(t, "xdotool", "type", "--delay", "30", text)
	a.D.Run(t, "xdotool", "key", "Return")
}

// clientOrigin is where the window titled name has its top-left corner on
// the screen: the X window itself, inside the window manager's frame
// (xdotool's getwindowgeometry gives the frame's corner for Wine's windows).
func clientOrigin(t *testing.T, d *harness.Display, name string) (x, y int) {
	t.Helper()
	out := d.Run(t, "xwininfo", "-id", d.WindowID(t, name))
	for _, l := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), ":"); ok {
			switch k {
			case "Absolute upper-left X":
				x, _ = strconv.Atoi(strings.TrimSpace(v))
			case "Absolute upper-left Y":
				y, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
	}
	return x, y
}

// writeScenario writes a yui-sim scenario into the test's folder.
func writeScenario(t testing.TB, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "scenario.json")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// petScenario answers a typed turn and a poke, then holds the third turn
// until the client stops it.
const petScenario = `{"steps": [
  {"wait": "turn", "timeout_ms": 300000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "Hello from the Windows build."}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 300000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"speech": "You poked me!"}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 300000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"speech": "Let me think about that for a long while."}]}},
  {"wait": "stop", "timeout_ms": 300000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

// The pet window of yui.exe under Wine: shaped to the character by its
// window region (SHAPE rectangles on the Wine X window, clicks fall
// through outside the character), on top, no taskbar button; a typed turn
// through the composer, a poke and a stop, with the bubble and the status
// pill on the screen.
func TestWinePetWindow(t *testing.T) {
	w := startWine(t)
	d := w.d
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", writeScenario(t, petScenario))
	a := w.startYui(t.TempDir(), "sim-key", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(wineStart, "ws_ready", nil)
	win := a.PetRect()
	petID := d.WindowID(t, "Yui")
	d.WaitShot(t, "wine-idle", 20*time.Second, func(img image.Image) error { return harness.NotShaped(img, win) })

	// The window region, as X SHAPE rectangles: many, all inside the
	// window, covering the character's centre and not the corners.
	rects := d.ShapeRects(t, petID)
	frame := d.Frame(t, petID)
	covers := func(p image.Point) bool {
		for _, r := range rects {
			if p.In(r) {
				return true
			}
		}
		return false
	}
	c := harness.CharacterCentre(win).Sub(frame.Min)
	if len(rects) < 10 || !covers(c) || covers(image.Pt(2, 2)) || covers(image.Pt(frame.Dx()-3, 2)) {
		t.Fatalf("the pet window's SHAPE rectangles (%d) do not follow the character: %v", len(rects), rects[:min(len(rects), 8)])
	}
	// A click outside the character reaches what is below: the pointer
	// there is not over the pet window.
	corner := image.Pt(win.Min.X+4, win.Min.Y+150+128)
	d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(corner.X), fmt.Sprint(corner.Y))
	if under := d.WindowUnderPointer(t); under == petID || under == d.TopLevel(t, petID) {
		t.Fatalf("the pointer at %v, outside the character, is over the pet window (%s)", corner, under)
	}
	st := netState(d, t, petID)
	if !strings.Contains(st, "_NET_WM_STATE_ABOVE") {
		t.Errorf("the pet window is not on top (HWND_TOPMOST): %s", st)
	}
	if !strings.Contains(st, "_NET_WM_STATE_SKIP_TASKBAR") {
		t.Errorf("the pet window has a taskbar button (WS_EX_TOOLWINDOW): %s", st)
	}

	// A typed turn through the composer.
	wineTalk(t, a, petID, "hello from wine")
	turn := a.WaitRecord(30*time.Second, "turn", map[string]string{"spoke_text": "false"})
	a.WaitRecord(30*time.Second, "push.turn_end", map[string]string{"turn_id": turn.Str("turn_id")})
	a.WaitRecord(30*time.Second, "speech", map[string]string{"turn_id": turn.Str("turn_id"), "text": "Hello from the Windows build."})
	shot := d.WaitShot(t, "wine-bubble", 20*time.Second, harness.BubbleCheck(win))
	harness.AssertShaped(t, shot, win)
	if !pillShown(shot, win) {
		t.Errorf("no status pill under the character")
	}
	if _, ok := harness.FindRecord(a.Log(), "pet_pill", map[string]string{"state": "ready"}); !ok {
		t.Errorf("no pet_pill record in state ready")
	}
	a.D.Run(t, "xdotool", "key", "Escape")

	// A poke: a click on the character starts a turn. A click too close
	// to the last one makes a double click (the composer): it is clicked
	// again, seconds later, until the poke is taken.
	cc := harness.CharacterCentre(win)
	harness.WaitFor(t, 30*time.Second, "a poke", func() bool {
		harness.Click(t, d, cc.X, cc.Y)
		return harness.WaitForOr(3*time.Second, func() bool { return a.Count("pet_poke", nil) > 0 })
	})
	harness.WaitFor(t, 30*time.Second, "the poke turn", func() bool { return len(s.Frames("turn")) >= 2 })
	a.WaitRecord(30*time.Second, "speech", map[string]string{"text": "You poked me!"})

	// A turn that runs is stopped from the composer.
	wineTalk(t, a, petID, "think for a long while")
	harness.WaitFor(t, 30*time.Second, "the third turn", func() bool { return len(s.Frames("turn")) >= 3 })
	a.WaitRecord(30*time.Second, "speech", map[string]string{"text": "Let me think about that for a long while."})
	// The composer's send button is the stop button while a turn runs.
	d.Screenshot(t, "wine-running")
	harness.Click(t, d, win.Min.X+composerButton.X, win.Min.Y+composerButton.Y-a.Rise())
	a.WaitRecord(10*time.Second, "pet_composer_stop", nil)
	harness.WaitFor(t, 20*time.Second, "the stop frame at the simulator", func() bool { return len(s.Frames("stop")) >= 1 })
	third, _ := s.Frames("turn")[2]["turn_id"].(string)
	a.WaitRecord(20*time.Second, "push.turn_end", map[string]string{"turn_id": third})
	d.Screenshot(t, "wine-stopped")
}

// petMenu right-clicks the character at c and clicks the menu's item
// (0 Talk, 1 Messages, 2 Settings) until done says it worked: the menu
// grows the window's region, and a click that comes before the new region
// falls through.
func petMenu(t *testing.T, d *harness.Display, c image.Point, item int, done func() bool) {
	t.Helper()
	for try := 0; !done(); try++ {
		if try == 5 {
			t.Fatalf("menu item %d of the pet's menu did nothing", item)
		}
		harness.Click(t, d, c.X, c.Y, "3")
		harness.Click(t, d, c.X+30, c.Y+15+30*item)
		harness.WaitForOr(3*time.Second, done)
	}
}

// The settings window of yui.exe opens (on a rejected key, by itself), a
// field (the key) is changed and saved; the message window shows the turn;
// a drag moves the pet and a restart puts it back where it was dropped.
func TestWineSettingsMessagesAndPosition(t *testing.T) {
	w := startWine(t)
	d := w.d
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	p := harness.PushPreset("p-wine0001", "Yui", s, "wrong-key")
	harness.WriteSettings(t, cfg, p)
	a := w.startYui(cfg, "")
	a.WaitRecord(wineStart, "ws_close", map[string]string{"code": "4401"})
	a.WaitRecord(30*time.Second, "window_open", map[string]string{"window": "settings"})
	x, y := clientOrigin(t, d, "Yui settings")
	d.WaitShot(t, "wine-settings", 20*time.Second, harness.PaintedCheck(image.Rect(x, y, x+400, y+300)))

	// The key field of the Preset tab, then Save.
	settingsID := d.WindowID(t, "Yui settings")
	harness.WaitFor(t, 20*time.Second, "the keyboard focus in the settings window", func() bool {
		harness.Click(t, d, x+700, y+454)
		return harness.WaitForOr(2*time.Second, func() bool {
			return d.TopLevel(t, strings.TrimSpace(d.Run(t, "xdotool", "getwindowfocus"))) == d.TopLevel(t, settingsID)
		})
	})
	d.Run(t, "xdotool", "key", "ctrl+a")
	d.Run(t, "xdotool", "type", "--delay", "40", "k1")
	d.Screenshot(t, "wine-key-typed")
	harness.Click(t, d, x+1060, y+697)
	a.WaitRecord(30*time.Second, "preset_reconnect", map[string]string{"preset": p.ID})
	a.WaitRecord(30*time.Second, "ws_ready", map[string]string{"preset": p.ID})
	if st := harness.ReadSettings(t, cfg); !strings.Contains(fmt.Sprint(st["presets"]), "k1") {
		t.Errorf("the new key was not saved")
	}
	_ = d.Command("xdotool", "search", "--name", "^Yui settings$", "windowunmap", "--sync").Run()

	wineTalk(t, a, d.WindowID(t, "Yui"), "remember this line")
	a.WaitRecord(30*time.Second, "push.turn_end", nil)
	a.D.Run(t, "xdotool", "key", "Escape")
	win := a.PetRect()
	c := harness.CharacterCentre(win)
	petMenu(t, d, c, 1, func() bool { return a.Count("window_open", map[string]string{"window": "messages"}) > 0 })
	msgs := d.WindowID(t, "Yui — messages")
	d.WaitShot(t, "wine-messages", 20*time.Second, harness.PaintedCheck(d.Frame(t, msgs)))
	d.Run(t, "xdotool", "windowunmap", "--sync", msgs)

	// Drag the pet 200 px left and 100 px up.
	d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(c.X), fmt.Sprint(c.Y+40))
	d.Run(t, "xdotool", "mousedown", "1")
	for i := 1; i <= 10; i++ {
		d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(c.X-20*i), fmt.Sprint(c.Y+40-10*i))
	}
	d.Run(t, "xdotool", "mouseup", "1")
	moved := a.WaitRecord(20*time.Second, "pet_window_moved", nil)
	if mx, _ := moved["x"].(float64); int(mx) > win.Min.X-100 {
		t.Fatalf("the drag moved the pet from %v to %v,%v", win.Min, moved["x"], moved["y"])
	}
	harness.WaitFor(t, 10*time.Second, "the position in the preset's state file", func() bool {
		if _, err := os.Stat(filepath.Join(cfg, "state", p.ID+".json")); err != nil {
			return false
		}
		return strings.Contains(fmt.Sprint(harness.ReadState(t, cfg, p.ID)["positions"]), fmt.Sprintf("x:%v", moved["x"]))
	})
	a.Proc.Stop()
	w.stopAll()

	b := w.startYui(cfg, "")
	harness.WaitFor(t, wineStart, "the second run's pet", func() bool { return b.Count("pet_window_shown", nil) == 2 })
	var shown harness.Record
	for _, r := range b.Log() {
		if r.Str("msg") == "pet_window_shown" && r.Str("time") > moved.Str("time") {
			shown = r
		}
	}
	if fmt.Sprint(shown["x"], shown["y"]) != fmt.Sprint(moved["x"], moved["y"]) {
		t.Errorf("after restart the pet is at %v,%v, it was moved to %v,%v", shown["x"], shown["y"], moved["x"], moved["y"])
	}
	d.Screenshot(t, "wine-after-restart")
}

// notepadScenario: the first turn sits the pet on Notepad through
// body_action and looks at the body; the second looks again after the
// pet fell back onto Notepad.
const notepadScenario = `{"steps": [
  {"wait": "turn", "timeout_ms": 300000},
  {"send": {"type": "tool_call", "id": "c-sit", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "sit_on_window", "app": "notepad"}}},
  {"wait": "tool_result", "timeout_ms": 60000},
  {"send": {"type": "tool_call", "id": "c-body-1", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "body"}}},
  {"wait": "tool_result", "timeout_ms": 60000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 300000},
  {"send": {"type": "tool_call", "id": "c-body-2", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "body"}}},
  {"wait": "tool_result", "timeout_ms": 60000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

// feetOn waits until the pet's feet stand on the top edge of window id
// and its centre is over it. The edge is the Win32 window rectangle's top:
// for a window the X window manager decorates, Wine keeps the rectangle
// of the Windows caption and borders the manager's frame stands in for,
// so the edge lies a few pixels off the X frame's top (seen: 3 above).
func feetOn(t *testing.T, a *harness.App, petID, id, what string) {
	t.Helper()
	d := a.D
	var pet, win image.Rectangle
	if !harness.WaitForOr(20*time.Second, func() bool {
		pet, win = d.Frame(t, petID), d.Frame(t, id)
		x, feet := a.PetFeet(pet)
		return feet >= win.Min.Y-frameSlack && feet <= win.Min.Y+frameSlack && x >= win.Min.X && x <= win.Max.X
	}) {
		t.Fatalf("timed out waiting for %s: the pet at %v, the window at %v", what, pet, win)
	}
}

// frameSlack bounds how far Wine's window rectangle of a decorated window
// lies from the window manager's frame.
const frameSlack = 12

// yui.exe sits on another Windows program's window, Wine's Notepad,
// found through the Win32 desktop layer (EnumWindows, the window's
// process name): body_action's sit_on_window, it follows Notepad when
// Notepad moves, and dropped above it, it falls back onto it.
//
// What Wine cannot show: DWM's extended frame bounds. On Windows 10 and 11
// they leave out the invisible resize borders GetWindowRect counts; Wine
// has no compositor and answers DwmGetWindowAttribute with the window
// rectangle, and a window without DWM bounds is read with GetWindowRect
// (desktop.frameOf). Here both are the X frame of the window, which is
// what the test checks the pet against; the seven-pixel border difference
// of a real Windows is checked by tools/desktop's unit test of frameOf.
func TestWineSitsOnNotepad(t *testing.T) {
	w := startWine(t)
	d := w.d
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", writeScenario(t, notepadScenario))
	// Dragging and typing are the day's first input: with the first
	// activity on, its turn would take the scenario's first step.
	cfg := t.TempDir()
	p := harness.PushPreset("p-wine0001", "Yui", s, "sim-key")
	p.Life = harness.QuietLife()
	harness.WriteSettings(t, cfg, p)
	a := w.startYui(cfg, "sim-key", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(wineStart, "ws_ready", nil)
	harness.Start(t, w.env, "wine", "notepad")
	noteID := d.WindowID(t, "Untitled - Notepad")
	d.Run(t, "xdotool", "windowmove", "--sync", noteID, "300", "420")
	d.Run(t, "xdotool", "windowsize", "--sync", noteID, "460", "240")
	petID := d.WindowID(t, "Yui")
	d.WaitShot(t, "wine-notepad-start", 20*time.Second, harness.DrawnCheck(d.Frame(t, petID)))

	wineTalk(t, a, petID, "sit on notepad")
	// body_action sit_on_window "notepad": the process name.
	sit := s.ToolResult(t, "c-sit")
	t.Logf("sit_on_window notepad: %s", sit)
	feetOn(t, a, petID, noteID, "the pet sitting on Notepad")
	body := s.ToolResult(t, "c-body-1")
	if !strings.Contains(body, `"perch":{"kind":"window_top"`) || !strings.Contains(body, `Notepad`) {
		t.Fatalf("look body on Notepad = %s", body)
	}
	d.WaitShot(t, "wine-on-notepad", 20*time.Second, harness.DrawnCheck(d.Frame(t, petID)))

	// Notepad moves: the pet follows it.
	d.Run(t, "xdotool", "windowmove", "--sync", noteID, "640", "360")
	feetOn(t, a, petID, noteID, "the pet following Notepad")
	d.Screenshot(t, "wine-followed-notepad")

	// Picked up and dropped in the air above Notepad, it falls back onto
	// it (gravity through the desktop layer's windows).
	a.WaitRecord(20*time.Second, "push.turn_end", nil)
	moves := a.Count("pet_window_moved", nil)
	nr := d.Frame(t, noteID)
	harness.DragPet(t, a, petID, nr.Min.X+120, nr.Min.Y-150)
	harness.WaitFor(t, 10*time.Second, "the drag", func() bool { return a.Count("pet_window_moved", nil) > moves })
	feetOn(t, a, petID, noteID, "the pet fallen onto Notepad")
	wineType(t, a, d.Frame(t, petID), petID, "and now?") // the composer is still open
	if body := s.ToolResult(t, "c-body-2"); !strings.Contains(body, `"perch":{"kind":"window_top"`) {
		t.Fatalf("look body after the fall onto Notepad = %s", body)
	}
	d.Screenshot(t, "wine-fell-on-notepad")
}

// The App tab's start-at-login switch writes the per-user Run key's value
// "yui" and removes it again, read back with Wine's reg.exe.
func TestWineStartAtLogin(t *testing.T) {
	w := startWine(t)
	d := w.d
	const run = `HKCU\Software\Microsoft\Windows\CurrentVersion\Run`
	if out := w.regQuery(run); strings.Contains(out, "yui") {
		t.Fatalf("a Run value before the switch was turned on:\n%s", out)
	}
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	harness.WriteSettings(t, cfg, harness.PushPreset("p-wine0002", "Yui", s, "wrong-key"))
	a := w.startYui(cfg, "", "--verbose")
	a.WaitRecord(wineStart, "window_open", map[string]string{"window": "settings"})
	x, y := clientOrigin(t, d, "Yui settings")
	harness.WaitFor(t, 20*time.Second, "the App tab", func() bool {
		harness.Click(t, d, x+harness.AppTabX, y+harness.TabY)
		return harness.WaitForOr(time.Second, func() bool { return a.Count("settings_tab", map[string]string{"tab": "App"}) > 0 })
	})
	harness.Click(t, d, x+harness.StartupX, y+harness.StartupY)
	a.WaitRecord(20*time.Second, "autostart", map[string]string{"on": "true"})
	out := w.regQuery(run)
	want := `"` + `C:\` // the program's path, quoted, then its --config-dir
	if !strings.Contains(out, "yui") || !strings.Contains(out, "REG_SZ") || !strings.Contains(out, `yui.exe"`) ||
		!strings.Contains(out, `"--config-dir" "`+winPath(cfg)+`"`) {
		t.Fatalf("the Run key after the switch went on (want a value yui, %s…yui.exe\" \"--config-dir\" \"%s\"):\n%s", want, winPath(cfg), out)
	}
	d.Screenshot(t, "wine-start-at-login-on")
	harness.Click(t, d, x+harness.StartupX, y+harness.StartupY)
	a.WaitRecord(20*time.Second, "autostart", map[string]string{"on": "false"})
	if out := w.regQuery(run); strings.Contains(out, "yui") {
		t.Fatalf("the Run value is still there after the switch went off:\n%s", out)
	}
}

// yui-sim.exe check, the Windows build of the backend checker, passes
// against a backend: the Linux yui-sim on loopback.
func TestWineSimCheck(t *testing.T) {
	w := startWine(t)
	port := harness.FreePort(t)
	harness.StartSim(t, port, "check-key", "demo")
	out, err := w.wine(filepath.Join(harness.BinDir(t), "yui-sim.exe"), "check", "--url", fmt.Sprintf("ws://127.0.0.1:%d/ws", port), "--key", "check-key")
	if err != nil {
		t.Fatalf("yui-sim.exe check: %v\n%s", err, out)
	}
	if !strings.Contains(out, ", FAIL 0,") {
		t.Fatalf("yui-sim.exe check:\n%s", out)
	}
	t.Logf("yui-sim.exe check:\n%s", harness.Tail(out, 1500))
}

// dist/Yui-setup.exe installs silently (/S) for this user only, with no
// administrator rights: the program under %LOCALAPPDATA%\Programs\Yui, a
// Start-menu shortcut, the uninstaller in Apps & features (the per-user
// Uninstall key, with the icon) and, asked for with /AUTOSTART, the Run
// value. Yui starts from the installed path; the silent uninstall removes
// the program, the shortcut and the keys and keeps the user's settings.
func TestWineInstaller(t *testing.T) {
	setup := os.Getenv("YUI_WINE_SETUP")
	if setup == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("YUI_WINE_SETUP not set (CI=true: not skipped); run `make e2e-wine`")
		}
		t.Skip("YUI_WINE_SETUP not set; run `make e2e-wine`")
	}
	w := startWine(t)
	d := w.d
	user := w.userDirs()
	if out, err := w.wine(setup, "/S", "/AUTOSTART"); err != nil {
		t.Fatalf("Yui-setup.exe /S: %v\n%s", err, out)
	}
	exe := filepath.Join(user.local, "Programs", "Yui", "yui.exe")
	uninst := filepath.Join(user.local, "Programs", "Yui", "uninstall.exe")
	link := filepath.Join(user.roaming, "Microsoft", "Windows", "Start Menu", "Programs", "Yui.lnk")
	for _, f := range []string{exe, uninst, link} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("after the install: %v", err)
		}
	}
	const uninstKey = `HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Yui`
	key := w.regQuery(uninstKey)
	for _, want := range []string{"DisplayName", "UninstallString", "QuietUninstallString", `Yui\yui.exe,0`, "DisplayVersion", "InstallLocation"} {
		if !strings.Contains(key, want) {
			t.Fatalf("the Uninstall key has no %s:\n%s", want, key)
		}
	}
	const run = `HKCU\Software\Microsoft\Windows\CurrentVersion\Run`
	if out := w.regQuery(run); !strings.Contains(out, `Programs\Yui\yui.exe"`) {
		t.Fatalf("/AUTOSTART wrote no Run value:\n%s", out)
	}

	// Yui from the installed path, on the user's own settings folder
	// (%APPDATA%\yui): the pet shows and the settings are written there.
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	settingsDir := filepath.Join(user.roaming, "yui")
	if err := os.MkdirAll(settingsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	harness.WriteSettings(t, settingsDir, harness.PushPreset("p-wine0003", "Yui", s, "k1"))
	p := harness.Start(t, w.env, "wine", exe)
	a := harness.WatchApp(t, d, settingsDir, p)
	// With no --config-dir the logs go to %LOCALAPPDATA%\yui\logs.
	a.Logs = harness.NewLogReader(filepath.Join(user.local, "yui"))
	a.WaitRecord(wineStart, "ws_ready", nil)
	win := a.PetRect()
	d.WaitShot(t, "wine-installed", 20*time.Second, func(img image.Image) error { return harness.NotShaped(img, win) })
	p.Stop()
	w.stopAll()

	// The uninstaller copies itself away and returns at once: wait for
	// the folder to go.
	if out, err := w.wine(uninst, "/S"); err != nil {
		t.Fatalf("uninstall.exe /S: %v\n%s", err, out)
	}
	harness.WaitFor(t, 60*time.Second, "the program folder to go", func() bool {
		_, err := os.Stat(filepath.Dir(exe))
		return os.IsNotExist(err)
	})
	if _, err := os.Stat(link); !os.IsNotExist(err) {
		t.Errorf("the Start-menu shortcut is still there: %v", err)
	}
	if out := w.regQuery(uninstKey); out != "" {
		t.Errorf("the Uninstall key is still there:\n%s", out)
	}
	if out := w.regQuery(run); strings.Contains(out, "yui") {
		t.Errorf("the Run value is still there:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(settingsDir, "settings.json")); err != nil {
		t.Errorf("the uninstall removed the user's settings: %v", err)
	}
}

// wavRMS is the RMS of the 16-bit PCM after a WAV's 44-byte header, read
// whole: a WAV whose writer was stopped before it fixed the sizes in the
// header still has its samples.
func wavRMS(t *testing.T, path string) (rms float64, samples int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) <= 44 {
		return 0, 0
	}
	var sum float64
	for i := 44; i+1 < len(b); i += 2 {
		v := float64(int16(uint16(b[i])|uint16(b[i+1])<<8)) / 32768
		sum += v * v
		samples++
	}
	return math.Sqrt(sum / float64(samples)), samples
}

// Speech of yui.exe's "system" engine (SAPI through PowerShell's
// System.Speech) under Wine. Wine 8 has a powershell.exe, a stub that runs
// no script, and no SAPI voice: no audio comes back, so Yui shows the
// sentence in the bubble only, logs speech_failed once (not once per
// sentence) and the status pill says so. (Wine's audio device itself
// opens: no audio-device note.) The test checks that fallback; if a Wine
// does speak, it says so and checks the sentence in the --audio-out file.
func TestWineSpeechSystem(t *testing.T) {
	w := startWine(t)
	d := w.d
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	wav := filepath.Join(harness.Artifacts(t), "out.wav")
	// Typing is the day's first input: with the first activity on, its
	// turn's speech could fail first, and the one speech_failed line
	// (logged once, not per sentence) would carry that turn's id, not
	// the typed one's (a loaded run showed it).
	cfg := t.TempDir()
	p := harness.PushPreset("p-wine0002", "Yui", s, "sim-key")
	p.Life = harness.QuietLife()
	harness.WriteSettings(t, cfg, p)
	a := w.startYui(cfg, "sim-key", "--chat-api", "push", "--chat-base-url", s.Url, "--audio-out", winPath(wav), "--stats-every", "1s")
	a.WaitRecord(wineStart, "ws_ready", nil)
	eng := a.WaitRecord(10*time.Second, "speech_engine", nil)
	t.Logf("speech engine under Wine: %v (configured %v)", eng["engine"], eng["configured"])
	win := a.PetRect()

	wineTalk(t, a, d.WindowID(t, "Yui"), "can you hear me")
	turn := a.WaitRecord(30*time.Second, "turn", map[string]string{"spoke_text": "false"})
	id := turn.Str("turn_id")
	a.WaitRecord(30*time.Second, "push.turn_end", map[string]string{"turn_id": id})
	a.WaitRecord(30*time.Second, "speech", map[string]string{"turn_id": id})
	shot := d.WaitShot(t, "wine-speech", 20*time.Second, harness.BubbleCheck(win))
	harness.WaitFor(t, 60*time.Second, "the sentence spoken or failed", func() bool {
		return a.Count("speech_failed", nil) > 0 || a.Count("audio_out_sentence", nil) > 0
	})
	if a.Count("audio_out_sentence", nil) > 0 {
		t.Log("Wine spoke through SAPI: the sentence is checked in the --audio-out file")
		harness.WaitFor(t, 30*time.Second, "speech in out.wav", func() bool {
			rms, n := wavRMS(t, wav)
			return n > 8000 && rms > 0.01
		})
		return
	}
	t.Log("Wine gave no SAPI voice: the bubble fallback is checked")
	failed := a.WaitRecord(5*time.Second, "speech_failed", map[string]string{"turn_id": id})
	t.Logf("speech_failed: %v", failed["err"])
	// One line, not one per sentence: a second turn fails the same way
	// and logs nothing more.
	wineTalk(t, a, d.WindowID(t, "Yui"), "and again")
	harness.WaitFor(t, 30*time.Second, "the second turn's end", func() bool { return a.Count("push.turn_end", nil) >= 2 })
	a.WaitTicks(3)
	if n := a.Count("speech_failed", nil); n != 1 {
		t.Errorf("speech_failed logged %d times, want once", n)
	}
	if !harness.BubbleShown(shot, win) {
		t.Errorf("the reply is not in the bubble")
	}
	// The pill says it too, once (pet.SpeechFailedNotice).
	a.WaitRecord(5*time.Second, "pet_pill", map[string]string{"audio": "speech failed: shown in the bubble only"})
}

// Ctrl+Alt+Y (RegisterHotKey on a thread of its own) opens the composer.
//
// What Wine cannot show reliably: a hot key pressed while another X
// client has the focus. Wine sees keys only through its own windows (it
// does not grab the key on the X server), so the key is pressed with the
// focus in Notepad, another Windows program, as it would be on Windows.
// Even so Wine 8 drops the hot key for whole sessions (seen in about half
// the runs here, the keys reaching Notepad all the same). The registration
// is always checked (pet_shortcut with its keys, logged only when
// RegisterHotKey succeeded); the composer opening on the key is checked
// when Wine delivers it, and a session where it never arrives says so in
// the test log and skips, by name, only that part.
func TestWineHotkey(t *testing.T) {
	w := startWine(t)
	d := w.d
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	a := w.startYui(t.TempDir(), "sim-key", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(wineStart, "ws_ready", nil)
	a.WaitRecord(10*time.Second, "pet_shortcut", map[string]string{"keys": "ctrl+alt+y"})
	petID := d.WindowID(t, "Yui")
	harness.Start(t, w.env, "wine", "notepad")
	noteID := d.WindowID(t, "Untitled - Notepad")
	nf := d.Frame(t, noteID)
	// Wine's stand-in for a tray (the "Wine System Tray" window, shown
	// when the pet's icon is added and no X tray is there) comes up in
	// its own time and may take the focus after the click: click again
	// until Notepad has it.
	if !harness.WaitForOr(20*time.Second, func() bool {
		harness.Click(t, d, (nf.Min.X+nf.Max.X)/2, (nf.Min.Y+nf.Max.Y)/2)
		return harness.WaitForOr(3*time.Second, func() bool { return d.HasFocus(t, noteID) })
	}) {
		d.Screenshot(t, "wine-hotkey-notepad-focus")
		t.Fatalf("Notepad (window %s) never took the keyboard focus", noteID)
	}
	opened := a.Count("pet_composer_open", nil)
	if !harness.WaitForOr(20*time.Second, func() bool {
		d.Run(t, "xdotool", "key", "ctrl+alt+y")
		return harness.WaitForOr(5*time.Second, func() bool { return a.Count("pet_composer_open", nil) > opened })
	}) {
		d.Screenshot(t, "wine-hotkey-not-delivered")
		t.Skip("RegisterHotKey succeeded (pet_shortcut), but this Wine session never delivered Ctrl+Alt+Y (WM_HOTKEY): the composer check is skipped this run")
	}
	d.Screenshot(t, "wine-hotkey-composer")
	// Nor does Wine move the X focus to a managed window that calls
	// SetForegroundWindow (Windows lets the process a hot key went to take
	// the foreground): a click into the entry gives it the keyboard.
	wineType(t, a, d.Frame(t, petID), petID, "hello by hot key")
	a.WaitRecord(30*time.Second, "turn", nil)
}
