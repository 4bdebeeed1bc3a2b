//go:build e2e

package wayland

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/tools/desktop/gnome"
)

// The native windows are real to her: under GNOME Shell (the extension
// installed by `yui desktop setup` before the shell starts) and under
// KWin (the script Yui loads), a native Wayland window "Notes" beside an
// X11 one "Memo": perch targets list Notes; sit_on_window lands on its
// top edge and follows it when it moves; a private native window stops
// look screen; a full-screen native window turns do-not-disturb on;
// activating a watched native application brings the app-switch turn.

// windowsScenario: the first typed turn lists the perch targets and sits
// on Notes; the second is the app-switch turn; the third, typed, looks at
// the screen (a private window in front).
const windowsScenario = `{"steps": [` + sitTurn + `,
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "Back to your notes?"}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-screen", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "screen"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "neutral"}], "speech": "I will not look."}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

// sitTurn is a scenario's turn that lists the perch targets and sits on
// Notes.
const sitTurn = `
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-targets", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "perch_targets"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-sit", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "sit_on_window", "app": "Notes"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "Comfy."}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}}`

// desk is what the test does to the native windows on one compositor.
type desk interface {
	move(t *testing.T, title string, x, y int)
	frame(t *testing.T, title string) image.Rectangle
	fullscreen(t *testing.T, title string, on bool)
	activate(t *testing.T, title string)
}

type gnomeDesk struct{ s *harness.Session }

func (g gnomeDesk) move(t *testing.T, title string, x, y int) {
	g.s.Eval(t, fmt.Sprintf("%s.move_frame(true, %d, %d)", harness.GnomeWindow(title), x, y))
}

func (g gnomeDesk) frame(t *testing.T, title string) image.Rectangle {
	// An empty rectangle while the window is not there yet.
	return parseRect(t, g.s.Eval(t, "(w => { if (!w) return '0,0,0,0'; const r = w.get_frame_rect(); return [r.x, r.y, r.width, r.height].join(','); })("+harness.GnomeWindow(title)+")"))
}

func (g gnomeDesk) fullscreen(t *testing.T, title string, on bool) {
	verb := "unmake_fullscreen"
	if on {
		verb = "make_fullscreen"
	}
	g.s.Eval(t, harness.GnomeWindow(title)+"."+verb+"()")
}

func (g gnomeDesk) activate(t *testing.T, title string) {
	g.s.Eval(t, harness.GnomeWindow(title)+".activate(global.get_current_time())")
}

type kwinDesk struct{ s *harness.Session }

func kwinClient(title string) string {
	return "workspace.clientList().filter(c => c.caption === " + strconv.Quote(title) + ")[0]"
}

func (k kwinDesk) move(t *testing.T, title string, x, y int) {
	k.s.KWinEval(t, fmt.Sprintf("(c => { const g = c.frameGeometry; c.frameGeometry = {x: %d, y: %d, width: g.width, height: g.height}; return 1; })(%s)", x, y, kwinClient(title)))
}

func (k kwinDesk) frame(t *testing.T, title string) image.Rectangle {
	return parseRect(t, k.s.KWinEval(t, "(c => { if (!c) return '0,0,0,0'; const g = c.frameGeometry; return [g.x, g.y, g.width, g.height].join(','); })("+kwinClient(title)+")"))
}

func (k kwinDesk) fullscreen(t *testing.T, title string, on bool) {
	k.s.KWinEval(t, fmt.Sprintf("(c => { c.fullScreen = %v; return 1; })(%s)", on, kwinClient(title)))
}

func (k kwinDesk) activate(t *testing.T, title string) {
	k.s.KWinEval(t, "(c => { workspace.activeClient = c; return 1; })("+kwinClient(title)+")")
}

var rectRE = regexp.MustCompile(`(-?\d+),(-?\d+),(\d+),(\d+)`)

func parseRect(t *testing.T, s string) image.Rectangle {
	t.Helper()
	m := rectRE.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no rectangle in %q", s)
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	return image.Rect(n(1), n(2), n(1)+n(3), n(2)+n(4))
}

// yuiSetup runs `yui desktop setup` in the session and returns its output.
func yuiSetup(t testing.TB, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(harness.BinDir(t), "yui"), append([]string{"desktop", "setup"}, args...)...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("yui desktop setup %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestGnomeShell(t *testing.T) {
	harness.BinDir(t)
	s := harness.NewSession(t, "GNOME")
	s.GnomeShell(t, func(env []string) {
		out := yuiSetup(t, env)
		for _, want := range []string{"session: GNOME (Wayland)", "installed the extension " + gnome.UUID, "enabled it", "next login"} {
			if !strings.Contains(out, want) {
				t.Fatalf("yui desktop setup said:\n%s\nwant %q", out, want)
			}
		}
		again := yuiSetup(t, env)
		if !strings.Contains(again, "installed already") || !strings.Contains(again, "enabled already") {
			t.Fatalf("yui desktop setup, again:\n%s", again)
		}
		t.Logf("yui desktop setup:\n%s", out)
	})
	nativeWindows(t, s, gnomeDesk{s})
}

func TestKWin(t *testing.T) {
	harness.BinDir(t)
	s := harness.NewSession(t, "KDE")
	s.KWin(t)
	if out := yuiSetup(t, s.SessionEnv()); !strings.Contains(out, "KDE Plasma needs nothing installed") {
		t.Fatalf("yui desktop setup on KDE:\n%s", out)
	}
	nativeWindows(t, s, kwinDesk{s})
}

// nativeWindows is the scenario on either compositor.
func nativeWindows(t *testing.T, s *harness.Session, dk desk) {
	d := s.Display
	_, app := s.Native(t, "Notes", "notes")
	harness.Start(t, d.Env(), "xmessage", "-title", "Memo", "-geometry", "400x200+1200+100", "memo")
	harness.WaitFor(t, 30*time.Second, "Notes shown", func() bool { return !dk.frame(t, "Notes").Empty() })
	placeAt(t, dk, "Notes", image.Pt(300, 600))

	scen := filepath.Join(t.TempDir(), "windows.json")
	if err := os.WriteFile(scen, []byte(windowsScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	sim := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	cfg := t.TempDir()
	life := harness.QuietLife()
	life["talk"] = "chatty"
	life["watch_apps"] = []string{app}
	life["private_titles"] = []string{"secretword"}
	writeSettings(t, cfg, sim, life)
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	a.WaitRecord(30*time.Second, "desktop_compositor", nil)
	petID := d.WindowID(t, "Yui")

	// Perch targets list the native window; she sits on its top edge.
	talkAt(t, a, petID, "sit on my notes")
	targets := sim.ToolResult(t, "c-targets")
	if !strings.Contains(targets, `"title":"Notes"`) || !strings.Contains(targets, `"kind":"window_top"`) {
		t.Fatalf("perch_targets = %s", targets)
	}
	// The X11 window beside it, once: the compositor lists XWayland's
	// windows too, and the layer does not add X11's list to its own.
	if n := strings.Count(targets, `"title":"Memo"`); n != 1 {
		t.Fatalf("perch_targets lists Memo %d times: %s", n, targets)
	}
	t.Logf("perch_targets: %s", targets)
	if res := sim.ToolResult(t, "c-sit"); !strings.HasPrefix(res, "ok: sitting on ") {
		t.Fatalf("sit_on_window Notes = %q", res)
	} else {
		t.Logf("sit_on_window: %s", res)
	}
	onTop := func(what string, nr image.Rectangle) {
		var pet image.Rectangle
		if !harness.WaitForOr(15*time.Second, func() bool {
			pet = d.Frame(t, petID)
			x, feet := a.PetFeet(pet)
			return feet == nr.Min.Y && x >= nr.Min.X && x <= nr.Max.X
		}) {
			x, feet := a.PetFeet(pet)
			t.Fatalf("%s: the pet %v (feet %d,%d) is not on Notes %v", what, pet, x, feet, nr)
		}
		t.Logf("%s: pet %v, Notes %v", what, pet, nr)
	}
	onTop("the pet on Notes' top edge", dk.frame(t, "Notes"))
	a.WaitRecord(20*time.Second, "push.turn_end", nil)
	d.Run(t, "xdotool", "key", "Escape") // the composer closes: she may start turns of her own

	// Notes moves: she follows it.
	placeAt(t, dk, "Notes", image.Pt(700, 560))
	onTop("the pet following Notes", dk.frame(t, "Notes"))

	// A watched native application activated: the app-switch turn.
	// (A switch while her turn's reply still shows is skipped as busy,
	// and is not kept: switched again until one counts.)
	waitTurnsEnded(t, a)
	switched := map[string]string{"trigger": "app_switch"}
	harness.WaitFor(t, 60*time.Second, "the app-switch turn", func() bool {
		// Each active window held past a sample of the active window
		// (desktop.ActivityPoll), so that the switch is seen.
		dk.activate(t, "Memo")
		harness.WaitForOr(2500*time.Millisecond, func() bool { return a.Count("life_turn", switched) > 0 })
		dk.activate(t, "Notes")
		return harness.WaitForOr(5*time.Second, func() bool { return a.Count("life_turn", switched) > 0 })
	})
	waitTurnsEnded(t, a)

	// A full-screen native window: do-not-disturb.
	// (Each change waited for: the compositor applies it when the client
	// answers, and a request made before that may be lost.)
	full := image.Rect(0, 0, 1920, 1080)
	dk.fullscreen(t, "Notes", true)
	harness.WaitFor(t, 10*time.Second, "Notes full screen", func() bool { return dk.frame(t, "Notes") == full })
	a.WaitRecord(20*time.Second, "do_not_disturb", map[string]string{"on": "true"})
	dk.fullscreen(t, "Notes", false)
	harness.WaitFor(t, 10*time.Second, "Notes out of full screen", func() bool {
		f := dk.frame(t, "Notes")
		return !f.Empty() && f != full
	})
	a.WaitRecord(20*time.Second, "do_not_disturb", map[string]string{"on": "false"})
	// Notes back in its place, she is back on it before the next turn
	// (a move under way holds the body, which look screen reads).
	onTop("the pet back on Notes", dk.frame(t, "Notes"))

	// A private native window in front: look screen is refused.
	s.Native(t, "secretword vault", "vault")
	harness.WaitFor(t, 20*time.Second, "the private window active", func() bool {
		return !dk.frame(t, "secretword vault").Empty()
	})
	dk.activate(t, "secretword vault")
	waitTurnsEnded(t, a)
	talkAt(t, a, petID, "what do you see")
	if res := sim.ToolResult(t, "c-screen"); res != "error: a private window is on the screen" {
		if s.Desktop == "GNOME" {
			var all string
			_ = s.SessionConn(t).Object(gnome.BusName, gnome.ObjectPath).Call(gnome.Interface+".GetAll", 0).Store(&all)
			t.Logf("the extension's facts: %s", all)
		}
		t.Fatalf("look screen under a private native window = %q", res)
	}
}

// placeAt moves a window until it stays at p for a second: a
// compositor's first placement of a new window may come after a move.
func placeAt(t *testing.T, dk desk, title string, p image.Point) {
	t.Helper()
	harness.WaitFor(t, 20*time.Second, fmt.Sprintf("%s staying at %v", title, p), func() bool {
		dk.move(t, title, p.X, p.Y)
		if !harness.WaitForOr(2*time.Second, func() bool { return dk.frame(t, title).Min == p }) {
			return false
		}
		return !harness.WaitForOr(time.Second, func() bool { return dk.frame(t, title).Min != p })
	})
}

// talkAt is App.Talk on the pet where it is now (Talk clicks where it
// was shown first; she sits elsewhere by now).
func talkAt(t *testing.T, a *harness.App, petID, text string) {
	t.Helper()
	opened := a.Count("pet_composer_open", nil)
	// A double click the compositor took for itself (the pointer's first
	// entry into XWayland, a window just mapped) is clicked again.
	harness.WaitFor(t, 30*time.Second, "the composer to open", func() bool {
		c := harness.CharacterCentre(a.D.Frame(t, petID))
		a.D.MoveTo(t, c.X, c.Y)
		a.D.Run(t, "xdotool", "click", "--repeat", "2", "--delay", "80", "1")
		return harness.WaitForOr(5*time.Second, func() bool { return a.Count("pet_composer_open", nil) > opened })
	})
	a.D.WaitFocus(t, petID)
	a.D.Run(t, "xdotool", "type", "--delay", "30", text)
	a.D.Run(t, "xdotool", "key", "Return")
}

// waitTurnsEnded waits until every turn started has ended.
func waitTurnsEnded(t *testing.T, a *harness.App) {
	t.Helper()
	harness.WaitFor(t, 30*time.Second, "the turns' end", func() bool {
		return a.Count("pet_composer_unlocked", nil) >= a.Count("turn", nil)
	})
}

// writeSettings writes one push preset on sim with this life.
func writeSettings(t testing.TB, dir string, sim *harness.Sim, life map[string]any) {
	t.Helper()
	p := map[string]any{"id": "p-wl000001", "name": "Yui", "enabled": true, "chat_api": "push",
		"chat_base_url": sim.Url, "key": "sim-key", "chat_id": "yui-0000w001", "character": "yui", "life": life}
	b, err := json.Marshal(map[string]any{"version": 1, "active_preset": "p-wl000001", "presets": []any{p},
		"screen_look": "allowed", "log_level": "debug"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}
