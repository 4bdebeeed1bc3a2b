//go:build e2e

package xvfb

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// TestSettingsFieldErrorInJapanese: under LANG=ja_JP.UTF-8 a key the
// backend refuses opens the settings window on its preset; a base URL
// of the wrong scheme typed there is refused at the field, in red, with
// its reason in Japanese (the screenshot settings-ja-field-error; the
// text itself is windows/i18n's TestError).
func TestSettingsFieldErrorInJapanese(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	p := harness.PushPreset("p-22220001", "Yui", s, "wrong")
	p.Life = harness.QuietLife()
	harness.WriteSettings(t, cfg, p)
	a := harness.WatchApp(t, d, cfg, harness.Start(t, langEnv(d, "ja_JP.UTF-8"),
		filepath.Join(harness.BinDir(t), "yui"), "--config-dir", cfg))
	a.WaitRecord(30*time.Second, "window_open", map[string]string{"window": "settings"})
	x, y := windowAt(t, d, "^Yui の設定$")
	harness.Click(t, d, x+700, y+414) // the Preset tab's base URL, above the key (chaos_push_test.go)
	d.Run(t, "xdotool", "key", "ctrl+a")
	d.Run(t, "xdotool", "type", "--delay", "20", "ftp://example.com")
	// The reason shows in red under the field, in Japanese; the shot is
	// kept once two in a row agree there (the typing drawn to its end).
	// The strip holds the reason's line only: not the entry, whose cursor
	// blinks, nor the pet, which breathes at the window's right.
	field := image.Rect(x+320, y+452, x+960, y+492)
	var last image.Image
	d.WaitShot(t, "settings-ja-field-error", 10*time.Second, func(img image.Image) error {
		prev := last
		last = img
		red := 0
		for py := field.Min.Y; py < field.Max.Y; py++ {
			for px := field.Min.X; px < field.Max.X; px++ {
				c := color.NRGBAModel.Convert(img.At(px, py)).(color.NRGBA)
				if c.R > 180 && c.G < 90 && c.B < 90 {
					red++
				}
			}
		}
		switch {
		case red < 30:
			return fmt.Errorf("%d red pixels under the base URL: no reason shown", red)
		case prev == nil || !sameIn(prev, img, field):
			return errors.New("the field is still being drawn")
		}
		return nil
	})
	a.Proc.Stop()
}

// windowAt is the position of the window whose title matches name.
func windowAt(t testing.TB, d *harness.Display, name string) (x, y int) {
	t.Helper()
	var out string
	harness.WaitFor(t, 10*time.Second, "the window "+name, func() bool {
		o, err := d.Command("xdotool", "search", "--name", name, "getwindowgeometry").CombinedOutput()
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

// sameIn reports whether a and b are the same inside r.
func sameIn(a, b image.Image, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}
