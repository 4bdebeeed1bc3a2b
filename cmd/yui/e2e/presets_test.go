//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// preset is the part of a settings preset the tests write.
type preset struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Enabled     bool   `json:"enabled"`
	ChatAPI     string `json:"chat_api"`
	ChatBaseURL string `json:"chat_base_url"`
	Key         string `json:"key"`
	Model       string `json:"model,omitempty"`
	ChatID      string `json:"chat_id"`
	Character   string `json:"character"`
	// Positions is the pet's saved position per monitor layout (a
	// version-1 file's field, which the app moves to the state file).
	Positions map[string]any `json:"positions,omitempty"`
}

// writeSettings writes a settings file with these presets, the first active.
func writeSettings(t testing.TB, dir string, presets ...preset) {
	t.Helper()
	for i := range presets {
		if presets[i].Character == "" {
			presets[i].Character = "yui"
		}
	}
	st := map[string]any{"version": 1, "active_preset": presets[0].ID, "presets": presets}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// readState reads the state file of preset id (what the app learned
// about it: positions, relation, delegation history) as the app saved it.
func readState(t testing.TB, dir, id string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "state", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// readSettings reads the settings file as the app saved it.
func readSettings(t testing.TB, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func pushPreset(id, name string, s *sim, key string) preset {
	return preset{ID: id, Name: name, Enabled: true, ChatAPI: "push", ChatBaseURL: s.url, Key: key, ChatID: "yui-" + fmt.Sprintf("%08x", len(id)*7919+int(name[0]))}
}

// Two presets on two simulators: two pet windows, two sockets, each
// simulator sees exactly one client.
func TestTwoPresetsTwoPets(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	s1 := startSim(t, freePort(t), "k1", "echo")
	s2 := startSim(t, freePort(t), "k2", "echo")
	cfg := t.TempDir()
	writeSettings(t, cfg, pushPreset("p-aaaa0001", "Yui", s1, "k1"), pushPreset("p-aaaa0002", "Mochi", s2, "k2"))
	a := startYuiIn(t, d, cfg, "")
	a.waitRecord(30*time.Second, "ws_ready", map[string]string{"preset": "p-aaaa0001"})
	a.waitRecord(30*time.Second, "ws_ready", map[string]string{"preset": "p-aaaa0002"})
	waitFor(t, 10*time.Second, "two pet windows", func() bool { return a.count("pet_window_shown", nil) == 2 })
	for i, s := range []*sim{s1, s2} {
		if n := len(s.frames("hello")); n != 1 {
			t.Errorf("simulator %d saw %d hellos, want exactly one client", i+1, n)
		}
	}
	out := d.run(t, "xdotool", "search", "--name", "^(Yui|Mochi)$")
	if n := len(strings.Fields(out)); n < 2 {
		t.Errorf("xdotool found %d pet windows, want 2", n)
	}
	d.screenshot(t, "two-pets")
}

// A restart restores the presets, the pet's position and the message history.
func TestRestartRestoresPositionPresetsAndHistory(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	s := startSim(t, freePort(t), "k1", "echo")
	cfg := t.TempDir()
	writeSettings(t, cfg, pushPreset("p-bbbb0001", "Yui", s, "k1"))
	a := startYuiIn(t, d, cfg, "")
	a.waitRecord(30*time.Second, "ws_ready", nil)
	a.talk("remember this line")
	a.waitRecord(20*time.Second, "push.turn_end", nil)

	// Drag the pet 200 px left and 100 px up, as a person would.
	win := a.petRect()
	c := characterCentre(win)
	d.run(t, "xdotool", "mousemove", fmt.Sprint(c.X), fmt.Sprint(c.Y+40))
	d.run(t, "xdotool", "mousedown", "1")
	for i := 1; i <= 10; i++ {
		// --sync: each step has reached the server before the next.
		d.run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(c.X-20*i), fmt.Sprint(c.Y+40-10*i))
	}
	d.run(t, "xdotool", "mouseup", "1")
	moved := a.waitRecord(10*time.Second, "pet_window_moved", nil)
	a.proc.stop()
	a.waitRecord(10*time.Second, "app_quit", nil)

	hist, err := os.ReadFile(filepath.Join(cfg, "history", "p-bbbb0001.json"))
	if err != nil || !strings.Contains(string(hist), "remember this line") {
		t.Fatalf("history file after quit: %v\n%s", err, hist)
	}
	if fi, err := os.Stat(filepath.Join(cfg, "history", "p-bbbb0001.json")); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, want 0600", fi.Mode().Perm())
	}

	// The second run logs to a new file in the same folder: its records
	// are the later ones.
	b := startYuiIn(t, d, cfg, "")
	waitFor(t, 30*time.Second, "the second run's pet", func() bool { return b.count("pet_window_shown", nil) == 2 })
	var shown record
	for _, r := range b.log() {
		if r.str("msg") == "pet_window_shown" && r.str("time") > moved.str("time") {
			shown = r
		}
	}
	if fmt.Sprint(shown["x"], shown["y"]) != fmt.Sprint(moved["x"], moved["y"]) {
		t.Errorf("after restart the pet is at %v,%v, it was moved to %v,%v", shown["x"], shown["y"], moved["x"], moved["y"])
	}
	st := readSettings(t, cfg)
	if ps, _ := st["presets"].([]any); len(ps) != 1 {
		t.Errorf("presets after restart: %v", st["presets"])
	}

	// The message window, opened from the pet's menu, shows the history.
	num := func(r record, k string) int { v, _ := r[k].(float64); return int(v) }
	c2 := image.Pt(num(shown, "x")+num(shown, "width")/2, num(shown, "y")+150+128)
	// The menu grows the pet's window shape; a click that reaches the
	// server before the new shape falls through, so the menu is opened
	// again until the Messages item is hit.
	opened := func() bool { return b.count("window_open", map[string]string{"window": "messages"}) == 1 }
	for try := 0; !opened(); try++ {
		if try == 5 {
			t.Fatal("the Messages item of the pet's menu never opened the message window")
		}
		click(t, d, c2.X, c2.Y, "3")
		click(t, d, c2.X+30, c2.Y+45) // the menu's second item: Messages
		waitForOr(3*time.Second, opened)
	}
	if err := d.command("xdotool", "search", "--name", "^Yui — messages$").Run(); err != nil {
		t.Errorf("no message window: %v", err)
	}
	d.screenshot(t, "messages-after-restart")
}

// A settings file that parses but holds invalid values keeps every valid
// preset and refuses the rest with a reason; the original stays aside.
func TestHalfInvalidSettingsKeepValidPresets(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	s := startSim(t, freePort(t), "k1", "echo")
	cfg := t.TempDir()
	good := pushPreset("p-cccc0001", "Yui", s, "k1")
	bad := preset{ID: "p-cccc0002", Name: "", Enabled: true, ChatAPI: "push", ChatBaseURL: "ftp://nowhere", ChatID: "yui-0000cc02"}
	writeSettings(t, cfg, good, bad)
	a := startYuiIn(t, d, cfg, "")
	a.waitRecord(30*time.Second, "ws_ready", map[string]string{"preset": good.ID})
	n := a.waitRecord(10*time.Second, "settings_notice", nil)
	if msg := n.str("message"); !strings.Contains(msg, "refused") || !strings.Contains(msg, "name is empty") {
		t.Errorf("notice = %q", msg)
	}
	if a.count("session_start", nil) != 1 {
		t.Errorf("sessions started: %d, want 1", a.count("session_start", nil))
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
	d := startXvfb(t, 1280, 800)
	s := startSim(t, freePort(t), "k1", "echo")
	cfg := t.TempDir()
	writeSettings(t, cfg, pushPreset("p-dddd0001", "Yui", s, "k1"))
	a := startYuiIn(t, d, cfg, "")
	a.waitRecord(30*time.Second, "ws_ready", nil)
	cmd := exec.Command(filepath.Join(binDir(t), "yui"), "--config-dir", cfg)
	cmd.Env = d.env()
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
	a.waitRecord(10*time.Second, "pets_shown", nil)
	if len(s.frames("hello")) != 1 {
		t.Errorf("the second yui connected too")
	}
}

// settingsWindow returns the top-left corner of the settings window.
func settingsWindow(t testing.TB, d *display) (x, y int) {
	t.Helper()
	var out string
	waitFor(t, 10*time.Second, "the settings window", func() bool {
		o, err := d.command("xdotool", "search", "--name", "^Yui settings$", "getwindowgeometry").CombinedOutput()
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

// click moves the pointer to a point of the screen, waiting until it is
// there, and clicks (button 1 unless another is named), as a person would.
func click(t testing.TB, d *display, x, y int, button ...string) {
	t.Helper()
	b := "1"
	if len(button) > 0 {
		b = button[0]
	}
	d.run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(x), fmt.Sprint(y), "click", b)
}

// A new key typed in the settings window reconnects that preset only; a
// preset disabled there closes its pet and its socket.
func TestSettingsWindowKeyChangeAndDisable(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	s1 := startSim(t, freePort(t), "k1", "echo")
	s2 := startSim(t, freePort(t), "k2", "echo")
	cfg := t.TempDir()
	a1, b := pushPreset("p-eeee0001", "Yui", s1, "wrong-key"), pushPreset("p-eeee0002", "Mochi", s2, "k2")
	writeSettings(t, cfg, a1, b)
	a := startYuiIn(t, d, cfg, "")
	// The rejected key opens the settings window on its preset.
	a.waitRecord(30*time.Second, "ws_close", map[string]string{"preset": a1.ID, "code": "4401"})
	a.waitRecord(30*time.Second, "ws_ready", map[string]string{"preset": b.ID})
	a.waitRecord(30*time.Second, "window_open", map[string]string{"window": "settings", "preset": a1.ID})
	x, y := settingsWindow(t, d)
	d.screenshot(t, "settings-opened")

	// The key field of the Preset tab, then Save.
	click(t, d, x+700, y+454)
	d.run(t, "xdotool", "key", "ctrl+a")
	d.run(t, "xdotool", "type", "--delay", "40", "k1")
	d.screenshot(t, "key-typed")
	click(t, d, x+1060, y+697)
	a.waitRecord(20*time.Second, "preset_reconnect", map[string]string{"preset": a1.ID})
	a.waitRecord(20*time.Second, "ws_ready", map[string]string{"preset": a1.ID})
	if n := a.count("ws_open", map[string]string{"preset": b.ID}); n != 1 {
		t.Errorf("the other preset opened %d sockets, want 1: only the edited preset reconnects", n)
	}
	if st := readSettings(t, cfg); !strings.Contains(fmt.Sprint(st["presets"]), "k1") {
		t.Errorf("the new key was not saved")
	}

	// Select Mochi in the list, then Disable.
	click(t, d, x+60, y+150)
	click(t, d, x+70, y+653)
	a.waitRecord(20*time.Second, "preset_disabled", map[string]string{"preset": b.ID})
	a.waitRecord(20*time.Second, "ws_close", map[string]string{"preset": b.ID})
	waitFor(t, 10*time.Second, "Mochi's pet window to close", func() bool {
		out, _ := d.command("xdotool", "search", "--name", "^Mochi$").CombinedOutput()
		return strings.TrimSpace(string(out)) == ""
	})
	if n := len(s2.frames("hello")); n != 1 {
		t.Errorf("Mochi's simulator saw %d hellos", n)
	}
	d.screenshot(t, "after-disable")
}
