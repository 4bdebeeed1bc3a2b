//go:build e2e

package xvfb

import (
	"crypto/sha256"
	"image"
	"image/draw"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// TestIdlePetStillBreathes: an idle pet whose frames wake only when they
// change still breathes and blinks: within 10 s of the user being present,
// screenshots of its character show more than one distinct idle frame.
func TestIdlePetStillBreathes(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	a := startYui(t, d, "k1", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	win := a.PetRect()
	d.WaitShot(t, "idle-first", 20*time.Second, harness.DrawnCheck(win))
	c := harness.CharacterCentre(win)
	body := image.Rect(c.X-96, c.Y-128, c.X+96, c.Y+128)
	seen := map[[32]byte]bool{}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && len(seen) < 2 {
		img := d.Screenshot(t, "idle-breath")
		crop := image.NewRGBA(image.Rect(0, 0, body.Dx(), body.Dy()))
		draw.Draw(crop, crop.Rect, img, body.Min, draw.Src)
		seen[sha256.Sum256(crop.Pix)] = true
	}
	if len(seen) < 2 {
		t.Fatalf("the idle pet showed %d distinct frame in 10 s: it neither breathes nor blinks", len(seen))
	}
	t.Logf("%d distinct idle frames seen", len(seen))
}
