package rig_test

import (
	"math"

	"yui/pet/character/vrm"
)

// A small humanoid built in code: boxes skinned to its bones, a face
// primitive with morph targets (mouth open, eyes shut), a rigid hat hung
// on the head node and expressions. Bones may be given arbitrary local
// axes (twist) so that tests check the posing does not depend on them.

type bone struct {
	name   string
	parent int
	pos    [3]float64 // world, bind pose
}

var skeleton = []bone{
	{"root", -1, [3]float64{0, 0, 0}},
	{"hips", 0, [3]float64{0, 1.0, 0}},
	{"spine", 1, [3]float64{0, 1.12, 0}},
	{"chest", 2, [3]float64{0, 1.25, 0}},
	{"neck", 3, [3]float64{0, 1.45, 0}},
	{"head", 4, [3]float64{0, 1.55, 0}},
	{"leftEye", 5, [3]float64{0.03, 1.62, 0.08}},
	{"rightEye", 5, [3]float64{-0.03, 1.62, 0.08}},
	{"leftUpperArm", 3, [3]float64{0.18, 1.4, 0}},
	{"leftLowerArm", 8, [3]float64{0.45, 1.4, 0}},
	{"leftHand", 9, [3]float64{0.7, 1.4, 0}},
	{"rightUpperArm", 3, [3]float64{-0.18, 1.4, 0}},
	{"rightLowerArm", 11, [3]float64{-0.45, 1.4, 0}},
	{"rightHand", 12, [3]float64{-0.7, 1.4, 0}},
	{"leftUpperLeg", 1, [3]float64{0.09, 0.95, 0}},
	{"leftLowerLeg", 14, [3]float64{0.09, 0.5, 0}},
	{"leftFoot", 15, [3]float64{0.09, 0.08, 0}},
	{"rightUpperLeg", 1, [3]float64{-0.09, 0.95, 0}},
	{"rightLowerLeg", 17, [3]float64{-0.09, 0.5, 0}},
	{"rightFoot", 18, [3]float64{-0.09, 0.08, 0}},
}

const (
	boneHead     = 5
	boneLeftHand = 10
)

type q4 [4]float64

func qmul(q, r q4) q4 {
	return q4{
		q[3]*r[0] + q[0]*r[3] + q[1]*r[2] - q[2]*r[1],
		q[3]*r[1] - q[0]*r[2] + q[1]*r[3] + q[2]*r[0],
		q[3]*r[2] + q[0]*r[1] - q[1]*r[0] + q[2]*r[3],
		q[3]*r[3] - q[0]*r[0] - q[1]*r[1] - q[2]*r[2],
	}
}

func qconj(q q4) q4 { return q4{-q[0], -q[1], -q[2], q[3]} }

func qrot(q q4, v [3]float64) [3]float64 {
	p := qmul(qmul(q, q4{v[0], v[1], v[2], 0}), qconj(q))
	return [3]float64{p[0], p[1], p[2]}
}

func qaxis(x, y, z, deg float64) q4 {
	l := math.Sqrt(x*x + y*y + z*z)
	s := math.Sin(deg * math.Pi / 360)
	return q4{x / l * s, y / l * s, z / l * s, math.Cos(deg * math.Pi / 360)}
}

func f3(v [3]float64) vrm.Vec3 { return vrm.Vec3{float32(v[0]), float32(v[1]), float32(v[2])} }

// world matrix T(p)·R(q), column-major, and its inverse.
func rigidMat(p [3]float64, q q4) vrm.Mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	m := [16]float64{
		1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w), 0,
		2 * (x*y - z*w), 1 - 2*(x*x+z*z), 2 * (y*z + x*w), 0,
		2 * (x*z + y*w), 2 * (y*z - x*w), 1 - 2*(x*x+y*y), 0,
		p[0], p[1], p[2], 1,
	}
	var out vrm.Mat4
	for i, v := range m {
		out[i] = float32(v)
	}
	return out
}

func inverseRigid(p [3]float64, q q4) vrm.Mat4 {
	qi := qconj(q)
	t := qrot(qi, [3]float64{-p[0], -p[1], -p[2]})
	return rigidMat(t, qi)
}

type fixture struct {
	model *vrm.Model
	// ranges are the vertex index ranges of each bone's box in prim 0.
	ranges map[string][2]int
}

type fixtureOpts struct {
	twist bool    // arbitrary bone axes
	aPose float64 // degrees the arms are lowered in the bind pose
}

