//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rootBG is the colour startXvfb paints the root window.
var rootBG = color.RGBA{0x3c, 0x6e, 0x71, 0xff}

// app is one running yui under test.
type app struct {
	t    testing.TB
	d    *display
	cfg  string
	proc *proc
	logs *logReader
}

func startYui(t testing.TB, d *display, key string, args ...string) *app {
	t.Helper()
	return startYuiIn(t, d, t.TempDir(), key, args...)
}

// startYuiIn starts yui on the config directory cfg (which may hold a
// settings file the test wrote, or one a previous run left).
func startYuiIn(t testing.TB, d *display, cfg, key string, args ...string) *app {
	t.Helper()
	env := d.env()
	if key != "" {
		env = append(env, "YUI_KEY="+key)
	}
	args = append([]string{"--config-dir", cfg}, args...)
	return watchApp(t, d, cfg, start(t, env, filepath.Join(binDir(t), "yui"), args...))
}

// watchApp is a started yui (or yui.exe) on config folder cfg: its log is
// read from there, and written into the test's output when it fails.
func watchApp(t testing.TB, d *display, cfg string, p *proc) *app {
	a := &app{t: t, d: d, cfg: cfg, proc: p, logs: newLogReader(cfg)}
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range a.log() {
				b, _ := json.Marshal(r)
				t.Logf("log: %s", b)
			}
		}
	})
	return a
}

func (a *app) log() []record { return a.logs.read() }

// waitRecord waits for a log record named msg with the fields given.
func (a *app) waitRecord(limit time.Duration, msg string, fields map[string]string) record {
	a.t.Helper()
	var got record
	waitFor(a.t, limit, fmt.Sprintf("log record %s %v", msg, fields), func() bool {
		r, ok := findRecord(a.log(), msg, fields)
		got = r
		return ok
	})
	return got
}

// waitTicks waits for n more runtime_stats records of an app started with
// --stats-every: an absence (no retry, no move) is checked after the app's
// own clock ran that long, not after a sleep of the test's.
func (a *app) waitTicks(n int) {
	a.t.Helper()
	from := a.count("runtime_stats", nil)
	waitFor(a.t, 30*time.Second, fmt.Sprintf("%d runtime_stats records", n), func() bool {
		return a.count("runtime_stats", nil) >= from+n
	})
}

func (a *app) count(msg string, fields map[string]string) int {
	return countRecords(a.log(), msg, fields)
}

// last is the newest record msg; an empty record when there is none.
func (a *app) last(msg string) record {
	var found record
	for _, r := range a.log() {
		if r.str("msg") == msg {
			found = r
		}
	}
	return found
}

// petRect is the pet window's rectangle on the screen, from its log record.
func (a *app) petRect() image.Rectangle {
	r := a.waitRecord(30*time.Second, "pet_window_shown", nil)
	num := func(k string) int { v, _ := r[k].(float64); return int(v) }
	return image.Rect(num("x"), num("y"), num("x")+num("width"), num("y")+num("height"))
}

// characterCentre is where the character's body is drawn: the window is
// laid out as bubble area (150 units) above a 192x256 character, centred.
func characterCentre(win image.Rectangle) image.Point {
	return image.Pt(win.Min.X+win.Dx()/2, win.Min.Y+150+128)
}

// talk opens the composer with a double click on the pet, types text and
// presses Enter, as a person would.
func (a *app) talk(text string) {
	a.t.Helper()
	a.openComposer()
	a.d.run(a.t, "xdotool", "type", "--delay", "30", text)
	a.d.run(a.t, "xdotool", "key", "Return")
}

// openComposer double-clicks the pet and waits until its composer is open
// and its window has the keyboard focus.
func (a *app) openComposer() {
	a.t.Helper()
	c := characterCentre(a.petRect())
	a.d.run(a.t, "xdotool", "mousemove", "--sync", fmt.Sprint(c.X), fmt.Sprint(c.Y))
	win := a.d.windowUnderPointer(a.t)
	opened := a.count("pet_composer_open", nil)
	a.d.run(a.t, "xdotool", "click", "--repeat", "2", "--delay", "80", "1")
	waitFor(a.t, 10*time.Second, "the composer to open", func() bool { return a.count("pet_composer_open", nil) > opened })
	a.d.waitFocus(a.t, win)
}

// sim is a running yui-sim.
type sim struct {
	proc   *proc
	url    string
	record string
}

