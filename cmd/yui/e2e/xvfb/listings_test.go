//go:build e2e

package xvfb

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// TestVoicesLists: yui voices prints espeak-ng's voices, one a line (id,
// language, name), and exits 0; without any speech program it says so and
// still exits 0; --engine openai lists the usual names.
func TestVoicesLists(t *testing.T) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Fatal("espeak-ng is missing (.ci/deps.sh test installs it)")
	}
	yui := filepath.Join(harness.BinDir(t), "yui")
	out, err := exec.Command(yui, "voices").Output()
	if err != nil {
		t.Fatalf("yui voices: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) <= 100 {
		t.Fatalf("yui voices printed %d lines, want espeak-ng's 100 and more:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if f := strings.Split(l, "\t"); len(f) != 3 || f[0] == "" || f[2] == "" {
			t.Fatalf("line %q is not id, language, name", l)
		}
	}
	if !strings.Contains(string(out), "en-us\t") {
		t.Errorf("no en-us voice in:\n%s", out)
	}

	// No speech program on the PATH: a line that says so, exit 0.
	empty := t.TempDir()
	cmd := exec.Command(yui, "voices")
	cmd.Env = append(os.Environ(), "PATH="+empty)
	out, err = cmd.Output()
	if err != nil || !strings.Contains(string(out), "no system voice is installed") {
		t.Fatalf("yui voices without espeak-ng: %v\n%s", err, out)
	}

	out, err = exec.Command(yui, "voices", "--engine", "openai").Output()
	if err != nil || !strings.HasPrefix(string(out), "alloy\t") {
		t.Fatalf("yui voices --engine openai: %v\n%s", err, out)
	}
}

// TestDevicesListsWithoutHardware: yui devices runs on a machine without
// sound hardware (as CI is), says what it found, and exits 0.
func TestDevicesListsWithoutHardware(t *testing.T) {
	out, err := exec.Command(filepath.Join(harness.BinDir(t), "yui"), "devices").Output()
	if err != nil {
		t.Fatalf("yui devices: %v\n%s", err, out)
	}
	s := string(out)
	if !(strings.Contains(s, "input devices:") && strings.Contains(s, "output devices:")) && !strings.Contains(s, "no audio devices") {
		t.Fatalf("yui devices printed:\n%s", s)
	}
	t.Logf("yui devices:\n%s", s)
}

// TestMissingMicrophoneFallsBack: a preset whose microphone is a named
// device that is not there starts its voice input on the default device
// with one voice_device_missing line (the pill's note is checked in
// pet/voice and app).
func TestMissingMicrophoneFallsBack(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	cfg := t.TempDir()
	writeVoiceSettings(t, cfg, map[string]any{
		"mode": "hands_free", "engine": "command", "command": "cat", "device": "No Such Microphone",
	})
	env := append(d.Env(), "YUI_KEY=sim-key")
	p := harness.Start(t, env, filepath.Join(harness.BinDir(t), "yui"), "--config-dir", cfg,
		"--chat-api", "push", "--chat-base-url", s.Url)
	a := &harness.App{T: t, D: d, Cfg: cfg, Proc: p, Logs: harness.NewLogReader(cfg)}
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range a.Log() {
				b, _ := json.Marshal(r)
				t.Logf("log: %s", b)
			}
		}
	})
	a.WaitRecord(30*time.Second, "voice_start", map[string]string{"mode": "hands_free"})
	a.WaitRecord(30*time.Second, "voice_device_missing", map[string]string{"device": "No Such Microphone", "using": "default"})
	if n := harness.CountRecords(a.Log(), "voice_device_missing", nil); n != 1 {
		t.Fatalf("voice_device_missing logged %d times", n)
	}
}

// Where the Voice tab is in the settings window.
const voiceTabX = 604

// TestVoiceTabLevelMeterHearsTheFile: with --voice-in playing speech, the
// Voice tab's level meter reads it: the meter starts (voice_meter) and
// sees the speech rise over its threshold (voice_meter_heard); the tab is
// captured.
func TestVoiceTabLevelMeterHearsTheFile(t *testing.T) {
	voiceIn := spokenFile(t)
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	// A rejected key opens the settings window by itself.
	harness.WriteSettings(t, cfg, harness.PushPreset("p-ffff0002", "Yui", s, "wrong-key"))
	a := harness.StartYuiIn(t, d, cfg, "", "--verbose", "--voice-in", voiceIn)
	a.WaitRecord(30*time.Second, "window_open", map[string]string{"window": "settings"})
	x, y := settingsWindow(t, d)
	harness.WaitFor(t, 10*time.Second, "the Voice tab", func() bool {
		harness.Click(t, d, x+voiceTabX, y+harness.TabY)
		return harness.WaitForOr(time.Second, func() bool { return a.Count("settings_tab", map[string]string{"tab": "Voice"}) > 0 })
	})
	a.WaitRecord(10*time.Second, "voice_meter", map[string]string{"file": "true"})
	a.WaitRecord(20*time.Second, "voice_meter_heard", nil)
	d.Screenshot(t, "voice-tab-meter")
}