// box appends a cube of half-size h at c.
func box(pos *[]vrm.Vec3, nrm *[]vrm.Vec3, idx *[]uint32, c [3]float64, h float64) {
	base := uint32(len(*pos))
	for i := 0; i < 8; i++ {
		d := [3]float64{-h, -h, -h}
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				d[k] = h
			}
		}
		*pos = append(*pos, f3([3]float64{c[0] + d[0], c[1] + d[1], c[2] + d[2]}))
		n := [3]float64{d[0], d[1], d[2]}
		l := math.Sqrt(3) * h
		*nrm = append(*nrm, f3([3]float64{n[0] / l, n[1] / l, n[2] / l}))
	}
	for _, f := range [][4]uint32{{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}} {
		*idx = append(*idx, base+f[0], base+f[1], base+f[2], base+f[0], base+f[2], base+f[3])
	}
}

func newFixture(o fixtureOpts) fixture {
	bs := fixtureBones(o)
	m, worldR, skin := fixtureNodes(bs, o)
	pr, ranges := fixtureBody(bs)
	m.Meshes = append(m.Meshes, vrm.Mesh{Name: "body", Primitives: []vrm.Primitive{pr}})
	m.Skins = []vrm.Skin{skin}
	body := vrm.Node{Name: "body", Parent: 0, Rotation: vrm.Quat{0, 0, 0, 1}, Scale: vrm.Vec3{1, 1, 1}, Mesh: 0, Skin: 0}
	m.Nodes = append(m.Nodes, body)
	m.Nodes[0].Children = append(m.Nodes[0].Children, len(m.Nodes)-1)
	fixtureExtras(m, worldR)
	return fixture{model: m, ranges: ranges}
}

// fixtureBones is the skeleton, its arms lowered for an A-pose.
func fixtureBones(o fixtureOpts) []bone {
	bs := make([]bone, len(skeleton))
	copy(bs, skeleton)
	if o.aPose != 0 {
		// Lower each arm about its shoulder.
		for _, s := range []struct {
			ua   int
			sign float64
		}{{8, 1}, {11, -1}} {
			q := qaxis(0, 0, 1, -s.sign*o.aPose)
			for _, i := range []int{s.ua + 1, s.ua + 2} {
				d := [3]float64{bs[i].pos[0] - bs[s.ua].pos[0], bs[i].pos[1] - bs[s.ua].pos[1], bs[i].pos[2] - bs[s.ua].pos[2]}
				d = qrot(q, d)
				bs[i].pos = [3]float64{bs[s.ua].pos[0] + d[0], bs[s.ua].pos[1] + d[1], bs[s.ua].pos[2] + d[2]}
			}
		}
	}
	return bs
}

// fixtureNodes makes the nodes (with arbitrary bone axes for twist) and
// the skin's joints and inverse bind matrices.
func fixtureNodes(bs []bone, o fixtureOpts) (*vrm.Model, []q4, vrm.Skin) {
	m := &vrm.Model{SpecVersion: 1, Humanoid: map[string]int{}, Roots: []int{0}}
	worldR := make([]q4, len(bs))
	skin := vrm.Skin{}
	for i, b := range bs {
		worldR[i] = q4{0, 0, 0, 1}
		if o.twist && i > 0 {
			worldR[i] = qaxis(float64(i%3)+0.3, float64(i%5)-2, 1, float64(37*i%360))
		}
		nd := vrm.Node{Name: b.name, Parent: b.parent, Scale: vrm.Vec3{1, 1, 1}, Mesh: -1, Skin: -1}
		pq, pp := q4{0, 0, 0, 1}, [3]float64{}
		if b.parent >= 0 {
			pq, pp = worldR[b.parent], bs[b.parent].pos
			m.Nodes[b.parent].Children = append(m.Nodes[b.parent].Children, i)
		}
		lq := qmul(qconj(pq), worldR[i])
		lt := qrot(qconj(pq), [3]float64{b.pos[0] - pp[0], b.pos[1] - pp[1], b.pos[2] - pp[2]})
		nd.Rotation = vrm.Quat{float32(lq[0]), float32(lq[1]), float32(lq[2]), float32(lq[3])}
		nd.Translation = f3(lt)
		m.Nodes = append(m.Nodes, nd)
		if i > 0 {
			m.Humanoid[b.name] = i
		}
		skin.Joints = append(skin.Joints, i)
		skin.InverseBindMatrices = append(skin.InverseBindMatrices, inverseRigid(b.pos, worldR[i]))
	}
	return m, worldR, skin
}

