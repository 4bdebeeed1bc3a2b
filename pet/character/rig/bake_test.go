package rig_test

import (
	"math"
	"strings"
	"testing"

	"yui/pet/character/rig"
	"yui/pet/character/vrm"
	"yui/pet/character/vrm/vrmtest"
)

// A clip that swings the left leg forward over a second and back, and
// lowers the left arm from the clip's T-pose by 60°, with the hips
// dipping.
func legClip() *vrm.Clip {
	return &vrm.Clip{Name: "swing", Duration: 1,
		Rotations: map[string]vrm.RotationTrack{
			"leftUpperLeg": {Times: []float32{0, 0.5, 1}, Values: []vrm.Quat{quatX(0), quatX(-40), quatX(0)}},
			"leftUpperArm": {Times: []float32{0}, Values: []vrm.Quat{quatZ(-60)}},
		},
		HipsTranslation: vrm.TranslationTrack{Times: []float32{0, 0.5, 1},
			Values: []vrm.Vec3{{0, 2, 0}, {0, 1.8, 0}, {0, 2, 0}}},
	}
}

func TestBake(t *testing.T) {
	var hands [2][3]float64
	for k, o := range []fixtureOpts{{}, {twist: true, aPose: 35}} {
		fx := newFixture(o)
		r := mustRig(t, fx.model)
		m, err := r.Bake("swing", legClip(), 10)
		if err != nil {
			t.Fatal(err)
		}
		if m.Name != "swing" || m.FPS != 10 || !m.Loop || len(m.Poses) != 10 {
			t.Fatalf("%+v: %q at %v fps, loop %v, %d poses", o, m.Name, m.FPS, m.Loop, len(m.Poses))
		}
		// Halfway the leg is forward and the hips have dipped (clip hips
		// 2 → 1.8 on a 1.0 model: 0.1).
		mid := m.Poses[5]
		if math.Abs(float64(mid.Hips[1])+0.1) > 1e-4 {
			t.Errorf("%+v: hips at the dip %v, want -0.1", o, mid.Hips)
		}
		f0 := mustApply(t, r, m.Poses[0])
		f5 := mustApply(t, r, mid)
		z0 := centerOf(f0.Prims[0].Positions, fx.ranges["leftFoot"])[2]
		z5 := centerOf(f5.Prims[0].Positions, fx.ranges["leftFoot"])[2]
		if z0 > 1e-3 || z5 < 0.2 {
			t.Errorf("%+v: left foot z %.3f then %.3f, want 0 then forward", o, z0, z5)
		}
		// The clip's arm replaces the stance: 60° below level, in the
		// plane of the body (the clip has no forward lean).
		sh := centerOf(f0.Prims[0].Positions, fx.ranges["leftUpperArm"])
		el := centerOf(f0.Prims[0].Positions, fx.ranges["leftLowerArm"])
		d := [3]float64{el[0] - sh[0], el[1] - sh[1], el[2] - sh[2]}
		ang := math.Atan2(-d[1], d[0]) * 180 / math.Pi
		if math.Abs(ang-60) > 0.5 || math.Abs(d[2]) > 1e-3 {
			t.Errorf("%+v: left upper arm %.1f° below level, z %.3f; want 60°, 0", o, ang, d[2])
		}
		hands[k] = centerOf(f0.Prims[0].Positions, fx.ranges["leftHand"])
		// The right arm, not in the clip, keeps the relaxed stance.
		stance := mustApply(t, r, rig.Pose{})
		if a, b := centerOf(stance.Prims[0].Positions, fx.ranges["rightHand"]), centerOf(f0.Prims[0].Positions, fx.ranges["rightHand"]); dist(a, b) > 1e-3 {
			t.Errorf("%+v: right hand at %v, stance %v", o, b, a)
		}
	}
	// The forearm keeps its stance bend relative to the upper arm, whose
	// stance rotation differs a little between T and A: millimetres.
	if dist(hands[0], hands[1]) > 5e-3 {
		t.Errorf("the same clip puts the T-bound model's hand at %v, the A-bound's at %v", hands[0], hands[1])
	}
}

func TestBakeStepAndBadClips(t *testing.T) {
	r := mustRig(t, newFixture(fixtureOpts{}).model)
	c := &vrm.Clip{Duration: 1, Rotations: map[string]vrm.RotationTrack{
		"head": {Times: []float32{0, 0.5}, Values: []vrm.Quat{quatZ(0), quatZ(30)}, Step: true}}}
	m, err := r.Bake("nod", c, 4)
	if err != nil {
		t.Fatal(err)
	}
	if m.Loop || len(m.Poses) != 5 {
		t.Fatalf("loop %v, %d poses", m.Loop, len(m.Poses))
	}
	if m.Poses[1].Bones["head"] != quatZ(0) || m.Poses[2].Bones["head"] != m.Poses[4].Bones["head"] {
		t.Errorf("a step track should hold its keys: %v %v %v", m.Poses[1].Bones["head"], m.Poses[2].Bones["head"], m.Poses[4].Bones["head"])
	}
	nan := float32(math.NaN())
	bad := []*vrm.Clip{
		nil,
		{Duration: 1, Rotations: map[string]vrm.RotationTrack{"head": {Times: []float32{0, 1}, Values: []vrm.Quat{quatZ(0)}}}},
		{Duration: 1, Rotations: map[string]vrm.RotationTrack{"head": {Times: []float32{1, 0}, Values: []vrm.Quat{quatZ(0), quatZ(1)}}}},
		{Duration: 1, Rotations: map[string]vrm.RotationTrack{"head": {Times: []float32{0}, Values: []vrm.Quat{{nan, 0, 0, 1}}}}},
		{Duration: 1e6},
		{HipsTranslation: vrm.TranslationTrack{Times: []float32{0}, Values: []vrm.Vec3{{0, nan, 0}}}},
	}
	for i, c := range bad {
		if _, err := r.Bake("bad", c, 30); err == nil || !strings.HasPrefix(err.Error(), "rig: ") {
			t.Errorf("clip %d: error %v", i, err)
		}
	}
	if _, err := r.Bake("x", legClip(), 0); err == nil {
		t.Error("0 fps: no error")
	}
}

// fixtureDir is the shared real VRM files' folder (vrmtest.FixtureDir).
func fixtureDir(t testing.TB) string { return vrmtest.FixtureDir(t) }

// A clip that turns upperChest bends a model without one through its
// neck and arms.
func TestBakeFoldsMissingBones(t *testing.T) {
	fx := newFixture(fixtureOpts{})
	r := mustRig(t, fx.model) // the fixture has no upperChest
	c := &vrm.Clip{Duration: 0, Rotations: map[string]vrm.RotationTrack{
		"upperChest": {Times: []float32{0}, Values: []vrm.Quat{quatZ(30)}}}}
	m, err := r.Bake("lean", c, 10)
	if err != nil {
		t.Fatal(err)
	}
	f := mustApply(t, r, m.Poses[0])
	// The turn acts at the neck (0.1 under the head) and at the upper
	// arms, which keep their stance after it: the left hand rises from
	// the stance's (0.92), the right one does not.
	head := centerOf(f.Prims[0].Positions, fx.ranges["head"])
	hand := centerOf(f.Prims[0].Positions, fx.ranges["leftHand"])
	right := centerOf(f.Prims[0].Positions, fx.ranges["rightHand"])
	if math.Abs(head[0]+0.05) > 1e-3 || hand[1] < 1.0 || right[1] > 0.92 {
		t.Errorf("upperChest turned 30° about Z: head at x %.3f, hands at y %.3f and %.3f", head[0], hand[1], right[1])
	}
}
