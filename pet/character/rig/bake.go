package rig

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"yui/pet/character/vrm"
)

// Baking a VRM Animation clip (VRMC_vrm_animation). A clip's rotations
// are each humanoid bone's rotation relative to its parent in a
// skeleton normalised to a T-pose: world-aligned axes, the arms level.
// Here they become Pose.Bones so that:
//   - a bone the clip animates takes the clip's rotation relative to its
//     parent, REPLACING the relaxed stance for that bone (an animated arm
//     is where the clip puts it, not lowered again);
//   - a bone the clip leaves alone keeps the stance relative to its
//     parent (a clip that moves only the legs keeps the arms relaxed);
//   - a model bound in an A-pose is first brought to the clip's T-pose
//     (its upper arms raised level), so the clip means the same on it.
//
// The clip's hips translation is taken relative to its first sample (the
// Clip carries no rest pose) and scaled from the clip's hips height to
// the model's, so a clip made on a taller skeleton moves her by as much
// for her size.

// Limits on what a clip may ask of Bake.
const (
	MaxBakeFrames = 2000 // frames in one baked motion
	maxBakeFPS    = 120
	// loopToleranceDeg: a clip whose last pose is this close to its first
	// on every bone loops.
	loopToleranceDeg = 2
)

func (r *Rig) bake(name string, c *vrm.Clip, fps float64) (Motion, error) {
	if c == nil {
		return Motion{}, errors.New("rig: bake: no clip")
	}
	if !(fps > 0 && fps <= maxBakeFPS) {
		return Motion{}, fmt.Errorf("rig: bake %q: %v frames a second is not in 0..%d", name, fps, maxBakeFPS)
	}
	end, err := checkClip(c)
	if err != nil {
		return Motion{}, fmt.Errorf("rig: bake %q: %w", name, err)
	}
	dur := float64(c.Duration)
	if !(dur > 0) || !finite(dur) {
		dur = end
	}
	n := int(math.Round(dur*fps)) + 1
	if dur == 0 {
		n = 1
	}
	if n > MaxBakeFrames {
		return Motion{}, fmt.Errorf("rig: bake %q: %.1f s at %v fps is %d frames, more than %d", name, dur, fps, n, MaxBakeFrames)
	}
	loop := n > 2 && r.clipLoops(c, dur)
	if loop {
		n-- // the last frame is the first again
	}
	m := Motion{Name: name, FPS: fps, Loop: loop}
	hips0, hipsScale := r.hipsRest(c)
	for i := 0; i < n; i++ {
		t := math.Min(float64(i)/fps, dur)
		p := Pose{Bones: r.clipBones(c, t)}
		if len(c.HipsTranslation.Times) > 0 {
			v := sampleVec(c.HipsTranslation, t)
			p.Hips = v.sub(hips0).scale(hipsScale).f32()
		}
		m.Poses = append(m.Poses, p)
	}
	return m, nil
}

// checkClip refuses tracks whose times and values do not pair up, go
// back in time or are not numbers; it returns the last key's time.
func checkClip(c *vrm.Clip) (float64, error) {
	var end float64
	times := func(what string, ts []float32, nv int) error {
		if len(ts) != nv {
			return fmt.Errorf("%s: %d times for %d values", what, len(ts), nv)
		}
		for i, t := range ts {
			if !finite(float64(t)) || t < 0 || (i > 0 && t < ts[i-1]) {
				return fmt.Errorf("%s: key %d's time %v is not after the one before", what, i, t)
			}
			end = math.Max(end, float64(t))
		}
		return nil
	}
	for _, b := range sortedNames(c.Rotations) {
		tr := c.Rotations[b]
		if err := times("bone "+b, tr.Times, len(tr.Values)); err != nil {
			return 0, err
		}
		for i, q := range tr.Values {
			if !finite(float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])) {
				return 0, fmt.Errorf("bone %s: key %d's rotation is not finite", b, i)
			}
		}
	}
	ht := c.HipsTranslation
	if err := times("hips translation", ht.Times, len(ht.Values)); err != nil {
		return 0, err
	}
	for i, v := range ht.Values {
		if !finite(float64(v[0]), float64(v[1]), float64(v[2])) {
			return 0, fmt.Errorf("hips translation: key %d is not finite", i)
		}
	}
	return end, nil
}

// key finds the keys around t: i and i+1 with the fraction between them.
func key(ts []float32, t float64, step bool) (int, int, float64) {
	n := len(ts)
	if n == 1 || t <= float64(ts[0]) {
		return 0, 0, 0
	}
	if t >= float64(ts[n-1]) {
		return n - 1, n - 1, 0
	}
	j := sort.Search(n, func(k int) bool { return float64(ts[k]) > t }) // ts[j-1] <= t < ts[j]
	i := j - 1
	span := float64(ts[j] - ts[i])
	if step || span <= 0 {
		return i, i, 0
	}
	return i, j, (t - float64(ts[i])) / span
}

