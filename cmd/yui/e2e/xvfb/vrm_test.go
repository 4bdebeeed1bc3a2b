//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/pet/character/vrm/vrmtest"
)

// TestVRMImportsAndRuns imports the generated avatar with yui pack import
// (its stages printed, its id on stdout), refuses a picture renamed .vrm
// in one line with nothing written, then runs Yui with the pack: the pet
// window shows the avatar in its own colours (the dress's blue, the
// hair's brown) on the desktop.
func TestVRMImportsAndRuns(t *testing.T) {
	cfg, src := t.TempDir(), t.TempDir()
	file := filepath.Join(src, "avatar.vrm")
	mustWrite(t, file, vrmtest.Avatar(vrmtest.Options{}))
	bad := filepath.Join(src, "picture.vrm")
	mustWrite(t, bad, []byte("\x89PNG\r\n\x1a\nnot a model"))

	code, out, stderr := packImport(t, bad, "--config-dir", cfg)
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); code != 1 || out != "" || !strings.HasPrefix(lines[len(lines)-1], "yui pack: import picture.vrm: vrm: ") {
		t.Fatalf("a picture renamed .vrm: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	start := time.Now()
	code, id, stderr := packImport(t, file, "--config-dir", cfg)
	if code != 0 || id != "test-avatar" {
		t.Fatalf("import: code %d, id %q, stderr %s", code, id, stderr)
	}
	for _, stage := range []string{"reading", "posing", "rendering", "writing"} {
		if !strings.Contains(stderr, stage) {
			t.Errorf("the import did not print its %s stage: %s", stage, stderr)
		}
	}
	t.Logf("imported in %v", time.Since(start))

	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	st := map[string]any{"version": 1, "active_preset": "p-vrm000001", "presets": []any{map[string]any{
		"id": "p-vrm000001", "name": "Yui", "enabled": true, "character": id, "gravity": true, "chat_api": "push", "chat_id": "yui-00000vrm",
	}}}
	data, _ := json.Marshal(st)
	mustWrite(t, filepath.Join(cfg, "settings.json"), data)
	scen := filepath.Join(t.TempDir(), "vrm.json")
	mustWrite(t, scen, []byte(`{"steps": [{"wait": "turn", "timeout_ms": 600000}]}`))
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	a := harness.StartYuiIn(t, d, cfg, "sim-key", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	petID := d.WindowID(t, "Yui")
	d.WaitShot(t, "vrm-idle", 20*time.Second, func(img image.Image) error {
		win := d.Frame(t, petID)
		blue, brown := 0, 0
		for y := win.Min.Y; y < win.Max.Y; y++ {
			for x := win.Min.X; x < win.Max.X; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				r, g, b = r>>8, g>>8, b>>8
				switch {
				case b > 170 && b > r+50 && b > g+30:
					blue++
				case r > 100 && r < 190 && r > g+25 && g > b && g > 60:
					brown++
				}
			}
		}
		if blue < 200 || brown < 20 {
			return fmt.Errorf("the pet window %v shows %d dress-blue and %d hair-brown pixels", win, blue, brown)
		}
		return nil
	})
}
