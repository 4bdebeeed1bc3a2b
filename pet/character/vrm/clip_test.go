package vrm

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestReadClipFixture(t *testing.T) {
	f, err := os.Open(filepath.Join(fixtureDir(t), "nop.vrma"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ReadClip(f)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("clip %q duration %v, %d rotation tracks, hips translation %d keys", c.Name, c.Duration, len(c.Rotations), len(c.HipsTranslation.Times))
	if c.Duration != 0 {
		t.Errorf("duration %v, want 0 (one key at t = 0)", c.Duration)
	}
	if len(c.Rotations)+min(len(c.HipsTranslation.Times), 1) != 12 {
		t.Errorf("%d rotation tracks and %d translation keys, want 12 channels", len(c.Rotations), len(c.HipsTranslation.Times))
	}
	for name, tr := range c.Rotations {
		if len(tr.Times) != 1 || len(tr.Values) != 1 {
			t.Errorf("%s: %d keys", name, len(tr.Times))
		}
	}
}

func TestReadClipRefusesModel(t *testing.T) {
	doc, bin := minimal()
	_, err := ReadClip(bytes.NewReader(glb(t, doc, bin)))
	if err == nil || err.Error() != "vrm: not a VRM animation: the glTF has no VRMC_vrm_animation extension" {
		t.Fatalf("err %v", err)
	}
}
