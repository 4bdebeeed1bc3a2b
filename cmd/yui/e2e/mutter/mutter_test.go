//go:build e2e

package mutter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// The mutter group (make e2e-mutter): Yui as an XWayland client of
// GNOME's compositor, headless, with two virtual monitors of different
// sizes. One compositor serves the whole group.

// mutterLayout is the layout key of mutter's two virtual monitors.
const mutterLayout = "1920x1080+0+0,1280x720+1920+0"

// Monitor 1, the smaller one, on the right of the primary.
var mutterRight = image.Rect(1920, 0, 3200, 720)

// mutter is a running compositor session.
type mutter struct {
	*harness.Display
	runtime string // its XDG_RUNTIME_DIR: the Wayland socket, the Xauthority
	bus     string // its session bus
}

// needTools skips a test whose programs are missing, but fails it under
// CI, where .ci/deps.sh installed them: the group never skips silently.
func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not installed (.ci/deps.sh test installs it): %v", n, err)
			}
			t.Skipf("%s not installed; run .ci/deps.sh test", n)
		}
	}
}

// startMutter runs mutter --headless with XWayland in its own session bus
// and private runtime folder, and waits until its window manager runs.
func startMutter(t *testing.T) *mutter {
	t.Helper()
	needTools(t, "mutter", "Xwayland", "dbus-run-session", "xdotool", "xprop", "xwininfo", "xmessage", "import")
	runtime, err := os.MkdirTemp("", "yui-mutter-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	if err := os.Chmod(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	busFile := filepath.Join(runtime, "bus-address")
	cmd := exec.Command("dbus-run-session", "--", "sh", "-c",
		`printf '%s\n' "$DBUS_SESSION_BUS_ADDRESS" > "$1" && exec mutter --headless --wayland `+
			`--virtual-monitor 1920x1080 --virtual-monitor 1280x720`, "sh", busFile)
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY", "XDG_RUNTIME_DIR":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "XDG_RUNTIME_DIR="+runtime)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the bus, mutter and XWayland stop together
	out := &harness.Proc{Cmd: cmd}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start mutter: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _, _ = cmd.Process.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		if t.Failed() {
			t.Logf("mutter output:\n%s", harness.Tail(out.Output(), 4000))
		}
	})
	re := regexp.MustCompile(`Using public X11 display (:\d+)`)
	var name string
	harness.WaitFor(t, 60*time.Second, "mutter's XWayland display", func() bool {
		if m := re.FindStringSubmatch(out.Output()); m != nil {
			name = m[1]
		}
		return name != ""
	})
	var auth, bus string
	harness.WaitFor(t, 30*time.Second, "mutter's Xauthority and session bus", func() bool {
		files, _ := filepath.Glob(filepath.Join(runtime, ".mutter-Xwaylandauth.*"))
		b, _ := os.ReadFile(busFile)
		bus = strings.TrimSpace(string(b))
		if len(files) > 0 {
			auth = files[0]
		}
		return auth != "" && bus != ""
	})
	m := &mutter{
		Display: &harness.Display{Name: name, Cmd: cmd,
			Extra: []string{"XAUTHORITY=" + auth, "XDG_RUNTIME_DIR=" + runtime, "DBUS_SESSION_BUS_ADDRESS=" + bus}},
		runtime: runtime, bus: bus,
	}
	// xgb in this process (SetFullscreen, the test windows) reads it.
	t.Setenv("XAUTHORITY", auth)
	harness.WaitFor(t, 60*time.Second, "mutter managing the X screen", func() bool {
		o, err := m.Command("xprop", "-root", "_NET_SUPPORTING_WM_CHECK", "_NET_WORKAREA").CombinedOutput()
		return err == nil && strings.Contains(string(o), "window id") && strings.Contains(string(o), "_NET_WORKAREA(CARDINAL)")
	})
	return m
}

func TestMutter(t *testing.T) {
	m := startMutter(t)
	t.Run("NoXDisplay", func(t *testing.T) { mutterNoXDisplay(t, m) })
	t.Run("Pet", func(t *testing.T) { mutterPet(t, m) })
	t.Run("MonitorGone", func(t *testing.T) { mutterMonitorGone(t, m) })
	t.Run("ClientSideDecorations", func(t *testing.T) { mutterDecorations(t, m) })
	t.Run("Tray", func(t *testing.T) { mutterTray(t, m) })
	t.Run("TopOfScreen", func(t *testing.T) { mutterTopOfScreen(t, m) })
}

