package rig_test

import (
	"math"
	"testing"

	"yui/pet/character/rig"
	"yui/pet/character/vrm"
)

func motionsByName(t *testing.T, r *rig.Rig) map[string]rig.Motion {
	t.Helper()
	out := map[string]rig.Motion{}
	for _, m := range r.Motions() {
		if len(m.Poses) == 0 || m.FPS <= 0 {
			t.Errorf("motion %q: %d poses at %v fps", m.Name, len(m.Poses), m.FPS)
		}
		out[m.Name] = m
	}
	for _, n := range []string{"idle", "walk", "sit", "sit_edge", "fall", "land", "drag", "thinking"} {
		if _, ok := out[n]; !ok {
			t.Errorf("no %q motion", n)
		}
	}
	return out
}

func TestMotions(t *testing.T) {
	for _, o := range []fixtureOpts{{}, {twist: true, aPose: 30}} {
		fx := newFixture(o)
		r := mustRig(t, fx.model)
		ms := motionsByName(t, r)
		slo, shi, err := r.Bounds(rig.Pose{})
		if err != nil {
			t.Fatal(err)
		}
		standH := shi[1] - slo[1]

		checkWalk(t, r, fx, o, ms["walk"], slo)

		// Sitting makes her shorter; on the floor the lowest point stays on it.
		for _, n := range []string{"sit", "sit_edge"} {
			lo, hi, _ := r.Bounds(ms[n].Poses[0])
			if h := hi[1] - lo[1]; n == "sit" && h > 0.7*standH {
				t.Errorf("%+v: %s: height %.2f, standing %.2f", o, n, h, standH)
			}
			if n == "sit" && math.Abs(float64(lo[1]-slo[1])) > 0.01 {
				t.Errorf("%+v: sit: lowest point %.3f, the floor %.3f", o, lo[1], slo[1])
			}
			if n == "sit_edge" {
				// The seat on the edge line, the feet hanging below it.
				f := mustApply(t, r, ms[n].Poses[0])
				foot := centerOf(f.Prims[0].Positions, fx.ranges["leftFoot"])
				hips := centerOf(f.Prims[0].Positions, fx.ranges["hips"])
				if foot[1] > float64(slo[1])-0.2 || math.Abs(hips[1]-float64(slo[1])) > 0.2 {
					t.Errorf("%+v: sit_edge: feet at %.2f, hips at %.2f, edge at %.2f", o, foot[1], hips[1], slo[1])
				}
			}
		}

		// Falling: the hands above the head.
		f := mustApply(t, r, ms["fall"].Poses[0])
		head := centerOf(f.Prims[0].Positions, fx.ranges["head"])
		for _, s := range []string{"left", "right"} {
			if h := centerOf(f.Prims[0].Positions, fx.ranges[s+"Hand"]); h[1] < head[1] {
				t.Errorf("%+v: fall: %s hand at %.2f, under the head at %.2f", o, s, h[1], head[1])
			}
		}
		// Landing squashes and recovers; it does not loop.
		l := ms["land"]
		_, hi, _ := r.Bounds(l.Poses[1])
		if l.Loop || hi[1] > shi[1]-0.05 {
			t.Errorf("%+v: land: loop %v, squashed top %.2f of %.2f", o, l.Loop, hi[1], shi[1])
		}
		if _, hi, _ := r.Bounds(l.Poses[len(l.Poses)-1]); math.Abs(float64(hi[1]-shi[1])) > 0.01 {
			t.Errorf("%+v: land: ends at height %.2f, standing %.2f", o, hi[1], shi[1])
		}
		// Thinking: a hand near the chin, the eyes up.
		th := ms["thinking"].Poses[0]
		f = mustApply(t, r, th)
		hand := centerOf(f.Prims[0].Positions, fx.ranges["rightHand"])
		neck := centerOf(f.Prims[0].Positions, fx.ranges["neck"])
		if dist(hand, neck) > 0.25 || th.Pitch <= 0 {
			t.Errorf("%+v: thinking: hand %.2f from the neck, pitch %v", o, dist(hand, neck), th.Pitch)
		}
		// Idle: a blink on one frame, the chest moving.
		blinks := 0
		for _, p := range ms["idle"].Poses {
			if p.Expressions["blink"] > 0 {
				blinks++
			}
		}
		if blinks != 1 || !ms["idle"].Loop {
			t.Errorf("%+v: idle: %d blinks", o, blinks)
		}
	}
}

// checkWalk: 8 frames or more, looping, turned to the right, the feet
// moving, the feet kept on the ground.
func checkWalk(t *testing.T, r *rig.Rig, fx fixture, o fixtureOpts, w rig.Motion, slo vrm.Vec3) {
	t.Helper()
	if len(w.Poses) < 8 || !w.Loop || w.Faces != 1 || w.Poses[0].Turn < 60 || w.Poses[0].Turn > 90 {
		t.Errorf("%+v: walk: %d poses, loop %v, faces %d, turn %v", o, len(w.Poses), w.Loop, w.Faces, w.Poses[0].Turn)
	}
	var minZ, maxZ = math.Inf(1), math.Inf(-1)
	for _, p := range w.Poses {
		p.Turn = 0 // judge the legs from the front's axes
		f := mustApply(t, r, p)
		z := centerOf(f.Prims[0].Positions, fx.ranges["leftFoot"])[2]
		minZ, maxZ = math.Min(minZ, z), math.Max(maxZ, z)
		lo, _, _ := r.Bounds(p)
		if math.Abs(float64(lo[1]-slo[1])) > 0.03 {
			t.Errorf("%+v: walk: the feet left the ground: lowest %.3f, standing %.3f", o, lo[1], slo[1])
		}
	}
	if maxZ-minZ < 0.3 {
		t.Errorf("%+v: walk: the left foot moves only %.3f forward and back", o, maxZ-minZ)
	}
}
