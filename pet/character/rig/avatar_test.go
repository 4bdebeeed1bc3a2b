package rig_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"yui/pet/character/rig"
	"yui/pet/character/vrm"
	"yui/pet/character/vrm/vrmtest"
)

func avatar(t testing.TB, o vrmtest.Options) *vrm.Model {
	t.Helper()
	m, err := vrm.Read(bytes.NewReader(vrmtest.Avatar(o)))
	if err != nil {
		t.Fatalf("reading the test avatar: %v", err)
	}
	return m
}

// moved is how many vertices differ between two frames, per primitive.
func moved(a, b *rig.Frame) []int {
	out := make([]int, len(a.Prims))
	for i := range a.Prims {
		for v := range a.Prims[i].Positions {
			if a.Prims[i].Positions[v] != b.Prims[i].Positions[v] {
				out[i]++
			}
		}
	}
	return out
}

func total(ns []int) (s int) {
	for _, n := range ns {
		s += n
	}
	return s
}

// The generated humanoid: relaxed, every expression and the gaze change
// the face, and every motion poses.
func TestAvatar(t *testing.T) {
	m := avatar(t, vrmtest.Options{})
	r := mustRig(t, m)
	if r.BindPose() != "T" {
		t.Errorf("BindPose %q", r.BindPose())
	}
	w := bonePositions(t, r, m, rig.Pose{})
	for _, s := range []string{"left", "right"} {
		if w[s+"Hand"][1] > w[s+"UpperArm"][1]-0.2 || w[s+"Hand"][1] > w["hips"][1]+0.15 {
			t.Errorf("%s hand at %.2f, shoulder %.2f, hips %.2f", s, w[s+"Hand"][1], w[s+"UpperArm"][1], w["hips"][1])
		}
	}
	base := mustApply(t, r, rig.Pose{})
	for _, e := range m.Expressions {
		f := mustApply(t, r, rig.Pose{Expressions: map[string]float32{e.Name: 1}})
		n := total(moved(base, f))
		changed := n > 0
		for i := range f.Materials {
			if f.Materials[i].BaseColor != base.Materials[i].BaseColor {
				changed = true
			}
		}
		if !changed && (len(e.Morphs) > 0 || len(e.Colors) > 0) {
			t.Errorf("expression %q changed nothing", e.Name)
		}
	}
	for _, g := range []rig.Pose{{Yaw: 30}, {Yaw: -30}, {Pitch: 20}, {Pitch: -20}} {
		if total(moved(base, mustApply(t, r, g))) == 0 {
			t.Errorf("gaze %+v: the eyes did not move", g)
		}
	}
	ms := motionsByName(t, r)
	slo, shi, _ := r.Bounds(rig.Pose{})
	lo, hi, _ := r.Bounds(ms["sit"].Poses[0])
	if hi[1]-lo[1] > 0.75*(shi[1]-slo[1]) {
		t.Errorf("sitting %.2f tall, standing %.2f", hi[1]-lo[1], shi[1]-slo[1])
	}
}

// The shared clip bakes onto the avatar and the real models.
func TestBakeSharedClip(t *testing.T) {
	dir := fixtureDir(t)
	f, err := os.Open(filepath.Join(dir, "nop.vrma"))
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	c, err := vrm.ReadClip(f)
	if err != nil {
		t.Fatalf("ReadClip: %v", err)
	}
	models := []*vrm.Model{avatar(t, vrmtest.Options{})}
	if g, err := os.Open(filepath.Join(dir, "cryptovoxels.vrm")); err == nil {
		m, err := vrm.Read(g)
		g.Close()
		if err == nil {
			models = append(models, m)
		}
	}
	for _, m := range models {
		r := mustRig(t, m)
		mo, err := r.Bake("nop", c, 15)
		if err != nil {
			t.Fatalf("Bake: %v", err)
		}
		t.Logf("%d poses, loop %v, %d bones, %.2f s", len(mo.Poses), mo.Loop, len(c.Rotations), c.Duration)
		for i, p := range mo.Poses {
			if _, err := r.Apply(p); err != nil {
				t.Fatalf("pose %d: %v", i, err)
			}
		}
		lo, hi, _ := r.Bounds(mo.Poses[0])
		slo, shi, _ := r.Bounds(rig.Pose{})
		t.Logf("clip bounds %.2f..%.2f, stance %.2f..%.2f", lo, hi, slo, shi)
	}
}

func BenchmarkApplyAvatar100k(b *testing.B) {
	m := avatar(b, vrmtest.Options{Triangles: 100000})
	r, err := rig.New(m)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Apply(bigPose); err != nil {
			b.Fatal(err)
		}
	}
}
