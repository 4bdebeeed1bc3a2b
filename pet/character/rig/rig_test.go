package rig_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

func mustRig(t *testing.T, m *vrm.Model) *rig.Rig {
	t.Helper()
	r, err := rig.New(m)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

func mustApply(t *testing.T, r *rig.Rig, p rig.Pose) *rig.Frame {
	t.Helper()
	f, err := r.Apply(p)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return f
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// In the relaxed stance the hands hang below the shoulders near the hips'
// height, a little forward, the figure otherwise as bound; the same
// whatever the bones' axes and whether the model was bound in a T or an
// A pose.
func TestStanceHandsDown(t *testing.T) {
	for _, o := range []fixtureOpts{{}, {twist: true}, {aPose: 35}, {aPose: 35, twist: true}} {
		fx := newFixture(o)
		r := mustRig(t, fx.model)
		want := "T"
		if o.aPose != 0 {
			want = "A"
		}
		if got := r.BindPose(); got != want {
			t.Errorf("%+v: BindPose = %q, want %q", o, got, want)
		}
		f := mustApply(t, r, rig.Pose{})
		ps := f.Prims[0].Positions
		for _, s := range []string{"left", "right"} {
			hand := centerOf(ps, fx.ranges[s+"Hand"])
			shoulder := centerOf(ps, fx.ranges[s+"UpperArm"])
			hips := centerOf(ps, fx.ranges["hips"])
			if hand[1] > shoulder[1]-0.3 {
				t.Errorf("%+v: %s hand at y %.2f, not below the shoulder's %.2f", o, s, hand[1], shoulder[1])
			}
			if math.Abs(hand[1]-hips[1]) > 0.25 {
				t.Errorf("%+v: %s hand at y %.2f, far from the hips' %.2f", o, s, hand[1], hips[1])
			}
			if hand[2] <= 0 {
				t.Errorf("%+v: %s hand at z %.2f, not forward", o, s, hand[2])
			}
			if (s == "left") != (hand[0] > 0) {
				t.Errorf("%+v: %s hand at x %.2f, on the wrong side", o, s, hand[0])
			}
			// Legs straight: the foot stays under the hip.
			foot := centerOf(ps, fx.ranges[s+"Foot"])
			if math.Abs(foot[1]-0.08) > 1e-3 {
				t.Errorf("%+v: %s foot moved to y %.3f", o, s, foot[1])
			}
		}
		head := centerOf(ps, fx.ranges["head"])
		if dist(head, [3]float64{0, 1.55, 0}) > 1e-3 {
			t.Errorf("%+v: head moved to %v", o, head)
		}
	}
}

// A pose rotation means the same on every model: the same leg swing on a
// model with other bone axes puts the foot in the same place.
func TestPoseIndependentOfBoneAxes(t *testing.T) {
	p := rig.Pose{Bones: map[string]vrm.Quat{
		"leftUpperLeg": quatX(-30), "leftLowerLeg": quatX(40), "rightUpperArm": quatX(-50), "head": quatZ(15),
	}}
	var feet [2][3]float64
	for i, twist := range []bool{false, true} {
		fx := newFixture(fixtureOpts{twist: twist})
		f := mustApply(t, mustRig(t, fx.model), p)
		feet[i] = centerOf(f.Prims[0].Positions, fx.ranges["leftFoot"])
		if feet[i][2] <= 0.05 {
			t.Errorf("twist %v: left foot at z %.3f, not forward after a forward swing", twist, feet[i][2])
		}
	}
	if dist(feet[0], feet[1]) > 1e-3 {
		t.Errorf("the same pose puts the foot at %v and %v", feet[0], feet[1])
	}
}

func quatX(deg float64) vrm.Quat { return axisQ(1, 0, 0, deg) }
func quatZ(deg float64) vrm.Quat { return axisQ(0, 0, 1, deg) }
func axisQ(x, y, z, deg float64) vrm.Quat {
	q := qaxis(x, y, z, deg)
	return vrm.Quat{float32(q[0]), float32(q[1]), float32(q[2]), float32(q[3])}
}

// A rigid mesh on a node under the head follows the head.
func TestRigidMeshFollowsHead(t *testing.T) {
	fx := newFixture(fixtureOpts{twist: true})
	r := mustRig(t, fx.model)
	rest := mustApply(t, r, rig.Pose{})
	hatRest := centerOf(rest.Prims[1].Positions, [2]int{0, 8})
	if dist(hatRest, [3]float64{0, 1.70, 0}) > 1e-3 {
		t.Fatalf("hat at %v, want above the head", hatRest)
	}
	f := mustApply(t, r, rig.Pose{Bones: map[string]vrm.Quat{"neck": quatZ(40)}})
	hat := centerOf(f.Prims[1].Positions, [2]int{0, 8})
	head := centerOf(f.Prims[0].Positions, fx.ranges["head"])
	if hat[0] > -0.05 {
		t.Errorf("the neck tilted to the model's left but the hat is at x %.3f", hat[0])
	}
	if d := dist(hat, head); math.Abs(d-0.15) > 1e-3 {
		t.Errorf("hat %.3f from the head, want 0.15", d)
	}
}

// Expressions move the face's vertices; the override rules and binary
// expressions hold; colour binds change the frame's material copies only.
func TestExpressions(t *testing.T) {
	fx := newFixture(fixtureOpts{})
	r := mustRig(t, fx.model)
	base := mustApply(t, r, rig.Pose{})
	mouthY := func(f *rig.Frame) float64 { return centerOf(f.Prims[0].Positions, fx.ranges["mouth"])[1] }
	lidY := func(f *rig.Frame) float64 { return centerOf(f.Prims[0].Positions, fx.ranges["lid"])[1] }
	aa := mustApply(t, r, rig.Pose{Expressions: map[string]float32{"aa": 1}})
	if d := mouthY(base) - mouthY(aa); math.Abs(d-0.02) > 1e-4 {
		t.Errorf("aa opened the mouth by %.4f, want 0.02", d)
	}
	blink := mustApply(t, r, rig.Pose{Expressions: map[string]float32{"blink": 1}})
	if d := lidY(base) - lidY(blink); math.Abs(d-0.01) > 1e-4 {
		t.Errorf("blink moved the lid by %.4f, want 0.01", d)
	}
	// happy blocks blinking and blends the mouth.
	hb := mustApply(t, r, rig.Pose{Expressions: map[string]float32{"blink": 1, "happy": 0.5, "aa": 1}})
	if d := lidY(base) - lidY(hb); math.Abs(d) > 1e-5 {
		t.Errorf("happy should block the blink; the lid moved %.4f", d)
	}
	if d := mouthY(base) - mouthY(hb); math.Abs(d-0.01) > 1e-4 {
		t.Errorf("happy at 0.5 should halve aa; the mouth opened %.4f", d)
	}
	if c := hb.Materials[0].BaseColor; math.Abs(float64(c[1])-0.5) > 1e-4 || c[0] != 1 {
		t.Errorf("happy's colour bind at 0.5: base colour %v", c)
	}
	if fx.model.Materials[0].BaseColor != (vrm.Vec4{1, 1, 1, 1}) {
		t.Errorf("the model's material changed: %v", fx.model.Materials[0].BaseColor)
	}
	// Texture-transform and emission binds move from the material's own
	// values towards the bind's.
	fx.model.Materials[0].BaseTexture = vrm.TextureRef{Index: 0, Scale: vrm.Vec2{1, 1}, Offset: vrm.Vec2{0.5, 0}}
	fx.model.Expressions = append(fx.model.Expressions, vrm.Expression{Name: "surprised",
		TextureTransforms: []vrm.TextureTransformBind{{Material: 0, Scale: vrm.Vec2{2, 1}, Offset: vrm.Vec2{0, 0.5}}},
		Colors:            []vrm.ColorBind{{Material: 0, Type: "emissionColor", Target: vrm.Vec4{1, 1, 0, 1}}}})
	r2 := mustRig(t, fx.model)
	sf := mustApply(t, r2, rig.Pose{Expressions: map[string]float32{"surprised": 0.5}})
	if tr := sf.Materials[0].BaseTexture; tr.Scale != (vrm.Vec2{1.5, 1}) || tr.Offset != (vrm.Vec2{0.25, 0.25}) {
		t.Errorf("texture transform at 0.5: scale %v offset %v", tr.Scale, tr.Offset)
	}
	if e := sf.Materials[0].Emissive; e != (vrm.Vec3{0.5, 0.5, 0}) {
		t.Errorf("emission at 0.5: %v", e)
	}
	// A binary expression snaps at 0.5.
	w4 := mustApply(t, r, rig.Pose{Expressions: map[string]float32{"wink": 0.4}})
	w6 := mustApply(t, r, rig.Pose{Expressions: map[string]float32{"wink": 0.6}})
	if lidY(base) != lidY(w4) || math.Abs(lidY(base)-lidY(w6)-0.01) > 1e-4 {
		t.Errorf("binary wink: at 0.4 the lid moved %.4f, at 0.6 %.4f", lidY(base)-lidY(w4), lidY(base)-lidY(w6))
	}
}

// The eyes turn for the gaze: by bone, the front of each eye moves to the
// side looked at; by expression, lookLeft's weight follows the range map.
func TestGaze(t *testing.T) {
	fx := newFixture(fixtureOpts{twist: true})
	r := mustRig(t, fx.model)
	front := func(f *rig.Frame, eye string) [3]float64 {
		rg := fx.ranges[eye]
		var c [3]float64
		for i := rg[0]; i < rg[1]; i++ {
			if (i-rg[0])&4 != 0 { // the +Z face of the box
				for k := 0; k < 3; k++ {
					c[k] += float64(f.Prims[0].Positions[i][k]) / 4
				}
			}
		}
		return c
	}
	base := mustApply(t, r, rig.Pose{})
	left := mustApply(t, r, rig.Pose{Yaw: 45})
	up := mustApply(t, r, rig.Pose{Pitch: 45})
	for _, eye := range []string{"leftEye", "rightEye"} {
		if d := front(left, eye)[0] - front(base, eye)[0]; d <= 1e-4 {
			t.Errorf("%s: looking left moved its front by %.5f in x", eye, d)
		}
		if d := front(up, eye)[1] - front(base, eye)[1]; d <= 1e-4 {
			t.Errorf("%s: looking up moved its front by %.5f in y", eye, d)
		}
	}
	// The left eye looking left turns outward (the larger outer range).
	dl := front(left, "leftEye")[0] - front(base, "leftEye")[0]
	dr := front(left, "rightEye")[0] - front(base, "rightEye")[0]
	if dl <= dr {
		t.Errorf("outer range 12° vs inner 8°: left eye moved %.5f, right %.5f", dl, dr)
	}

	// By expression.
	fx.model.LookAt.Type = "expression"
	fx.model.LookAt.HorizontalOuter = vrm.RangeMap{InputMaxValue: 90, OutputScale: 1}
	fx.model.Expressions = append(fx.model.Expressions, vrm.Expression{Name: "lookLeft", Preset: true,
		Morphs: []vrm.MorphBind{{Mesh: 0, Index: 0, Weight: 1}}})
	r = mustRig(t, fx.model)
	f := mustApply(t, r, rig.Pose{Yaw: 45})
	d := centerOf(base.Prims[0].Positions, fx.ranges["mouth"])[1] - centerOf(f.Prims[0].Positions, fx.ranges["mouth"])[1]
	if math.Abs(d-0.01) > 1e-4 {
		t.Errorf("lookLeft at 45° of 90° should weigh 0.5: the bound target moved %.4f", d)
	}
}

// Hips, Turn and Bounds: the figure moves and turns as a whole.
func TestHipsTurnBounds(t *testing.T) {
	fx := newFixture(fixtureOpts{})
	r := mustRig(t, fx.model)
	lo, hi, err := r.Bounds(rig.Pose{})
	if err != nil {
		t.Fatal(err)
	}
	if lo[1] > 0.06 || hi[1] < 1.7 {
		t.Errorf("stance bounds %v..%v", lo, hi)
	}
	lo2, hi2, _ := r.Bounds(rig.Pose{Hips: vrm.Vec3{0, -0.5, 0}})
	if math.Abs(float64(lo2[1]-lo[1])+0.5) > 1e-4 || math.Abs(float64(hi2[1]-hi[1])+0.5) > 1e-4 {
		t.Errorf("Hips -0.5: bounds %v..%v from %v..%v", lo2, hi2, lo, hi)
	}
	f := mustApply(t, r, rig.Pose{Turn: 90})
	// Turned a quarter to the model's left, the hat (facing +Z) ends at the same place; the left hand goes to -Z.
	hand := centerOf(f.Prims[0].Positions, fx.ranges["leftHand"])
	if hand[2] > -0.1 {
		t.Errorf("turned 90°, the left hand is at z %.3f", hand[2])
	}
}

// The same pose gives the same bytes.
func TestDeterministic(t *testing.T) {
	fx := newFixture(fixtureOpts{twist: true})
	r := mustRig(t, fx.model)
	p := rig.Pose{Bones: map[string]vrm.Quat{"spine": quatX(10), "leftUpperArm": quatZ(30), "head": quatZ(5)},
		Expressions: map[string]float32{"aa": 0.3, "blink": 0.7, "happy": 0.2}, Yaw: 10, Pitch: -5, Turn: 30}
	enc := func(f *rig.Frame) []byte {
		var b bytes.Buffer
		for _, pr := range f.Prims {
			_ = binary.Write(&b, binary.LittleEndian, pr.Positions)
			_ = binary.Write(&b, binary.LittleEndian, pr.Normals)
		}
		_ = binary.Write(&b, binary.LittleEndian, f.Materials[0].BaseColor)
		return b.Bytes()
	}
	a := enc(mustApply(t, r, p))
	for i := 0; i < 5; i++ {
		if !bytes.Equal(a, enc(mustApply(t, r, p))) {
			t.Fatal("the same pose gave different bytes")
		}
	}
}

// Bad models and poses get an error, never a panic.
func TestBadInput(t *testing.T) {
	cases := map[string]func(m *vrm.Model){
		"joint outside the nodes": func(m *vrm.Model) { m.Skins[0].Joints[3] = 999 },
		"weights short":           func(m *vrm.Model) { m.Meshes[0].Primitives[0].Weights = m.Meshes[0].Primitives[0].Weights[:5] },
		"joints short":            func(m *vrm.Model) { m.Meshes[0].Primitives[0].Joints = m.Meshes[0].Primitives[0].Joints[:5] },
		"joint past the skin":     func(m *vrm.Model) { m.Meshes[0].Primitives[0].Joints[2][0] = 500 },
		"NaN rotation":            func(m *vrm.Model) { m.Nodes[3].Rotation[0] = float32(math.NaN()) },
		"NaN inverse bind":        func(m *vrm.Model) { m.Skins[0].InverseBindMatrices[2][5] = float32(math.Inf(1)) },
		"loop":                    func(m *vrm.Model) { m.Nodes[0].Parent = 5 },
		"index past positions":    func(m *vrm.Model) { m.Meshes[0].Primitives[0].Indices[0] = 1 << 30 },
		"mesh outside":            func(m *vrm.Model) { m.Nodes[2].Mesh = 40 },
		"humanoid outside":        func(m *vrm.Model) { m.Humanoid["head"] = -3 },
		"short target":            func(m *vrm.Model) { m.Meshes[0].Primitives[0].Targets[0].Positions = make([]vrm.Vec3, 3) },
		"bind count":              func(m *vrm.Model) { m.Skins[0].InverseBindMatrices = m.Skins[0].InverseBindMatrices[:2] },
	}
	for name, spoil := range cases {
		fx := newFixture(fixtureOpts{})
		spoil(fx.model)
		if _, err := rig.New(fx.model); err == nil || !strings.HasPrefix(err.Error(), "rig: ") {
			t.Errorf("%s: New error %v", name, err)
		}
	}
	if _, err := rig.New(nil); err == nil {
		t.Error("New(nil): no error")
	}
	r := mustRig(t, newFixture(fixtureOpts{}).model)
	nan := float32(math.NaN())
	for _, p := range []rig.Pose{
		{Bones: map[string]vrm.Quat{"head": {nan, 0, 0, 1}}},
		{Hips: vrm.Vec3{0, nan, 0}},
		{Expressions: map[string]float32{"aa": nan}},
		{Turn: float32(math.Inf(1))},
	} {
		if _, err := r.Apply(p); err == nil {
			t.Errorf("Apply(%+v): no error", p)
		}
	}
	// Zero weights leave the vertex on its node; unknown bones are ignored.
	fx := newFixture(fixtureOpts{})
	fx.model.Meshes[0].Primitives[0].Weights[0] = vrm.Vec4{}
	f := mustApply(t, mustRig(t, fx.model), rig.Pose{Bones: map[string]vrm.Quat{"tail": quatX(10)}})
	if got, want := f.Prims[0].Positions[0], fx.model.Meshes[0].Primitives[0].Positions[0]; got != want {
		t.Errorf("a zero-weight vertex moved from %v to %v", want, got)
	}
}

// A model without a humanoid stands as it is and still moves as a whole.
func TestNoHumanoid(t *testing.T) {
	fx := newFixture(fixtureOpts{})
	fx.model.Humanoid = nil
	r := mustRig(t, fx.model)
	f := mustApply(t, r, rig.Pose{Hips: vrm.Vec3{0, 0.1, 0}})
	for i, p := range f.Prims[0].Positions[:40] {
		q := fx.model.Meshes[0].Primitives[0].Positions[i]
		if math.Abs(float64(p[1]-q[1])-0.1) > 1e-5 || p[0] != q[0] {
			t.Fatalf("vertex %d: %v from %v", i, p, q)
		}
	}
	if len(r.Motions()) != 8 {
		t.Errorf("%d motions", len(r.Motions()))
	}
}

// Distinct Apply calls may run at once (the import poses frames in
// parallel); under -race this holds the rig read-only after New.
func TestConcurrentApply(t *testing.T) {
	r := mustRig(t, newFixture(fixtureOpts{twist: true}).model)
	p := rig.Pose{Bones: map[string]vrm.Quat{"spine": quatX(10)}, Expressions: map[string]float32{"happy": 1}, Yaw: 20}
	want := mustApply(t, r, p)
	done := make(chan *rig.Frame)
	for i := 0; i < 4; i++ {
		go func() {
			f, err := r.Apply(p)
			if err != nil {
				f = nil
			}
			done <- f
		}()
	}
	for i := 0; i < 4; i++ {
		f := <-done
		if f == nil || f.Prims[0].Positions[100] != want.Prims[0].Positions[100] {
			t.Error("a concurrent Apply gave another frame")
		}
	}
}

// Relaxed fingers bend a little towards the palm, which hangs facing the
// thigh: the left hand's fingers curl in towards the body (−X).
func TestFingersCurl(t *testing.T) {
	fx := newFixture(fixtureOpts{})
	m := fx.model
	parent := m.Humanoid["leftHand"]
	for _, f := range []struct {
		name string
		dx   float32
	}{{"leftIndexProximal", 0.06}, {"leftIndexIntermediate", 0.03}, {"leftIndexDistal", 0.025}} {
		m.Nodes = append(m.Nodes, vrm.Node{Name: f.name, Parent: parent, Translation: vrm.Vec3{f.dx, 0, 0},
			Rotation: vrm.Quat{0, 0, 0, 1}, Scale: vrm.Vec3{1, 1, 1}, Mesh: -1, Skin: -1})
		parent = len(m.Nodes) - 1
		m.Humanoid[f.name] = parent
	}
	r := mustRig(t, m)
	w := bonePositions(t, r, m, rig.Pose{})
	sub := func(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
	a := sub(w["leftIndexIntermediate"], w["leftIndexProximal"])
	b := sub(w["leftIndexDistal"], w["leftIndexIntermediate"])
	cos := (a[0]*b[0] + a[1]*b[1] + a[2]*b[2]) / math.Sqrt((a[0]*a[0]+a[1]*a[1]+a[2]*a[2])*(b[0]*b[0]+b[1]*b[1]+b[2]*b[2]))
	if ang := math.Acos(math.Min(1, cos)) * 180 / math.Pi; math.Abs(ang-12) > 0.5 {
		t.Errorf("the index finger's middle joint bends %.1f°, want 12°", ang)
	}
	// The bend turns the finger in: b points more to −X than a.
	if b[0]/math.Sqrt(b[0]*b[0]+b[1]*b[1]+b[2]*b[2]) >= a[0]/math.Sqrt(a[0]*a[0]+a[1]*a[1]+a[2]*a[2]) {
		t.Errorf("the finger bends outwards: %v then %v", a, b)
	}
}
