package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestGenerateMatchesCommitted regenerates the pack and compares it with the
// files in ../characters/yui, so the embedded pack is always what the code
// draws. Run "go generate ./assets" after changing the drawing.
func TestGenerateMatchesCommitted(t *testing.T) {
	m, poses := plan()
	dir := filepath.Join("..", "characters", "yui")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := poses[e.Name()]; !ok && e.Name() != "character.json" {
			t.Errorf("%s is in the pack folder but not generated", e.Name())
		}
	}
	wantJSON, err := encodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	gotJSON, err := os.ReadFile(filepath.Join(dir, "character.json"))
	if err != nil || !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("character.json differs from what gen writes (run go generate ./assets); read error %v", err)
	}
	// Pixels are compared for every image, bytes for one: encoding them all
	// again is slow and proves no more. Under the race detector or -short,
	// a few images stand for the rest.
	for name, p := range poses {
		if (raceEnabled || testing.Short()) && name != "neutral.png" && name != "happy.png" && name != "walk-0.png" {
			continue
		}
		img := render(p)
		if !clearEdges(img) {
			t.Errorf("%s: the drawing touches the image edge", name)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%v (run go generate ./assets)", err)
			continue
		}
		// Floating point may round differently on another CPU; allow
		// tiny pixel differences, nothing more.
		if d := maxPixelDiff(t, got, img); d > 3 {
			t.Errorf("%s differs from what gen draws by up to %d per channel (run go generate ./assets)", name, d)
		}
	}
	neutral := render(poses["neutral.png"])
	want, err := encodePNG(neutral)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "neutral.png"))
	if !bytes.Equal(got, want) && maxPixelDiff(t, got, neutral) == 0 {
		t.Error("neutral.png has the same pixels but different bytes: PNG encoding is not reproducible")
	}
}

func maxPixelDiff(t *testing.T, a []byte, ib image.Image) int {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		return 255
	}
	na, nb := toNRGBA(ia), toNRGBA(ib)
	worst := 0
	for i := range na.Pix {
		d := int(na.Pix[i]) - int(nb.Pix[i])
		if d < 0 {
			d = -d
		}
		worst = max(worst, d)
	}
	return worst
}

// TestRenderShape checks what the shaped pet window relies on: a
// transparent background and a solid character.
func TestRenderShape(t *testing.T) {
	img := render(basePose())
	if img.Bounds() != image.Rect(0, 0, imgW, imgH) {
		t.Fatalf("bounds %v", img.Bounds())
	}
	for _, p := range []image.Point{{0, 0}, {imgW - 1, 0}, {0, imgH - 1}, {imgW - 1, imgH - 1}} {
		if a := img.RGBAAt(p.X, p.Y).A; a != 0 {
			t.Errorf("corner %v alpha %d, want 0", p, a)
		}
	}
	if a := img.RGBAAt(cx, groundY-20).A; a != 255 {
		t.Errorf("body alpha %d, want 255", a)
	}
	// The shadow stays below the window mask's 50% cut beside the body.
	if a := img.RGBAAt(cx+bodyRX+8, groundY+2).A; a > 127 {
		t.Errorf("shadow alpha %d beside the body, want at most 127", a)
	}
}

// clearEdges reports whether the outermost pixels are fully transparent, so
// nothing is cut off.
func clearEdges(img *image.RGBA) bool {
	b := img.Bounds()
	for x := b.Min.X; x < b.Max.X; x++ {
		if img.RGBAAt(x, b.Min.Y).A != 0 || img.RGBAAt(x, b.Max.Y-1).A != 0 {
			return false
		}
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		if img.RGBAAt(b.Min.X, y).A != 0 || img.RGBAAt(b.Max.X-1, y).A != 0 {
			return false
		}
	}
	return true
}

// TestIconMatchesCommitted checks that ../icon.png and ../window-icon.png
// are what gen draws and that each is a square with the face inside its
// margin.
func TestIconMatchesCommitted(t *testing.T) {
	for _, tc := range []struct {
		file string
		size int
	}{{"icon.png", iconSize}, {"window-icon.png", windowIconSize}} {
		t.Run(tc.file, func(t *testing.T) {
			img := icon(tc.size)
			if b := img.Bounds(); b.Dx() != tc.size || b.Dy() != tc.size {
				t.Fatalf("icon is %v, want %dx%d", b, tc.size, tc.size)
			}
			m := iconMargin * tc.size / iconSize
			in := image.Rect(m-1, m-1, tc.size-m+1, tc.size-m+1)
			if b := alphaBounds(img); !b.In(in) || b.Dx() < tc.size/2 || b.Dy() < tc.size/2 {
				t.Errorf("the face spans %v, want a large drawing within %v", b, in)
			}
			got, err := os.ReadFile(filepath.Join("..", tc.file))
			if err != nil {
				t.Fatalf("%v (run go generate ./assets)", err)
			}
			if d := maxPixelDiff(t, got, img); d > 3 {
				t.Errorf("%s differs from what gen draws by up to %d per channel (run go generate ./assets)", tc.file, d)
			}
		})
	}
}

// TestMintMatchesCommitted checks ../characters/mint against what gen
// draws: its character.json, every file named, and a few images' pixels.
func TestMintMatchesCommitted(t *testing.T) {
	m, poses := planMint()
	dir := filepath.Join("..", "characters", "mint")
	want, err := encodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "character.json")); err != nil || !bytes.Equal(got, want) {
		t.Errorf("mint's character.json differs from what gen writes (run go generate ./assets); read error %v", err)
	}
	for name := range poses {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%v (run go generate ./assets)", err)
		}
	}
	for _, name := range []string{"neutral.png", "walk-0.png"} {
		img := render(poses[name])
		if !clearEdges(img) {
			t.Errorf("%s: the drawing touches the image edge", name)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if d := maxPixelDiff(t, got, img); d > 3 {
			t.Errorf("mint %s differs from what gen draws by up to %d (run go generate ./assets)", name, d)
		}
	}
}
