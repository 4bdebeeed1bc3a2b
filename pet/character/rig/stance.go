package rig

import (
	"math"

	"yui/pet/character/vrm"
)

// The relaxed stance, in world terms so that it does not depend on the
// bones' local axes: each upper arm turns from its bind-pose direction
// (towards the lower arm) to hang ~72° below the horizontal, a little
// forward; each lower arm bends slightly forward; hands follow the lower
// arms, their fingers curled a little; legs, spine and head stay as bound
// (VRM models are bound standing straight).
const (
	armDropDeg    = 72   // upper arm below the horizontal
	armForward    = 0.12 // forward (z) component of the upper arm's direction
	elbowBendDeg  = 15   // lower arm bent forward from the upper arm's line
	tPoseLimitDeg = 20   // an upper arm lower than this below level: an A-pose
)

func (s *state) computeStance(m *vrm.Model) {
	pos := func(name string) (vec3, int, bool) {
		b, ok := m.Humanoid[name]
		if !ok {
			return vec3{}, -1, false
		}
		return s.restWorld[b].origin(), b, true
	}
	for _, side := range []string{"left", "right"} {
		ua, uaN, ok1 := pos(side + "UpperArm")
		la, laN, ok2 := pos(side + "LowerArm")
		if !ok1 || !ok2 {
			continue
		}
		d := la.sub(ua)
		if d.length() == 0 || math.Abs(d[0]) < 1e-6 {
			continue
		}
		drop := math.Asin(math.Max(-1, math.Min(1, -d.norm()[1]))) * 180 / math.Pi
		if drop > tPoseLimitDeg {
			s.bindPose = "A"
		} else if s.bindPose == "" {
			s.bindPose = "T"
		}
		out := math.Copysign(1, d[0])
		if math.Abs(drop) > 1 {
			s.tFix[uaN] = fromTo(d, vec3{out, 0, 0})
		}
		rad := armDropDeg * math.Pi / 180
		upper := vec3{out * math.Cos(rad), -math.Sin(rad), armForward}.norm()
		s.stance[uaN] = fromTo(d, upper)
		if hd, _, ok := pos(side + "Hand"); ok {
			d2 := hd.sub(la)
			// Bend about the axis across the arm so the forearm comes forward.
			across := upper.cross(vec3{0, 0, 1})
			lower := axisAngle(across, -elbowBendDeg).rotate(upper)
			if lower[2] < upper[2] {
				lower = axisAngle(across, elbowBendDeg).rotate(upper)
			}
			// The lower arm's normalised rotation acts after the upper arm's.
			s.stance[laN] = fromTo(s.stance[uaN].rotate(d2), lower)
			s.stance[laN] = s.stance[uaN].conj().mul(s.stance[laN]).mul(s.stance[uaN])
		}
	}
	s.accumulateStance(m)
	s.curlFingers(m)
	s.accumulateStance(m)
}

func (s *state) accumulateStance(m *vrm.Model) {
	for _, i := range s.order {
		p := m.Nodes[i].Parent
		acc := identQ
		if p >= 0 {
			acc = s.stanceAcc[p]
		}
		s.stanceAcc[i] = acc.mul(s.stance[i]).norm()
	}
}

// fingerCurlDeg is how far each joint of a relaxed finger bends towards
// the palm.
const fingerCurlDeg = 12

var fingerJoints = []string{
	"IndexProximal", "IndexIntermediate", "IndexDistal",
	"MiddleProximal", "MiddleIntermediate", "MiddleDistal",
	"RingProximal", "RingIntermediate", "RingDistal",
	"LittleProximal", "LittleIntermediate", "LittleDistal",
}

// curlFingers bends the fingers (not the thumbs) a little towards the
// palm, as a hand at rest. VRM binds the hands palm down in its T-pose,
// so the palm's normal is −Y there (raised to level first for a model
// bound in an A-pose); the bend is about the axis across the fingers
// and the palm's normal, in world terms, after the arm's stance.
func (s *state) curlFingers(m *vrm.Model) {
	for _, side := range []string{"left", "right"} {
		hand, ok1 := m.Humanoid[side+"Hand"]
		la, ok2 := m.Humanoid[side+"LowerArm"]
		ua, ok3 := m.Humanoid[side+"UpperArm"]
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		along := s.restWorld[hand].origin().sub(s.restWorld[la].origin())
		if along.length() == 0 {
			continue
		}
		palm := s.tFix[ua].conj().rotate(vec3{0, -1, 0})
		dir := s.stanceAcc[hand].rotate(along).norm()
		nrm := s.stanceAcc[hand].rotate(palm).norm()
		axis := dir.cross(nrm)
		if axis.length() < 1e-6 {
			continue
		}
		bend := axisAngle(axis, fingerCurlDeg)
		for _, f := range fingerJoints {
			b, ok := m.Humanoid[side+f]
			if !ok {
				continue
			}
			p := m.Nodes[b].Parent
			if p < 0 {
				continue
			}
			// In the parent's stance frame, so that it acts in world terms.
			s.stance[b] = s.stanceAcc[p].conj().mul(bend).mul(s.stanceAcc[p]).norm()
			s.stanceAcc[b] = s.stanceAcc[p].mul(s.stance[b]).norm()
		}
	}
}
