package character

import (
	"image"
	"strings"
	"testing"
)

func TestGazeAt(t *testing.T) {
	body := image.Rect(1000, 500, 1192, 756) // centre x 1096
	for _, c := range []struct {
		ptr  image.Point
		want string
	}{
		{image.Pt(900, 600), GazeLeft},
		{image.Pt(1300, 600), GazeRight},
		{image.Pt(1096, 600), ""},       // straight ahead
		{image.Pt(1120, 400), ""},       // above the face's middle third
		{image.Pt(1050, 400), GazeLeft}, // above, to the left
		{image.Pt(700, 600), ""},        // too far left
		{image.Pt(1500, 600), ""},       // too far right
		{image.Pt(1300, 300), ""},       // too far above
		{image.Pt(1300, 900), ""},       // too far below
		{image.Pt(808, 372), GazeLeft},  // the near area's corner
	} {
		if got := GazeAt(body, c.ptr); got != c.want {
			t.Errorf("GazeAt(%v) = %q, want %q", c.ptr, got, c.want)
		}
	}
	if got := GazeAt(image.Rectangle{}, image.Pt(0, 0)); got != "" {
		t.Errorf("empty body: %q", got)
	}
}

func TestLoadGazeFrames(t *testing.T) {
	p, err := Load(packFS(t, validManifest()))
	if err != nil || p.Gaze != nil {
		t.Fatalf("a pack without gaze: %v, gaze %v", err, p.Gaze)
	}
	m := validManifest()
	m["gaze"] = map[string]any{"left": "a.png", "right": "img/b.png"}
	if p, err = Load(packFS(t, m)); err != nil || p.Gaze[GazeLeft] == nil || p.Gaze[GazeRight] == nil {
		t.Fatalf("a pack with gaze: %v, gaze %v", err, p.Gaze)
	}
	for _, bad := range []map[string]any{
		{"up": "a.png"},
		{"left": "../a.png"},
		{"left": "missing.png"},
	} {
		m["gaze"] = bad
		if _, err := Load(packFS(t, m)); err == nil || !strings.Contains(err.Error(), "gaze") {
			t.Errorf("gaze %v: err %v", bad, err)
		}
	}
}
