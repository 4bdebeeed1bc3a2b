package character

import (
	"encoding/json"
	"image"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestBuiltinMint(t *testing.T) {
	p, ok := Builtin("mint")
	if !ok || p.ID != "mint" || p.Name != "Mint" {
		t.Fatalf("mint: %v %+v", ok, p)
	}
	if _, ok := Builtin("nope"); ok {
		t.Fatal("a pack that is not built in")
	}
	// Selected by id when no user folder has it, with no error.
	got, err := Select(t.TempDir(), "mint")
	if err != nil || got.ID != "mint" {
		t.Fatalf("Select mint: %v %v", got.ID, err)
	}
	if ids := BuiltinIDs(); len(ids) != 2 || ids[0] != DefaultID {
		t.Fatalf("built-in ids %v", ids)
	}
}

// packWith is a minimal valid pack with extra manifest fields.
func packWith(t *testing.T, extra map[string]any) fstest.MapFS {
	t.Helper()
	img := pngBytes(t, 4, 4)
	motion := map[string]any{"frames": []string{"a.png", "a.png"}, "fps": 2, "loop": true}
	m := map[string]any{"id": "p", "name": "P", "size": []int{32, 40}, "emotions": map[string]string{"neutral": "a.png"},
		"motions": map[string]any{"idle": motion, "thinking": motion, "talk": motion, "walk": motion, "sit": motion, "fall": motion}}
	for k, v := range extra {
		m[k] = v
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{ManifestName: {Data: data}, "a.png": {Data: img}}
}

func TestPoseFields(t *testing.T) {
	p, err := Load(packWith(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if p.Feet != image.Pt(16, 40) || p.Faces != FacingFront || p.Mirror != nil || p.WalkSpeed != 0 {
		t.Fatalf("defaults: feet %v faces %q walk %v", p.Feet, p.Faces, p.WalkSpeed)
	}
	walk := map[string]any{"frames": []string{"a.png", "a.png"}, "fps": 2, "loop": true, "durations_ms": []int{100, 300}}
	p, err = Load(packWith(t, map[string]any{"feet": []int{10, 30}, "faces": "left", "walk_speed": 50, "source": "shimeji",
		"motions": map[string]any{"idle": walk, "thinking": walk, "talk": walk, "walk": walk, "sit": walk, "fall": walk}}))
	if err != nil {
		t.Fatal(err)
	}
	if p.Feet != image.Pt(10, 30) || p.Faces != FacingLeft || p.Mirror == nil || p.WalkSpeed != 50 || p.Source != "shimeji" {
		t.Fatalf("feet %v faces %q walk %v source %q", p.Feet, p.Faces, p.WalkSpeed, p.Source)
	}
	if w := p.Motions["walk"]; w.Length() != 400*time.Millisecond || w.Durations[1] != 300*time.Millisecond {
		t.Fatalf("walk durations %v", w.Durations)
	}
	if !p.Mirrored(true) || p.Mirrored(false) || p.Turned(true).Motions["walk"].Frames[0] == p.Motions["walk"].Frames[0] {
		t.Fatal("a left-facing pack is not mirrored going right")
	}
	if set := p.Frames(MotionSitEdge, ""); set.Motion != "sit" {
		t.Fatalf("sit_edge falls back to %q", set.Motion)
	}
	bad := map[string]map[string]any{
		`"feet"`:         {"feet": []int{33, 10}},
		`"faces"`:        {"faces": "up"},
		`"walk_speed"`:   {"walk_speed": -1},
		`"durations_ms"`: {"motions": map[string]any{"idle": map[string]any{"frames": []string{"a.png"}, "fps": 1, "durations_ms": []int{1, 2}}}},
	}
	for want, extra := range bad {
		if _, err := Load(packWith(t, extra)); err == nil || !strings.Contains(err.Error(), want) && !strings.Contains(err.Error(), "motions") {
			t.Errorf("%s: error %v", want, err)
		}
	}
}

func TestFlipH(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 1))
	img.Pix[3] = 255 // pixel 0 opaque
	f := FlipH(img)
	if f.Pix[3] != 0 || f.Pix[11] != 255 {
		t.Fatalf("flipped %v", f.Pix)
	}
}
