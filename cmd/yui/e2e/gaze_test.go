//go:build e2e

package e2e

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"
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
	d := startXvfb(t, 1280, 800)
	scen := filepath.Join(t.TempDir(), "idle.json")
	if err := os.WriteFile(scen, []byte(`{"steps": [{"wait": "turn", "timeout_ms": 600000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startSim(t, freePort(t), "sim-key", scen)
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.url)
	a.waitRecord(30*time.Second, "ws_ready", nil)
	win := a.petRect()
	c := characterCentre(win)
	face := image.Rect(c.X-70, c.Y-60, c.X+70, c.Y+40)
	look := func(name string, x, y int) image.Image {
		t.Helper()
		d.run(t, "xdotool", "mousemove", fmt.Sprint(x), fmt.Sprint(y))
		time.Sleep(800 * time.Millisecond) // a few polls and the idle animation's frames
		return d.screenshot(t, name)
	}
	look("gaze-ahead", 20, 20)
	left := look("gaze-left", c.X-180, c.Y)
	right := look("gaze-right", c.X+180, c.Y)
	if !faceDiffers(left, right, face) {
		t.Fatal("the face looks the same with the pointer left and right of it")
	}
	if away := look("gaze-ahead-again", 20, 20); !faceDiffers(left, away, face) {
		t.Fatal("the eyes stayed on the left once the pointer went away")
	}
}