func startSim(t testing.TB, port int, key, script string) *sim {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "frames.jsonl")
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p := start(t, os.Environ(), filepath.Join(binDir(t), "yui-sim"),
		"--addr", addr, "--key", key, "--script", script, "--record", rec)
	s := &sim{proc: p, url: "http://" + addr, record: rec}
	waitFor(t, 10*time.Second, "yui-sim ready", func() bool { return strings.Contains(p.output(), "yui-sim ready") })
	return s
}

// frames returns the frames the simulator received, of type typ.
func (s *sim) frames(typ string) []map[string]any {
	f, err := os.Open(s.record)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// isBackground reports whether the screenshot pixel is the root window's colour.
func isBackground(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	near := func(v uint32, w uint8) bool { d := int(v>>8) - int(w); return d > -6 && d < 6 }
	return near(r, rootBG.R) && near(g, rootBG.G) && near(b, rootBG.B)
}

// assertShaped checks that the pet window is shaped to its drawn pixels
// (notShaped).
func assertShaped(t testing.TB, img image.Image, win image.Rectangle) {
	t.Helper()
	if err := notShaped(img, win); err != nil {
		t.Fatal(err)
	}
}

// notShaped says what is wrong when points inside the window's rectangle
// but away from the character do not show the root window, or the
// character's centre does; nil when the window is shaped.
func notShaped(img image.Image, win image.Rectangle) error {
	c := characterCentre(win)
	if isBackground(img, c.X, c.Y) {
		return fmt.Errorf("no character drawn at %v", c)
	}
	for _, p := range []image.Point{
		{win.Min.X + 2, win.Min.Y + 2},
		{win.Max.X - 3, win.Min.Y + 2},
		{win.Min.X + 2, win.Min.Y + 150 + 128},
		{win.Max.X - 3, win.Min.Y + 150 + 128},
	} {
		if !isBackground(img, p.X, p.Y) {
			return fmt.Errorf("pixel %v inside the window's rectangle but outside the character is %v, not the background %v: the window is not shaped", p, img.At(p.X, p.Y), rootBG)
		}
	}
	return nil
}

// bubbleShown reports whether a light speech bubble with dark text sits
// above the character: in the window's bubble area (150 units) and over the
// top of the character's head, where the bubble's tail reaches.
func bubbleShown(img image.Image, win image.Rectangle) bool {
	light, dark := 0, 0
	for y := win.Min.Y; y < win.Min.Y+150+64; y++ {
		for x := win.Min.X; x < win.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			l := (r + g + b) / 3 >> 8
			switch {
			case l > 235:
				light++
			case l < 90:
				dark++
			}
		}
	}
	return light > 2000 && dark > 40
}

// drawnCheck is a waitShot check: the character is drawn in the pet
// window win.
func drawnCheck(win image.Rectangle) func(image.Image) error {
	return func(img image.Image) error {
		if c := characterCentre(win); isBackground(img, c.X, c.Y) {
			return fmt.Errorf("no character drawn at %v", c)
		}
		return nil
	}
}

// paintedCheck is a waitShot check: the window at r shows its content,
// more than a few colours, not the blank of a window not drawn yet.
func paintedCheck(r image.Rectangle) func(image.Image) error {
	return func(img image.Image) error {
		seen := map[color.Color]bool{}
		for y := r.Min.Y; y < r.Max.Y && len(seen) < 8; y += 3 {
			for x := r.Min.X; x < r.Max.X && len(seen) < 8; x += 3 {
				seen[img.At(x, y)] = true
			}
		}
		if len(seen) < 8 {
			return fmt.Errorf("the window at %v shows %d colours: not drawn yet", r, len(seen))
		}
		return nil
	}
}

// bubbleCheck is a waitShot check: a speech bubble shows above the pet.
func bubbleCheck(win image.Rectangle) func(image.Image) error {
	return func(img image.Image) error {
		if !bubbleShown(img, win) {
			return errors.New("no speech bubble with text above the pet")
		}
		return nil
	}
}

