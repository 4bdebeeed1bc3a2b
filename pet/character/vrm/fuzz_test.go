package vrm

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"yui/pet/character/vrm/vrmtest"
)

// seeds adds the shared fixtures (when present), the minimal model and
// small generated models and clips to a fuzz corpus.
func seeds(f *testing.F, ext string) {
	for _, d := range []string{
		filepath.Join("..", "..", "..", "..", "shared", "fixtures", "vrm"),
		filepath.Join("..", "..", "..", "..", "..", "shared", "fixtures", "vrm"),
	} {
		names, _ := filepath.Glob(filepath.Join(d, "*"+ext))
		for _, n := range names {
			if data, err := os.ReadFile(n); err == nil {
				f.Add(data)
			}
		}
		if len(names) > 0 {
			break
		}
	}
	doc, bin := minimal()
	f.Add(glb(f, doc, bin))
	f.Add(vrmtest.Avatar(vrmtest.Options{Subdivisions: 3, TextureSize: 4}))
	f.Add(vrmtest.Wave(vrmtest.ClipOptions{Keys: 3}))
	f.Add([]byte("glTF"))
}

func FuzzRead(f *testing.F) {
	seeds(f, ".vrm")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			if m != nil {
				t.Fatal("a model and an error")
			}
			return
		}
		checkWellFormed(t, m)
	})
}

func FuzzReadClip(f *testing.F) {
	seeds(f, ".vrma")
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadClip(bytes.NewReader(data))
		if err != nil {
			return
		}
		for name, tr := range c.Rotations {
			if len(tr.Times) != len(tr.Values) {
				t.Fatalf("%s: %d times, %d values", name, len(tr.Times), len(tr.Values))
			}
		}
		if len(c.HipsTranslation.Times) != len(c.HipsTranslation.Values) {
			t.Fatal("hips track lengths differ")
		}
	})
}
