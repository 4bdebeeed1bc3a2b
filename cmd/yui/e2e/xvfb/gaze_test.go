//go:build e2e

package xvfb

import (
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/pet/character"
)

// faceDiffers reports whether a and b differ inside r.
func faceDiffers(a, b image.Image, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return true
			}
		}
	}
	return false
}

func TestGazeFollowsThePointer(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	scen := filepath.Join(t.TempDir(), "idle.json")
	if err := os.WriteFile(scen, []byte(`{"steps": [{"wait": "turn", "timeout_ms": 600000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.Url, "--verbose") // debug records: pet_gaze
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	win := a.PetRect()
	c := harness.CharacterCentre(win)
	face := image.Rect(c.X-70, c.Y-60, c.X+70, c.Y+40)
	// look moves the pointer, waits until the eyes turned the way they
	// should (the pet_gaze record) and the screen shows a face other than
	// prev, and returns that screen.
	look := func(name string, x, y int, dir string, prev image.Image) image.Image {
		t.Helper()
		turned := a.Count("pet_gaze", map[string]string{"dir": dir})
		d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(x), fmt.Sprint(y))
		harness.WaitFor(t, 5*time.Second, "the eyes to turn "+dir, func() bool { return a.Count("pet_gaze", map[string]string{"dir": dir}) > turned })
		return d.WaitShot(t, name, 5*time.Second, func(img image.Image) error {
			if !faceDiffers(prev, img, face) {
				return errors.New("the face on screen did not change")
			}
			return nil
		})
	}
	d.Run(t, "xdotool", "mousemove", "--sync", "20", "20")
	ahead := d.WaitShot(t, "gaze-ahead", 10*time.Second, func(img image.Image) error { return harness.NotShaped(img, win) })
	left := look("gaze-left", c.X-180, c.Y, character.GazeLeft, ahead)
	right := look("gaze-right", c.X+180, c.Y, character.GazeRight, left)
	if away := look("gaze-ahead-again", 20, 20, "", right); !faceDiffers(left, away, face) {
		t.Fatal("the eyes stayed on the left once the pointer went away")
	}
}
