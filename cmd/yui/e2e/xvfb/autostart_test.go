//go:build e2e

package xvfb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// The App tab's start-at-login switch writes the XDG autostart entry and
// removes it again.
func TestAutostartSwitch(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	entry := filepath.Join(xdg, "autostart", "yui.desktop")
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	// A rejected key opens the settings window by itself.
	harness.WriteSettings(t, cfg, harness.PushPreset("p-ffff0001", "Yui", s, "wrong-key"))
	a := harness.StartYuiIn(t, d, cfg, "", "--verbose") // debug records: settings_tab
	a.WaitRecord(30*time.Second, "window_open", map[string]string{"window": "settings"})
	x, y := settingsWindow(t, d)
	// A click that reaches the window before its first frame is lost: click
	// the tab until the window says it is showing.
	harness.WaitFor(t, 10*time.Second, "the App tab", func() bool {
		harness.Click(t, d, x+harness.AppTabX, y+harness.TabY)
		return harness.WaitForOr(time.Second, func() bool { return a.Count("settings_tab", map[string]string{"tab": "App"}) > 0 })
	})
	d.Screenshot(t, "app-tab")
	if _, err := os.Stat(entry); err == nil {
		t.Fatal("an autostart entry before the switch was turned on")
	}

	// The switch stands one line lower when the Keys row's note takes two
	// lines (the keyring's refusal, which depends on the session's bus):
	// a click on the line above it lands on the empty space under the
	// Pets heading, so both are tried.
	startY := 0
	harness.WaitFor(t, 10*time.Second, "the start-at-login switch", func() bool {
		for _, dy := range []int{0, harness.LineHeight} {
			harness.Click(t, d, x+harness.StartupX, y+harness.StartupY+dy)
			if harness.WaitForOr(2*time.Second, func() bool { return a.Count("autostart", map[string]string{"on": "true"}) > 0 }) {
				startY = harness.StartupY + dy
				return true
			}
		}
		return false
	})
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatalf("no autostart entry after the switch: %v", err)
	}
	if !strings.Contains(string(b), "Exec=") || !strings.Contains(string(b), "--config-dir "+cfg) {
		t.Fatalf("autostart entry:\n%s", b)
	}
	d.Screenshot(t, "start-at-login-on")

	harness.Click(t, d, x+harness.StartupX, y+startY)
	a.WaitRecord(10*time.Second, "autostart", map[string]string{"on": "false"})
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Fatalf("the autostart entry is still there after the switch went off: %v", err)
	}
}