// mutterNoXDisplay starts yui in the compositor's pure Wayland session
// (WAYLAND_DISPLAY, no DISPLAY) and with no display at all: one line
// saying what it needs, exit code 2, no panic, no hang.
func mutterNoXDisplay(t *testing.T, m *mutter) {
	for _, c := range []struct {
		name string
		env  []string
		want string
	}{
		{"wayland", []string{"WAYLAND_DISPLAY=wayland-0", "XDG_RUNTIME_DIR=" + m.runtime}, "this Wayland session (WAYLAND_DISPLAY=wayland-0) has no XWayland"},
		{"none", nil, "DISPLAY is not set"},
	} {
		var env []string
		for _, kv := range os.Environ() {
			k, _, _ := strings.Cut(kv, "=")
			if k != "DISPLAY" && k != "WAYLAND_DISPLAY" {
				env = append(env, kv)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, filepath.Join(harness.BinDir(t), "yui"), "--config-dir", t.TempDir())
		cmd.Env = append(env, c.env...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Fatalf("%s: yui ended with %v, want exit code 2\nstderr:\n%s", c.name, err, stderr.String())
		}
		var ours []string
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(l, "yui:") {
				ours = append(ours, l)
			}
		}
		if len(ours) != 1 || !strings.Contains(ours[0], "needs an X display (X11 or XWayland)") || !strings.Contains(ours[0], c.want) ||
			strings.Contains(stderr.String(), "panic") || strings.Contains(stderr.String(), "goroutine ") || stdout.Len() > 0 {
			t.Fatalf("%s: stderr:\n%s\nstdout:\n%s", c.name, stderr.String(), stdout.String())
		}
		t.Logf("%s: %s", c.name, ours[0])
	}
}

