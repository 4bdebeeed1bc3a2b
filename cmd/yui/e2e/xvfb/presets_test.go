//go:build e2e

package xvfb

import (
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// Two presets on two simulators: two pet windows, two sockets, each
// simulator sees exactly one client.
func TestTwoPresetsTwoPets(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s1 := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	s2 := harness.StartSim(t, harness.FreePort(t), "k2", "echo")
	cfg := t.TempDir()
	harness.WriteSettings(t, cfg, harness.PushPreset("p-aaaa0001", "Yui", s1, "k1"), harness.PushPreset("p-aaaa0002", "Mochi", s2, "k2"))
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", map[string]string{"preset": "p-aaaa0001"})
	a.WaitRecord(30*time.Second, "ws_ready", map[string]string{"preset": "p-aaaa0002"})
	harness.WaitFor(t, 10*time.Second, "two pet windows", func() bool { return a.Count("pet_window_shown", nil) == 2 })
	for i, s := range []*harness.Sim{s1, s2} {
		if n := len(s.Frames("hello")); n != 1 {
			t.Errorf("simulator %d saw %d hellos, want exactly one client", i+1, n)
		}
	}
	out := d.Run(t, "xdotool", "search", "--name", "^(Yui|Mochi)$")
	if n := len(strings.Fields(out)); n < 2 {
		t.Errorf("xdotool found %d pet windows, want 2", n)
	}
	d.Screenshot(t, "two-pets")
}

// A restart restores the presets, the pet's position and the message history.
func TestRestartRestoresPositionPresetsAndHistory(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	harness.WriteSettings(t, cfg, harness.PushPreset("p-bbbb0001", "Yui", s, "k1"))
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	a.Talk("remember this line")
	a.WaitRecord(20*time.Second, "push.turn_end", nil)

	// Drag the pet 200 px left and 100 px up, as a person would.
	win := a.PetRect()
	c := harness.CharacterCentre(win)
	d.Run(t, "xdotool", "mousemove", fmt.Sprint(c.X), fmt.Sprint(c.Y+40))
	d.Run(t, "xdotool", "mousedown", "1")
	for i := 1; i <= 10; i++ {
		// --sync: each step has reached the server before the next.
		d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(c.X-20*i), fmt.Sprint(c.Y+40-10*i))
	}
	d.Run(t, "xdotool", "mouseup", "1")
	moved := a.WaitRecord(10*time.Second, "pet_window_moved", nil)
	a.Proc.Stop()
	a.WaitRecord(10*time.Second, "app_quit", nil)

	hist, err := os.ReadFile(filepath.Join(cfg, "history", "p-bbbb0001.json"))
	if err != nil || !strings.Contains(string(hist), "remember this line") {
		t.Fatalf("history file after quit: %v\n%s", err, hist)
	}
	if fi, err := os.Stat(filepath.Join(cfg, "history", "p-bbbb0001.json")); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, want 0600", fi.Mode().Perm())
	}

	// The second run logs to a new file in the same folder: its records
	// are the later ones.
	b := harness.StartYuiIn(t, d, cfg, "")
	harness.WaitFor(t, 30*time.Second, "the second run's pet", func() bool { return b.Count("pet_window_shown", nil) == 2 })
	var shown harness.Record
	for _, r := range b.Log() {
		if r.Str("msg") == "pet_window_shown" && r.Str("time") > moved.Str("time") {
			shown = r
		}
	}
	if fmt.Sprint(shown["x"], shown["y"]) != fmt.Sprint(moved["x"], moved["y"]) {
		t.Errorf("after restart the pet is at %v,%v, it was moved to %v,%v", shown["x"], shown["y"], moved["x"], moved["y"])
	}
	st := harness.ReadSettings(t, cfg)
	if ps, _ := st["presets"].([]any); len(ps) != 1 {
		t.Errorf("presets after restart: %v", st["presets"])
	}

	// The message window, opened from the pet's menu, shows the history.
	num := func(r harness.Record, k string) int { v, _ := r[k].(float64); return int(v) }
	c2 := image.Pt(num(shown, "x")+num(shown, "width")/2, num(shown, "y")+150+128)
	// The menu grows the pet's window shape; a click that reaches the
	// server before the new shape falls through, so the menu is opened
	// again until the Messages item is hit.
	opened := func() bool { return b.Count("window_open", map[string]string{"window": "messages"}) == 1 }
	for try := 0; !opened(); try++ {
		if try == 5 {
			t.Fatal("the Messages item of the pet's menu never opened the message window")
		}
		harness.Click(t, d, c2.X, c2.Y, "3")
		harness.Click(t, d, c2.X+30, c2.Y+45) // the menu's second item: Messages
		harness.WaitForOr(3*time.Second, opened)
	}
	if err := d.Command("xdotool", "search", "--name", "^Yui — messages$").Run(); err != nil {
		t.Errorf("no message window: %v", err)
	}
	d.Screenshot(t, "messages-after-restart")
}

