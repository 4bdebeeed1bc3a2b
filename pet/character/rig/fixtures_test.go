package rig_test

import (
	"os"
	"path/filepath"
	"testing"

	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

// The real models: each poses, stands relaxed (hands under the
// shoulders), walks and sits, without error.
func TestFixtures(t *testing.T) {
	dir := fixtureDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.vrm"))
	if len(files) == 0 {
		t.Skip("no .vrm fixtures")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			m, err := vrm.Read(f)
			if err != nil {
				t.Skipf("the reader refuses it: %v", err)
			}
			r := mustRig(t, m)
			slo, shi, err := r.Bounds(rig.Pose{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("bind %q, stance bounds %.2f..%.2f", r.BindPose(), slo, shi)
			ms := motionsByName(t, r)
			for _, mo := range ms {
				for i, p := range mo.Poses {
					if _, err := r.Apply(p); err != nil {
						t.Fatalf("%s pose %d: %v", mo.Name, i, err)
					}
				}
			}
			base := mustApply(t, r, rig.Pose{})
			for _, e := range m.Expressions {
				if len(e.Morphs) == 0 {
					continue
				}
				f := mustApply(t, r, rig.Pose{Expressions: map[string]float32{e.Name: 1}})
				if total(moved(base, f)) == 0 {
					t.Errorf("expression %q moved no vertex", e.Name)
				}
			}
			if !hasArms(m) || len(m.Skins) == 0 || shi[1]-slo[1] < 1.2*(shi[0]-slo[0]) {
				return // not a figure whose body follows its bones
			}
			w := bonePositions(t, r, m, rig.Pose{})
			t.Logf("stance: hands %.2f %.2f, shoulders %.2f, hips %.2f", w["leftHand"], w["rightHand"], w["leftUpperArm"], w["hips"])
			for _, s := range []string{"left", "right"} {
				hand, sh := w[s+"Hand"], w[s+"UpperArm"]
				if hand[1] >= sh[1] {
					t.Errorf("%s hand at y %.3f, not under the shoulder's %.3f", s, hand[1], sh[1])
				}
			}
			_, sitHi, _ := r.Bounds(ms["sit"].Poses[0])
			sitLo, _, _ := r.Bounds(ms["sit"].Poses[0])
			t.Logf("sitting height %.3f, standing %.3f", sitHi[1]-sitLo[1], shi[1]-slo[1])
			if sitHi[1]-sitLo[1] >= 0.8*(shi[1]-slo[1]) {
				t.Errorf("sitting height %.3f, standing %.3f", sitHi[1]-sitLo[1], shi[1]-slo[1])
			}
			walk := ms["walk"].Poses
			a, b := bonePositions(t, r, m, walk[0]), bonePositions(t, r, m, walk[len(walk)/4])
			if d := dist(a["leftFoot"], b["leftFoot"]); d < 0.02*float64(shi[1]-slo[1]) {
				t.Errorf("walk: the left foot moved %.4f between frames", d)
			}
		})
	}
}

func hasArms(m *vrm.Model) bool {
	for _, b := range []string{"leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm", "rightLowerArm", "rightHand", "leftFoot"} {
		if _, ok := m.Humanoid[b]; !ok {
			return false
		}
	}
	return true
}

// bonePositions finds each humanoid bone's posed position from a rigid
// probe: the model with one extra unskinned one-vertex mesh per bone.
func bonePositions(t *testing.T, _ *rig.Rig, m *vrm.Model, p rig.Pose) map[string][3]float64 {
	t.Helper()
	cp := *m
	cp.Nodes = append([]vrm.Node(nil), m.Nodes...)
	cp.Meshes = append([]vrm.Mesh(nil), m.Meshes...)
	names := sortedKeys(m.Humanoid)
	probe := len(cp.Meshes)
	cp.Meshes = append(cp.Meshes, vrm.Mesh{Primitives: []vrm.Primitive{{
		Positions: []vrm.Vec3{{0, 0, 0}}, Indices: []uint32{0, 0, 0}, Material: -1}}})
	for _, n := range names {
		cp.Nodes = append(cp.Nodes, vrm.Node{Parent: m.Humanoid[n], Rotation: vrm.Quat{0, 0, 0, 1},
			Scale: vrm.Vec3{1, 1, 1}, Mesh: probe, Skin: -1})
	}
	r, err := rig.New(&cp)
	if err != nil {
		t.Fatal(err)
	}
	f, err := r.Apply(p)
	if err != nil {
		t.Fatal(err)
	}
	// The probes are the last primitives, in node order.
	out := map[string][3]float64{}
	base := len(f.Prims) - len(names)
	for i, n := range names {
		v := f.Prims[base+i].Positions[0]
		out[n] = [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
	}
	return out
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
