//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The App tab's start-at-login switch writes the XDG autostart entry and
// removes it again.
func TestAutostartSwitch(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	entry := filepath.Join(xdg, "autostart", "yui.desktop")
	d := startXvfb(t, 1280, 800)
	s := startSim(t, freePort(t), "k1", "echo")
	cfg := t.TempDir()
	// A rejected key opens the settings window by itself.
	writeSettings(t, cfg, pushPreset("p-ffff0001", "Yui", s, "wrong-key"))
	a := startYuiIn(t, d, cfg, "", "--verbose") // debug records: settings_tab
	a.waitRecord(30*time.Second, "window_open", map[string]string{"window": "settings"})
	x, y := settingsWindow(t, d)
	// A click that reaches the window before its first frame is lost: click
	// the tab until the window says it is showing.
	waitFor(t, 10*time.Second, "the App tab", func() bool {
		click(t, d, x+appTabX, y+tabY)
		return waitForOr(time.Second, func() bool { return a.count("settings_tab", map[string]string{"tab": "App"}) > 0 })
	})
	d.screenshot(t, "app-tab")
	if _, err := os.Stat(entry); err == nil {
		t.Fatal("an autostart entry before the switch was turned on")
	}

	click(t, d, x+startupX, y+startupY)
	a.waitRecord(10*time.Second, "autostart", map[string]string{"on": "true"})
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatalf("no autostart entry after the switch: %v", err)
	}
	if !strings.Contains(string(b), "Exec=") || !strings.Contains(string(b), "--config-dir "+cfg) {
		t.Fatalf("autostart entry:\n%s", b)
	}
	d.screenshot(t, "start-at-login-on")

	click(t, d, x+startupX, y+startupY)
	a.waitRecord(10*time.Second, "autostart", map[string]string{"on": "false"})
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Fatalf("the autostart entry is still there after the switch went off: %v", err)
	}
}

// Where the App tab and the start-at-login switch are in the settings window.
const (
	appTabX, tabY      = 656, 21
	startupX, startupY = 396, 452
)