func sampleRot(tr vrm.RotationTrack, t float64) quat {
	if len(tr.Times) == 0 {
		return identQ
	}
	i, j, f := key(tr.Times, t, tr.Step)
	return slerp(q64(tr.Values[i]).norm(), q64(tr.Values[j]).norm(), f).norm()
}

func sampleVec(tr vrm.TranslationTrack, t float64) vec3 {
	i, j, f := key(tr.Times, t, tr.Step)
	a, b := v3(tr.Values[i]), v3(tr.Values[j])
	return a.add(b.sub(a).scale(f))
}

// hipsRest is the clip's first hips position and the scale from the
// clip's hips height to the model's.
func (r *Rig) hipsRest(c *vrm.Clip) (vec3, float64) {
	ht := c.HipsTranslation
	if len(ht.Values) == 0 {
		return vec3{}, 1
	}
	first := v3(ht.Values[0])
	scale := 1.0
	if h := r.boneNode("hips"); h >= 0 && first[1] > 1e-3 {
		if y := r.restWorld[h].origin()[1]; y > 1e-3 {
			scale = y / first[1]
		}
	}
	return first, scale
}

// clipLoops says whether the clip ends where it starts.
func (r *Rig) clipLoops(c *vrm.Clip, dur float64) bool {
	for _, tr := range c.Rotations {
		a, b := sampleRot(tr, 0), sampleRot(tr, dur)
		d := math.Abs(a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3])
		if 2*math.Acos(math.Min(1, d))*180/math.Pi > loopToleranceDeg {
			return false
		}
	}
	return true
}

// clipBones turns the clip's rotations at t into Pose.Bones (see the
// top of this file). G is each node's normalised world rotation (relative
// to its bind-pose world rotation), X the product of the T-pose
// corrections from the root down, acc the product of Pose.Bones.
func (r *Rig) clipBones(c *vrm.Clip, t float64) map[string]vrm.Quat {
	n := len(r.m.Nodes)
	g, x, acc := make([]quat, n), make([]quat, n), make([]quat, n)
	out := map[string]vrm.Quat{}
	for _, i := range r.order {
		gp, xp, ap := identQ, identQ, identQ
		if p := r.m.Nodes[i].Parent; p >= 0 {
			gp, xp, ap = g[p], x[p], acc[p]
		}
		x[i] = xp.mul(r.tFix[i])
		g[i], acc[i] = gp, ap
		b := r.bone[i]
		if b == "" {
			continue
		}
		q, own, fold := r.clipRotation(c, b, t)
		switch {
		case own:
			g[i] = gp.mul(xp.conj()).mul(q).mul(x[i]).norm()
		case fold:
			// Only a missing bone above it turns: that turn, then the
			// bone's own stance.
			g[i] = gp.mul(xp.conj()).mul(q).mul(xp).mul(r.stance[i]).norm()
		default:
			g[i] = gp.mul(r.stance[i]).norm()
		}
		acc[i] = g[i].mul(r.stanceAcc[i].conj()).norm()
		out[b] = ap.conj().mul(acc[i]).norm().f32()
	}
	return out
}

// humanParent is VRM 1.0's humanoid hierarchy for the bones a model may
// leave out (fingers aside): a clip that turns upperChest still bends a
// model without one, through the bones below it.
var humanParent = map[string]string{
	"spine": "hips", "chest": "spine", "upperChest": "chest", "neck": "upperChest", "head": "neck",
	"leftEye": "head", "rightEye": "head", "jaw": "head",
	"leftShoulder": "upperChest", "rightShoulder": "upperChest",
	"leftUpperArm": "leftShoulder", "rightUpperArm": "rightShoulder",
	"leftUpperLeg": "hips", "rightUpperLeg": "hips",
	"leftToes": "leftFoot", "rightToes": "rightFoot",
}

// clipRotation is bone b's rotation in the clip at t, with the
// rotations of the bones above it that the model lacks folded in; own
// says the clip turns b itself, fold that it turns a missing bone above.
func (r *Rig) clipRotation(c *vrm.Clip, b string, t float64) (q quat, own, fold bool) {
	q = identQ
	if tr, ok := c.Rotations[b]; ok && len(tr.Times) > 0 {
		q, own = sampleRot(tr, t), true
	}
	for p := humanParent[b]; p != ""; p = humanParent[p] {
		if _, has := r.m.Humanoid[p]; has {
			break
		}
		if tr, ok := c.Rotations[p]; ok && len(tr.Times) > 0 {
			q, fold = sampleRot(tr, t).mul(q), true
		}
	}
	return q.norm(), own, fold
}
