package rig_test

import (
	"encoding/binary"
	"math"
	"testing"

	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

// FuzzRig spoils the fixture model and the pose from the fuzzer's bytes:
// New, Apply, Motions and Bake must answer with an error or a frame,
// never a panic.
func FuzzRig(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{3, 200, 0, 0, 0, 7, 255, 255, 255, 255, 1, 0x7f, 0xc0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		fx := newFixture(fixtureOpts{twist: len(data)%2 == 1})
		m := fx.model
		next := func() int {
			if len(data) < 4 {
				return 0
			}
			v := int(int32(binary.LittleEndian.Uint32(data)))
			data = data[4:]
			return v
		}
		fl := func() float32 { return math.Float32frombits(uint32(next())) }
		pr := &m.Meshes[0].Primitives[0]
		// at is an index into a list of n from the next value; false for an
		// empty list (case 9 may empty the weights).
		at := func(n int) (int, bool) {
			v := uint(next())
			if n == 0 {
				return 0, false
			}
			return int(v % uint(n)), true
		}
		for len(data) >= 4 {
			switch uint(next()) % 10 {
			case 0:
				m.Nodes[uint(next())%uint(len(m.Nodes))].Parent = next()
			case 1:
				m.Skins[0].Joints[uint(next())%uint(len(m.Skins[0].Joints))] = next()
			case 2:
				pr.Joints[uint(next())%uint(len(pr.Joints))][0] = uint16(next())
			case 3:
				if i, ok := at(len(pr.Weights)); ok {
					pr.Weights[i] = vrm.Vec4{fl(), fl(), 0, 0}
				}
			case 4:
				m.Nodes[uint(next())%uint(len(m.Nodes))].Rotation = vrm.Quat{fl(), fl(), fl(), fl()}
			case 5:
				m.Nodes[uint(next())%uint(len(m.Nodes))].Scale = vrm.Vec3{fl(), fl(), fl()}
			case 6:
				pr.Indices[uint(next())%uint(len(pr.Indices))] = uint32(next())
			case 7:
				m.Expressions[uint(next())%uint(len(m.Expressions))].Morphs = []vrm.MorphBind{{Mesh: next(), Index: next(), Weight: fl()}}
			case 8:
				m.Expressions[0].Colors = []vrm.ColorBind{{Material: next(), Type: "shadeColor", Target: vrm.Vec4{fl()}}}
			case 9:
				pr.Weights = pr.Weights[:uint(next())%uint(len(pr.Weights)+1)]
			}
		}
		r, err := rig.New(m)
		if err != nil {
			return
		}
		p := rig.Pose{Bones: map[string]vrm.Quat{"head": {1, 2, 3, 4}, "leftUpperArm": {0, 0, 0, 0}},
			Expressions: map[string]float32{"aa": 3, "happy": -1}, Yaw: 400, Pitch: -400, Turn: 1e30}
		_, _ = r.Apply(p)
		_, _, _ = r.Bounds(rig.Pose{})
		for _, mo := range r.Motions() {
			for _, p := range mo.Poses {
				_, _ = r.Apply(p)
			}
		}
		_, _ = r.Bake("x", legClip(), 5)
	})
}
