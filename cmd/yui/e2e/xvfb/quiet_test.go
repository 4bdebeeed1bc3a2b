//go:build e2e

package xvfb

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

func TestQuietFullscreenHidesThePets(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	scen := filepath.Join(t.TempDir(), "idle.json")
	if err := os.WriteFile(scen, []byte(`{"steps": [{"wait": "turn", "timeout_ms": 600000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.Url, "--stats-every", "1s")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	d.WindowID(t, "Yui")
	harness.Start(t, d.Env(), "xmessage", "-title", "Film", "-geometry", "420x160+300+360", "a film")
	film := d.WindowID(t, "Film")
	a.WaitTicks(3) // past a poll of the fullscreen watcher (every 2 s)
	if !d.Visible("Yui") {
		t.Fatal("the pet hid before anything went fullscreen")
	}

	d.SetFullscreen(t, film, true)
	a.WaitRecord(10*time.Second, "do_not_disturb", map[string]string{"on": "true"})
	harness.WaitFor(t, 10*time.Second, "the pet hidden", func() bool { return !d.Visible("Yui") })
	d.Screenshot(t, "fullscreen")

	d.SetFullscreen(t, film, false)
	a.WaitRecord(10*time.Second, "do_not_disturb", map[string]string{"on": "false"})
	harness.WaitFor(t, 10*time.Second, "the pet back", func() bool { return d.Visible("Yui") })
	win := a.PetRect()
	d.WaitShot(t, "fullscreen-ended", 10*time.Second, harness.DrawnCheck(win))
}