func TestTypedTurnOverPush(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	port := freePort(t)
	s := startSim(t, port, "sim-key", "echo")
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.url)
	a.waitRecord(30*time.Second, "ws_ready", nil)
	win := a.petRect()
	d.waitShot(t, "idle", 10*time.Second, func(img image.Image) error { return notShaped(img, win) })

	a.talk("hello yui")
	turn := a.waitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	id := turn.str("turn_id")
	a.waitRecord(20*time.Second, "push.render", map[string]string{"turn_id": id})
	a.waitRecord(20*time.Second, "push.turn_end", map[string]string{"turn_id": id})
	a.waitRecord(10*time.Second, "speech", map[string]string{"turn_id": id, "kind": "reply"})

	var got map[string]any
	waitFor(t, 5*time.Second, "the turn frame at the simulator", func() bool {
		for _, f := range s.frames("turn") {
			if f["turn_id"] == id {
				got = f
				return true
			}
		}
		return false
	})
	if got["text"] != "hello yui" {
		t.Fatalf("turn text = %q, want %q", got["text"], "hello yui")
	}
	cc, _ := got["client_context"].(string)
	if !strings.Contains(cc, "trigger: user message") || !strings.HasPrefix(cc, "<client_context>\n") {
		t.Fatalf("client_context = %q", cc)
	}
	talking := d.waitShot(t, "talking", 10*time.Second, bubbleCheck(win))
	assertShaped(t, talking, win)
	hello := s.frames("hello")
	if len(hello) == 0 || hello[0]["key"] != "[redacted]" {
		t.Fatalf("hello frames = %v", hello)
	}
	for _, r := range a.log() {
		b, _ := json.Marshal(r)
		if strings.Contains(string(b), "sim-key") {
			t.Fatalf("the key appears in the app log: %s", b)
		}
	}
}

func TestWrongKeyIsRejectedWithoutRetry(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	port := freePort(t)
	s := startSim(t, port, "right-key", "echo")
	a := startYui(t, d, "wrong-key", "--chat-api", "push", "--chat-base-url", s.url, "--stats-every", "1s")
	a.waitRecord(30*time.Second, "ws_close", map[string]string{"code": "4401"})
	a.waitTicks(4) // past the first two backoff steps
	if n := a.count("ws_open", nil); n != 1 {
		t.Fatalf("%d connections opened after a 4401 close, want 1 (no retry)", n)
	}
	if n := a.count("ws_reconnect", nil); n != 0 {
		t.Fatalf("ws_reconnect logged %d times after a 4401 close", n)
	}
	win := a.petRect()
	a.waitRecord(5*time.Second, "pet_pill", map[string]string{"conn": "key rejected"})
	// A rejected key opens the settings window on the preset; it stands
	// over the pet on this small screen, so it goes before the pet is
	// checked.
	a.waitRecord(10*time.Second, "window_open", map[string]string{"window": "settings"})
	d.screenshot(t, "key-rejected-settings")
	_ = d.command("xdotool", "search", "--name", "^Yui settings$", "windowunmap", "--sync").Run()
	shot := d.screenshot(t, "key-rejected")
	assertShaped(t, shot, win)
}

func TestSimulatorKilledMidTurn(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	port := freePort(t)
	// A backend that takes the turn and never answers it.
	scenario := filepath.Join(t.TempDir(), "silent.json")
	if err := os.WriteFile(scenario, []byte(`{"loop":true,"steps":[{"wait":"turn","timeout_ms":600000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startSim(t, port, "k", scenario)
	a := startYui(t, d, "k", "--chat-api", "push", "--chat-base-url", s.url)
	a.waitRecord(30*time.Second, "ws_ready", nil)
	a.talk("are you there")
	turn := a.waitRecord(20*time.Second, "turn", nil)
	id := turn.str("turn_id")
	waitFor(t, 10*time.Second, "the turn at the simulator", func() bool { return len(s.frames("turn")) > 0 })

	s.proc.stop()
	a.waitRecord(20*time.Second, "network_drop", map[string]string{"turn_id": id, "stage": "push_wait"})
	a.waitRecord(20*time.Second, "speech", map[string]string{"turn_id": id, "kind": "failure"})
	a.waitRecord(10*time.Second, "ws_reconnect", map[string]string{"delay": "1s"})
	a.waitRecord(10*time.Second, "ws_reconnect", map[string]string{"delay": "2s"})
	shot := d.screenshot(t, "failure-line")
	if !bubbleShown(shot, a.petRect()) {
		t.Fatal("the failure line is not shown in a bubble")
	}

	// The backend comes back on the same port; the next turn works.
	s2 := startSim(t, port, "k", "echo")
	a.waitRecord(60*time.Second, "ws_ready", nil)
	waitFor(t, 60*time.Second, "a second ws_ready", func() bool { return a.count("ws_ready", nil) >= 2 })
	a.talk("and now")
	waitFor(t, 20*time.Second, "a turn_end for the second turn", func() bool {
		for _, f := range s2.frames("turn") {
			if f["text"] == "and now" {
				_, ok := findRecord(a.log(), "push.turn_end", map[string]string{"turn_id": f["turn_id"].(string)})
				return ok
			}
		}
		return false
	})
}
