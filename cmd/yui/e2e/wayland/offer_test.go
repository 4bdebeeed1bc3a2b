//go:build e2e

package wayland

import (
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// TestGnomeOffer: a first start under GNOME Shell without Yui's extension
// says so in the log, reads XWayland's windows as before, and opens the
// App tab where Install is, once: the second start does not. Then
// `yui desktop setup` installs it while the shell runs, and `--remove`
// undoes it.
func TestGnomeOffer(t *testing.T) {
	harness.BinDir(t)
	s := harness.NewSession(t, "GNOME")
	s.GnomeShell(t, nil)
	cfg := t.TempDir()
	a := harness.StartYuiIn(t, s.Display, cfg, "", "--demo")
	a.WaitRecord(30*time.Second, "desktop_gnome_extension_missing", nil)
	a.WaitRecord(30*time.Second, "desktop_setup_offered", nil)
	a.WaitRecord(30*time.Second, "window_open", map[string]string{"window": "settings"})
	a.Proc.Stop()

	// Both runs' logs are in cfg: the second's records are those past the first's.
	offered, shown := a.Count("desktop_setup_offered", nil), a.Count("pet_window_shown", nil)
	b := harness.StartYuiIn(t, s.Display, cfg, "", "--demo")
	harness.WaitFor(t, 30*time.Second, "the second start's pet", func() bool { return b.Count("pet_window_shown", nil) > shown })
	if harness.WaitForOr(5*time.Second, func() bool { return b.Count("desktop_setup_offered", nil) > offered }) {
		t.Fatal("the second start offered the extension again")
	}
	b.Proc.Stop()

	out := yuiSetup(t, s.Display.Env())
	if !strings.Contains(out, "installed the extension") || !strings.Contains(out, "enabled it") ||
		!strings.Contains(out, "next login") {
		t.Fatalf("yui desktop setup with the shell running:\n%s", out)
	}
	if got := s.Gsettings(t, "get", "org.gnome.shell", "enabled-extensions"); !strings.Contains(got, "yui-windows@yui.github.io") {
		t.Fatalf("enabled-extensions after setup: %s", got)
	}
	out = yuiSetup(t, s.Display.Env(), "--remove")
	if !strings.Contains(out, "disabled the extension") || !strings.Contains(out, "removed ") {
		t.Fatalf("yui desktop setup --remove:\n%s", out)
	}
	if got := s.Gsettings(t, "get", "org.gnome.shell", "enabled-extensions"); strings.Contains(got, "yui-windows@yui.github.io") {
		t.Fatalf("enabled-extensions after --remove: %s", got)
	}
}
