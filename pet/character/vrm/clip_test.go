package vrm

import (
	"bytes"
	"encoding/binary"
	"math"
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

// TestReadClipNormalises reads a clip whose rest skeleton is not the
// T-pose's identity: a spine turned a quarter about Y under a root that
// lifts the hips a metre. A key equal to the spine's rest rotation is no
// rotation in the normalised skeleton, and the hips' track is moved into
// the root's frame.
func TestReadClipNormalises(t *testing.T) {
	h := float32(math.Sqrt(0.5))
	bin := make([]byte, 0, 64)
	put := func(fs ...float32) {
		for _, f := range fs {
			bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(f))
		}
	}
	put(0, 1)                   // times at 0
	put(0, h, 0, h, 0, h, 0, h) // spine rotations at 8
	put(0, 0, 0, 0, 0.5, 0)     // hips translations at 40
	doc := obj{
		"asset": obj{"version": "2.0"},
		"nodes": []any{
			obj{"name": "root", "translation": []float64{0, 1, 0}, "children": []any{1}},
			obj{"name": "hips", "children": []any{2}},
			obj{"name": "spine", "rotation": []float64{0, float64(h), 0, float64(h)}},
		},
		"accessors": []any{
			obj{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR"},
			obj{"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"},
			obj{"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"},
		},
		"bufferViews": []any{
			obj{"buffer": 0, "byteOffset": 0, "byteLength": 8},
			obj{"buffer": 0, "byteOffset": 8, "byteLength": 32},
			obj{"buffer": 0, "byteOffset": 40, "byteLength": 24},
		},
		"buffers": []any{obj{"byteLength": 64}},
		"animations": []any{obj{
			"samplers": []any{
				obj{"input": 0, "output": 1, "interpolation": "STEP"},
				obj{"input": 0, "output": 2},
			},
			"channels": []any{
				obj{"sampler": 0, "target": obj{"node": 2, "path": "rotation"}},
				obj{"sampler": 1, "target": obj{"node": 1, "path": "translation"}},
			},
		}},
		"extensions": obj{"VRMC_vrm_animation": obj{"specVersion": "1.0",
			"humanoid": obj{"humanBones": obj{"hips": obj{"node": 1}, "spine": obj{"node": 2}}}}},
	}
	c, err := ReadClip(bytes.NewReader(glb(t, doc, bin)))
	if err != nil {
		t.Fatal(err)
	}
	sp := c.Rotations["spine"]
	if !sp.Step || len(sp.Values) != 2 || c.Duration != 1 {
		t.Fatalf("spine %+v, duration %v", sp, c.Duration)
	}
	for _, q := range sp.Values {
		if math.Abs(float64(q[3])) < 0.9999 {
			t.Errorf("the rest rotation read as %v, want none", q)
		}
	}
	if got := c.HipsTranslation.Values[1]; got != (Vec3{0, 1.5, 0}) {
		t.Errorf("hips %v, want (0, 1.5, 0)", got)
	}
}