// fixtureBody is a box per bone, skinned to it, and the face.
func fixtureBody(bs []bone) (vrm.Primitive, map[string][2]int) {
	// The body: a box per bone, skinned to it.
	var pr vrm.Primitive
	pr.Material = 0
	ranges := map[string][2]int{}
	for i, b := range bs {
		if i == 0 {
			continue
		}
		start := len(pr.Positions)
		box(&pr.Positions, &pr.Normals, &pr.Indices, b.pos, 0.03)
		for v := start; v < len(pr.Positions); v++ {
			pr.Joints = append(pr.Joints, [4]uint16{uint16(i), 0, 0, 0})
			pr.Weights = append(pr.Weights, vrm.Vec4{1, 0, 0, 0})
		}
		ranges[b.name] = [2]int{start, len(pr.Positions)}
	}
	// The face: a box at the mouth and one at the eyelids, skinned to the
	// head, with targets: 0 opens the mouth (down), 1 shuts the eyes.
	mouth := len(pr.Positions)
	box(&pr.Positions, &pr.Normals, &pr.Indices, [3]float64{0, 1.58, 0.09}, 0.01)
	lid := len(pr.Positions)
	box(&pr.Positions, &pr.Normals, &pr.Indices, [3]float64{0, 1.64, 0.09}, 0.01)
	for v := mouth; v < len(pr.Positions); v++ {
		pr.Joints = append(pr.Joints, [4]uint16{boneHead, 0, 0, 0})
		pr.Weights = append(pr.Weights, vrm.Vec4{1, 0, 0, 0})
	}
	ranges["mouth"], ranges["lid"] = [2]int{mouth, lid}, [2]int{lid, len(pr.Positions)}
	open := make([]vrm.Vec3, len(pr.Positions))
	shut := make([]vrm.Vec3, len(pr.Positions))
	for v := mouth; v < lid; v++ {
		open[v] = vrm.Vec3{0, -0.02, 0}
	}
	for v := lid; v < len(pr.Positions); v++ {
		shut[v] = vrm.Vec3{0, -0.01, 0}
	}
	pr.Targets = []vrm.MorphTarget{{Positions: open}, {Positions: shut}}
	return pr, ranges
}

// fixtureExtras adds the hat, the material, the expressions and lookAt.
func fixtureExtras(m *vrm.Model, worldR []q4) {
	// The hat: a rigid box on a node under the head, 0.15 above it.
	var hat vrm.Primitive
	hat.Material = 0
	box(&hat.Positions, &hat.Normals, &hat.Indices, [3]float64{}, 0.05)
	m.Meshes = append(m.Meshes, vrm.Mesh{Name: "hat", Primitives: []vrm.Primitive{hat}})
	up := qrot(qconj(worldR[boneHead]), [3]float64{0, 0.15, 0})
	hq := qconj(worldR[boneHead])
	m.Nodes = append(m.Nodes, vrm.Node{Name: "hat", Parent: boneHead, Translation: f3(up),
		Rotation: vrm.Quat{float32(hq[0]), float32(hq[1]), float32(hq[2]), float32(hq[3])},
		Scale:    vrm.Vec3{1, 1, 1}, Mesh: 1, Skin: -1})
	m.Nodes[boneHead].Children = append(m.Nodes[boneHead].Children, len(m.Nodes)-1)

	m.Materials = []vrm.Material{{Name: "skin", BaseColor: vrm.Vec4{1, 1, 1, 1}, BaseTexture: vrm.TextureRef{Index: -1},
		EmissiveTexture: vrm.TextureRef{Index: -1},
		Toon:            &vrm.Toon{ShadeColor: vrm.Vec3{0.5, 0.5, 0.5}}}}
	m.Expressions = []vrm.Expression{
		{Name: "aa", Preset: true, OverrideBlink: "none", OverrideLookAt: "none", OverrideMouth: "none",
			Morphs: []vrm.MorphBind{{Mesh: 0, Index: 0, Weight: 1}}},
		{Name: "blink", Preset: true, OverrideBlink: "none", OverrideLookAt: "none", OverrideMouth: "none",
			Morphs: []vrm.MorphBind{{Mesh: 0, Index: 1, Weight: 1}}},
		{Name: "happy", Preset: true, OverrideBlink: "block", OverrideLookAt: "none", OverrideMouth: "blend",
			Colors: []vrm.ColorBind{{Material: 0, Type: "color", Target: vrm.Vec4{1, 0, 0, 1}}}},
		{Name: "wink", IsBinary: true, OverrideBlink: "none", OverrideLookAt: "none", OverrideMouth: "none",
			Morphs: []vrm.MorphBind{{Mesh: 0, Index: 1, Weight: 1}}},
	}
	m.LookAt = vrm.LookAt{Type: "bone",
		HorizontalInner: vrm.RangeMap{InputMaxValue: 90, OutputScale: 8},
		HorizontalOuter: vrm.RangeMap{InputMaxValue: 90, OutputScale: 12},
		VerticalDown:    vrm.RangeMap{InputMaxValue: 90, OutputScale: 10},
		VerticalUp:      vrm.RangeMap{InputMaxValue: 90, OutputScale: 10}}
}

// centerOf is the mean of a vertex range's posed positions.
func centerOf(ps []vrm.Vec3, r [2]int) [3]float64 {
	var c [3]float64
	for _, p := range ps[r[0]:r[1]] {
		for k := 0; k < 3; k++ {
			c[k] += float64(p[k])
		}
	}
	n := float64(r[1] - r[0])
	return [3]float64{c[0] / n, c[1] / n, c[2] / n}
}