// mutterScenario: the first turn (typed in the composer) tries the body
// and look tools on monitor 1 and ends with a spoken line; the second (a
// poke) answers in a bubble; then sit_on_window on the Notes window.
const mutterScenario = `{"steps": [
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-targets", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "perch_targets"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-move", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "move_to", "monitor": 1, "x": 300, "y": 100}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-walk", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "walk_to", "monitor": 1, "x": 5000}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-body", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "body"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-screen", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "screen", "monitor": 1}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-screen-bad", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "screen", "monitor": 2}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-move-bad", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "move_to", "monitor": 2, "x": 10, "y": 10}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "The small screen is cosy, and I can see all of it from here."}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "Hey, that tickles! Poke me again later."}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

// mutterSettings writes a settings file: one push preset on s, the screen
// look allowed, and positions when given.
func mutterSettings(t *testing.T, dir string, s *harness.Sim, positions map[string]any) {
	t.Helper()
	p := map[string]any{"id": "p-mutt0001", "name": "Yui", "enabled": true, "chat_api": "push",
		"chat_base_url": s.Url, "key": "sim-key", "chat_id": "yui-0000m001", "character": "yui"}
	if positions != nil {
		p["positions"] = positions
	}
	writeJSON(t, filepath.Join(dir, "settings.json"), map[string]any{"version": 1, "active_preset": "p-mutt0001",
		"presets": []any{p}, "screen_look": "allowed"})
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// characterIn reports whether the pet window's character is on mon.
func characterIn(win, mon image.Rectangle) bool {
	return harness.CharacterCentre(win).In(mon)
}

// windowShot is a screenshot of one window: XWayland's root window has no
// picture of its own (the compositor draws the desktop), a window has.
func windowShot(d *harness.Display, t *testing.T, id, name string) image.Image {
	t.Helper()
	path := filepath.Join(harness.Artifacts(t), name+".png")
	d.Run(t, "import", "-window", id, path)
	return harness.DecodePNGFile(t, path)
}

// bubbleInWindow reports whether a window screenshot of the pet shows a
// speech bubble with text.
func bubbleInWindow(img image.Image) bool {
	return harness.BubbleShown(img, img.Bounds())
}

func mutterPet(t *testing.T, m *mutter) {
	d := m.Display
	scen := filepath.Join(t.TempDir(), "mutter.json")
	if err := os.WriteFile(scen, []byte(mutterScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	cfg := t.TempDir()
	mutterSettings(t, cfg, s, nil)
	a := harness.StartYuiIn(t, d, cfg, "", "--stats-every", "1s")
	a.WaitRecord(30*time.Second, "ws_ready", nil)

	// Shown: on the primary monitor, shaped, above, out of the taskbar.
	shown := a.WaitRecord(30*time.Second, "pet_window_shown", nil)
	if shown.Str("layout") != mutterLayout || fmt.Sprint(shown["shaped"]) != "true" {
		t.Fatalf("pet_window_shown = %v, want layout %s, shaped", shown, mutterLayout)
	}
	petID := d.WindowID(t, "Yui")
	state := d.Run(t, "xprop", "-id", petID, "_NET_WM_STATE")
	if !strings.Contains(state, "_NET_WM_STATE_ABOVE") || !strings.Contains(state, "_NET_WM_STATE_SKIP_TASKBAR") {
		t.Fatalf("the pet's _NET_WM_STATE: %s", state)
	}
	if n := len(d.ShapeRects(t, petID)); n < 2 {
		t.Fatalf("the pet window's bounding shape has %d rectangles: not shaped", n)
	}
	if !characterIn(d.Frame(t, petID), image.Rect(0, 0, 1920, 1080)) {
		t.Fatalf("the pet %v is not on the primary monitor", d.Frame(t, petID))
	}
	harness.WaitFor(t, 10*time.Second, "the character drawn", func() bool {
		img := windowShot(d, t, petID, "shown")
		c := harness.CharacterCentre(img.Bounds())
		r, g, b, _ := img.At(c.X, c.Y).RGBA()
		return r+g+b > 0
	})

	// The composer opens on a double click and sends the typed line.
	a.Talk("let us visit the small screen")
	targets := s.ToolResult(t, "c-targets")
	for _, want := range []string{`"id":"m0-bottom","kind":"screen_bottom","monitor":0,"x":0,"y":1080,"width":1920`,
		`"id":"m1-bottom","kind":"screen_bottom","monitor":1,"x":0,"y":720,"width":1280`} {
		if !strings.Contains(targets, want) {
			t.Fatalf("perch_targets lacks %s: %s", want, targets)
		}
	}
	if res := s.ToolResult(t, "c-move"); !strings.HasPrefix(res, "ok: at ") || !strings.HasSuffix(res, " on display 1") {
		t.Fatalf("move_to monitor 1 = %q", res)
	}
	if res := s.ToolResult(t, "c-walk"); !strings.HasPrefix(res, "ok: at ") || !strings.HasSuffix(res, " on display 1") {
		t.Fatalf("walk_to monitor 1 = %q", res)
	}
	body := s.ToolResult(t, "c-body")
	if !strings.Contains(body, `"monitor":1`) {
		t.Fatalf("look body after the moves = %s", body)
	}
	pet := d.Frame(t, petID)
	char := image.Rect(pet.Min.X+pet.Dx()/2-96, pet.Min.Y+150, pet.Min.X+pet.Dx()/2+96, pet.Min.Y+150+256)
	if !char.In(mutterRight) {
		t.Fatalf("the character %v is not inside monitor 1's work area %v", char, mutterRight)
	}
	if shot := s.ToolResult(t, "c-screen"); !strings.HasPrefix(shot, "screenshot of display 1 (1280x720") {
		t.Fatalf("look screen monitor 1 = %.200s", shot)
	}
	for _, id := range []string{"c-screen-bad", "c-move-bad"} {
		if res := s.ToolResult(t, id); res != "error: invalid field monitor" {
			t.Fatalf("%s = %q", id, res)
		}
	}
	a.WaitRecord(20*time.Second, "push.turn_end", nil)
	harness.WaitFor(t, 15*time.Second, "the reply's bubble on monitor 1", func() bool {
		return bubbleInWindow(windowShot(d, t, petID, "bubble-monitor1"))
	})

	// A poke (one click on the character) starts a turn; its reply shows.
	pet = d.Frame(t, petID)
	c := harness.CharacterCentre(pet)
	harness.WaitFor(t, 40*time.Second, "the bubble gone", func() bool { return !bubbleInWindow(windowShot(d, t, petID, "quiet")) })
	pointTo(d, t, c)
	d.Run(t, "xdotool", "click", "1")
	a.WaitRecord(10*time.Second, "pet_poke", nil)
	harness.WaitFor(t, 20*time.Second, "the poke's reply", func() bool { return len(s.Frames("turn")) >= 2 })
	harness.WaitFor(t, 15*time.Second, "the poke reply's bubble", func() bool {
		return bubbleInWindow(windowShot(d, t, petID, "bubble-poke"))
	})

	// Gravity: on Notes' top edge on monitor 1 it sits; dropped in mid-air
	// over monitor 1 it lands on that monitor's work-area bottom (720).
	harness.Start(t, d.Env(), "xmessage", "-title", "Notes", "-geometry", "420x100+2300+600", "Shopping: milk, eggs, tea")
	notesID := d.WindowID(t, "Notes")
	nr := visibleFrame(t, d, notesID)
	dragPetTo(a, t, petID, (nr.Min.X+nr.Max.X)/2, nr.Min.Y-30)
	harness.WaitFor(t, 10*time.Second, "the pet sitting on Notes", func() bool {
		_, feet := a.PetFeet(d.Frame(t, petID))
		return harness.Abs(feet-visibleFrame(t, d, notesID).Min.Y) <= 2
	})
	windowShot(d, t, petID, "sitting-on-notes")
	dragPetTo(a, t, petID, 2050, 460)
	harness.WaitFor(t, 10*time.Second, "the pet on monitor 1's bottom", func() bool {
		_, feet := a.PetFeet(d.Frame(t, petID))
		return feet == 720
	})
	if !characterIn(d.Frame(t, petID), mutterRight) {
		t.Fatalf("the dropped pet %v left monitor 1", d.Frame(t, petID))
	}

	// Do-not-disturb per monitor: a fullscreen film on monitor 0 leaves
	// the pet on monitor 1; on monitor 1 it hides it.
	harness.Start(t, d.Env(), "xmessage", "-title", "Film", "-geometry", "420x160+300+300", "a film")
	film := d.WindowID(t, "Film")
	d.SetFullscreen(t, film, true)
	a.WaitRecord(10*time.Second, "do_not_disturb", map[string]string{"on": "true"})
	a.WaitTicks(3)
	if !d.Visible("Yui") {
		t.Fatal("a fullscreen window on monitor 0 hid the pet on monitor 1")
	}
	d.SetFullscreen(t, film, false)
	a.WaitRecord(10*time.Second, "do_not_disturb", map[string]string{"on": "false"})
	d.Run(t, "xdotool", "windowmove", film, "2100", "200")
	harness.WaitFor(t, 10*time.Second, "the film on monitor 1", func() bool { return d.Frame(t, film).Min.X >= 1920 })
	d.SetFullscreen(t, film, true)
	harness.WaitFor(t, 10*time.Second, "the pet hidden by the film on its monitor", func() bool { return !d.Visible("Yui") })
	d.SetFullscreen(t, film, false)
	harness.WaitFor(t, 10*time.Second, "the pet back", func() bool { return d.Visible("Yui") })

	// Restarted, it comes back on monitor 1, where the user left it.
	moved := a.WaitRecord(10*time.Second, "pet_window_moved", nil)
	a.Proc.Stop()
	a.WaitRecord(10*time.Second, "app_quit", nil)
	b := harness.StartYuiIn(t, d, cfg, "")
	harness.WaitFor(t, 30*time.Second, "the second run's pet", func() bool { return b.Count("pet_window_shown", nil) == 2 })
	var again harness.Record
	for _, r := range b.Log() {
		if r.Str("msg") == "pet_window_shown" && r.Str("time") > moved.Str("time") {
			again = r
		}
	}
	num := func(r harness.Record, k string) int { v, _ := r[k].(float64); return int(v) }
	win := image.Rect(num(again, "x"), num(again, "y"), num(again, "x")+num(again, "width"), num(again, "y")+num(again, "height"))
	if !characterIn(win, mutterRight) {
		t.Fatalf("after a restart the pet is at %v, not on monitor 1", win)
	}
}

// dragPetTo drags the pet by its body so that its feet end at (x, feet),
// as DragPet does, each step waited for with pointTo.
func dragPetTo(a *harness.App, t *testing.T, petID string, x, feet int) {
	d := a.D
	t.Helper()
	pet := d.Frame(t, petID)
	px, pf := a.PetFeet(pet)
	grab := image.Pt(px, pf-128)
	pointTo(d, t, grab)
	d.Run(t, "xdotool", "mousedown", "1")
	const steps = 6
	for i := 1; i <= steps; i++ {
		pointTo(d, t, grab.Add(image.Pt((x-px)*i/steps, (feet-pf)*i/steps)))
	}
	d.Run(t, "xdotool", "mouseup", "1")
}

// pointTo moves the pointer to p and waits until the X server has it
// there (xdotool's --sync waits for a motion event XWayland may not send).
func pointTo(d *harness.Display, t *testing.T, p image.Point) {
	t.Helper()
	d.Run(t, "xdotool", "mousemove", fmt.Sprint(p.X), fmt.Sprint(p.Y))
	want := fmt.Sprintf("X=%d\nY=%d\n", p.X, p.Y)
	harness.WaitFor(t, 5*time.Second, fmt.Sprintf("the pointer at %v", p), func() bool {
		return strings.Contains(d.Run(t, "xdotool", "getmouselocation", "--shell"), want)
	})
}
