package rig_test

import (
	"testing"

	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

// bigModel is the fixture with a 100k-triangle skin of four weights a
// vertex and a few morph targets, the size of a detailed avatar.
func bigModel() *vrm.Model {
	m := newFixture(fixtureOpts{twist: true}).model
	const side = 224 // (side-1)² × 2 ≈ 100k triangles
	var pr vrm.Primitive
	pr.Material = 0
	for i := 0; i < side; i++ {
		for j := 0; j < side; j++ {
			x, y := float32(i)/side-0.5, float32(j)/side*1.7
			pr.Positions = append(pr.Positions, vrm.Vec3{x, y, 0.05})
			pr.Normals = append(pr.Normals, vrm.Vec3{0, 0, 1})
			pr.UVs = append(pr.UVs, vrm.Vec2{x, y})
			k := uint16(1 + (i+j)%18)
			pr.Joints = append(pr.Joints, [4]uint16{k, k + 1, 1, 3})
			pr.Weights = append(pr.Weights, vrm.Vec4{0.4, 0.3, 0.2, 0.1})
		}
	}
	for i := 0; i < side-1; i++ {
		for j := 0; j < side-1; j++ {
			a := uint32(i*side + j)
			pr.Indices = append(pr.Indices, a, a+side, a+1, a+1, a+side, a+side+1)
		}
	}
	for t := 0; t < 8; t++ {
		d := make([]vrm.Vec3, len(pr.Positions))
		for i := range d {
			d[i] = vrm.Vec3{0, 0, 0.001 * float32(t)}
		}
		pr.Targets = append(pr.Targets, vrm.MorphTarget{Positions: d})
	}
	m.Meshes = append(m.Meshes, vrm.Mesh{Primitives: []vrm.Primitive{pr}})
	m.Nodes = append(m.Nodes, vrm.Node{Parent: 0, Rotation: vrm.Quat{0, 0, 0, 1}, Scale: vrm.Vec3{1, 1, 1},
		Mesh: len(m.Meshes) - 1, Skin: 0})
	m.Expressions = append(m.Expressions, vrm.Expression{Name: "ee",
		Morphs: []vrm.MorphBind{{Mesh: len(m.Meshes) - 1, Index: 3, Weight: 1}}})
	return m
}

var bigPose = rig.Pose{Bones: map[string]vrm.Quat{"leftUpperLeg": quatX(-30), "spine": quatZ(5)},
	Expressions: map[string]float32{"ee": 0.5}, Yaw: 10, Turn: 20}

func BenchmarkApply100k(b *testing.B) {
	r, err := rig.New(bigModel())
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