// A settings file that parses but holds invalid values keeps every valid
// preset and refuses the rest with a reason; the original stays aside.
func TestHalfInvalidSettingsKeepValidPresets(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	good := harness.PushPreset("p-cccc0001", "Yui", s, "k1")
	bad := harness.Preset{ID: "p-cccc0002", Name: "", Enabled: true, ChatAPI: "push", ChatBaseURL: "ftp://nowhere", ChatID: "yui-0000cc02"}
	harness.WriteSettings(t, cfg, good, bad)
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", map[string]string{"preset": good.ID})
	n := a.WaitRecord(10*time.Second, "settings_notice", nil)
	if msg := n.Str("message"); !strings.Contains(msg, "refused") || !strings.Contains(msg, "name is empty") {
		t.Errorf("notice = %q", msg)
	}
	if a.Count("session_start", nil) != 1 {
		t.Errorf("sessions started: %d, want 1", a.Count("session_start", nil))
	}
	kept, _ := filepath.Glob(filepath.Join(cfg, "settings.json.invalid-*"))
	if len(kept) != 1 {
		t.Fatalf("original kept aside: %v", kept)
	}
	if data, _ := os.ReadFile(kept[0]); !strings.Contains(string(data), "ftp://nowhere") {
		t.Errorf("the kept file is not the original")
	}
}

// A second yui on the same config directory brings the first one's pets
// forward and exits with its message.
func TestSecondYuiExits(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	harness.WriteSettings(t, cfg, harness.PushPreset("p-dddd0001", "Yui", s, "k1"))
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	cmd := exec.Command(filepath.Join(harness.BinDir(t), "yui"), "--config-dir", cfg)
	cmd.Env = d.Env()
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the second yui did not exit")
	}
	if err != nil || !strings.Contains(string(out), "already running") {
		t.Fatalf("second yui: %v\n%s", err, out)
	}
	a.WaitRecord(10*time.Second, "pets_shown", nil)
	if len(s.Frames("hello")) != 1 {
		t.Errorf("the second yui connected too")
	}
}

// settingsWindow returns the top-left corner of the settings window.
func settingsWindow(t testing.TB, d *harness.Display) (x, y int) {
	t.Helper()
	var out string
	harness.WaitFor(t, 10*time.Second, "the settings window", func() bool {
		o, err := d.Command("xdotool", "search", "--name", "^Yui settings$", "getwindowgeometry").CombinedOutput()
		out = string(o)
		return err == nil && strings.Contains(out, "Position:")
	})
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "Position:") {
			fmt.Sscanf(strings.TrimSpace(line), "Position: %d,%d", &x, &y)
		}
	}
	return x, y
}

// A new key typed in the settings window reconnects that preset only; a
// preset disabled there closes its pet and its socket.
func TestSettingsWindowKeyChangeAndDisable(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s1 := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	s2 := harness.StartSim(t, harness.FreePort(t), "k2", "echo")
	cfg := t.TempDir()
	a1, b := harness.PushPreset("p-eeee0001", "Yui", s1, "wrong-key"), harness.PushPreset("p-eeee0002", "Mochi", s2, "k2")
	harness.WriteSettings(t, cfg, a1, b)
	a := harness.StartYuiIn(t, d, cfg, "")
	// The rejected key opens the settings window on its preset.
	a.WaitRecord(30*time.Second, "ws_close", map[string]string{"preset": a1.ID, "code": "4401"})
	a.WaitRecord(30*time.Second, "ws_ready", map[string]string{"preset": b.ID})
	a.WaitRecord(30*time.Second, "window_open", map[string]string{"window": "settings", "preset": a1.ID})
	x, y := settingsWindow(t, d)
	d.Screenshot(t, "settings-opened")

	// The key field of the Preset tab, then Save.
	harness.Click(t, d, x+700, y+454)
	d.Run(t, "xdotool", "key", "ctrl+a")
	d.Run(t, "xdotool", "type", "--delay", "40", "k1")
	d.Screenshot(t, "key-typed")
	harness.Click(t, d, x+1060, y+697)
	a.WaitRecord(20*time.Second, "preset_reconnect", map[string]string{"preset": a1.ID})
	a.WaitRecord(20*time.Second, "ws_ready", map[string]string{"preset": a1.ID})
	if n := a.Count("ws_open", map[string]string{"preset": b.ID}); n != 1 {
		t.Errorf("the other preset opened %d sockets, want 1: only the edited preset reconnects", n)
	}
	if st := harness.ReadSettings(t, cfg); !strings.Contains(fmt.Sprint(st["presets"]), "k1") {
		t.Errorf("the new key was not saved")
	}

	// Select Mochi in the list, then Disable.
	harness.Click(t, d, x+60, y+150)
	harness.Click(t, d, x+70, y+653)
	a.WaitRecord(20*time.Second, "preset_disabled", map[string]string{"preset": b.ID})
	a.WaitRecord(20*time.Second, "ws_close", map[string]string{"preset": b.ID})
	harness.WaitFor(t, 10*time.Second, "Mochi's pet window to close", func() bool {
		out, _ := d.Command("xdotool", "search", "--name", "^Mochi$").CombinedOutput()
		return strings.TrimSpace(string(out)) == ""
	})
	if n := len(s2.Frames("hello")); n != 1 {
		t.Errorf("Mochi's simulator saw %d hellos", n)
	}
	d.Screenshot(t, "after-disable")
}
