package vrmpack

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestIDFrom(t *testing.T) {
	for _, c := range []struct{ title, file, want string }{
		{"Sample Avatar", "x.vrm", "sample-avatar"},
		{"undefined", "My_Model.vrm", "my_model"},
		{"", "アバター.vrm", "vrm"},
		{"ユイ", "yui2.vrm", "yui2"},
	} {
		if got := idFrom(c.title, c.file); got != c.want {
			t.Errorf("idFrom(%q, %q) = %q, want %q", c.title, c.file, got, c.want)
		}
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "a"), 0o700); err != nil {
		t.Fatal(err)
	}
	if got := freeID(dir, "a"); got != "a-2" {
		t.Errorf("freeID = %q", got)
	}
}

func TestClipKeepsRunes(t *testing.T) {
	s := strings.Repeat("é", 400)
	if c := clip(s); len(c) > 500 || !utf8.ValidString(c) {
		t.Fatalf("clip: %d bytes, valid %v", len(c), utf8.ValidString(c))
	}
}

// A texture shrinks to fit, and a transparent texel does not darken the
// opaque one it is averaged with.
func TestShrink(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2048, 10))
	for x := 0; x < 2048; x++ {
		img.SetNRGBA(x, 0, color.NRGBA{255, 0, 0, 255})
	}
	out := shrink(img, 1024)
	if out.Rect.Dx() != 1024 || out.Rect.Dy() != 5 {
		t.Fatalf("size %v", out.Rect)
	}
	if c := out.NRGBAAt(0, 0); c.R != 255 || c.A != 127 {
		t.Errorf("top left %v, want pure red at half opacity", c)
	}
}

func TestClipsBeside(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"model.vrm", "Wave Hello.vrma", "nod.VRMA", "walk.vrma", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got := ClipsBeside(filepath.Join(dir, "model.vrm"))
	if len(got) != 2 || got["wave_hello"] == "" || got["nod"] == "" {
		t.Fatalf("clips %v", got)
	}
}
