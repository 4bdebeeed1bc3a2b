package vrm

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/qmuntal/gltf"
)

// humanParents is the VRM 1.0 humanoid's bone hierarchy (VRMC_vrm's
// humanoid chapter): each bone's parent bone.
var humanParents = map[string]string{
	"spine": "hips", "chest": "spine", "upperChest": "chest", "neck": "upperChest", "head": "neck",
	"leftEye": "head", "rightEye": "head", "jaw": "head",
	"leftUpperLeg": "hips", "leftLowerLeg": "leftUpperLeg", "leftFoot": "leftLowerLeg", "leftToes": "leftFoot",
	"rightUpperLeg": "hips", "rightLowerLeg": "rightUpperLeg", "rightFoot": "rightLowerLeg", "rightToes": "rightFoot",
	"leftShoulder": "upperChest", "leftUpperArm": "leftShoulder", "leftLowerArm": "leftUpperArm", "leftHand": "leftLowerArm",
	"rightShoulder": "upperChest", "rightUpperArm": "rightShoulder", "rightLowerArm": "rightUpperArm", "rightHand": "rightLowerArm",
	// The fingers: three bones each, from the hand out.
	"leftThumbMetacarpal": "leftHand", "leftThumbProximal": "leftThumbMetacarpal", "leftThumbDistal": "leftThumbProximal",
	"leftIndexProximal": "leftHand", "leftIndexIntermediate": "leftIndexProximal", "leftIndexDistal": "leftIndexIntermediate",
	"leftMiddleProximal": "leftHand", "leftMiddleIntermediate": "leftMiddleProximal", "leftMiddleDistal": "leftMiddleIntermediate",
	"leftRingProximal": "leftHand", "leftRingIntermediate": "leftRingProximal", "leftRingDistal": "leftRingIntermediate",
	"leftLittleProximal": "leftHand", "leftLittleIntermediate": "leftLittleProximal", "leftLittleDistal": "leftLittleIntermediate",
	"rightThumbMetacarpal": "rightHand", "rightThumbProximal": "rightThumbMetacarpal", "rightThumbDistal": "rightThumbProximal",
	"rightIndexProximal": "rightHand", "rightIndexIntermediate": "rightIndexProximal", "rightIndexDistal": "rightIndexIntermediate",
	"rightMiddleProximal": "rightHand", "rightMiddleIntermediate": "rightMiddleProximal", "rightMiddleDistal": "rightMiddleIntermediate",
	"rightRingProximal": "rightHand", "rightRingIntermediate": "rightRingProximal", "rightRingDistal": "rightRingIntermediate",
	"rightLittleProximal": "rightHand", "rightLittleIntermediate": "rightLittleProximal", "rightLittleDistal": "rightLittleIntermediate",
}

type vrma struct {
	SpecVersion string `json:"specVersion"`
	Humanoid    struct {
		HumanBones map[string]struct {
			Node *int `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
	// Expressions name the nodes whose translation's X is a weight.
	Expressions struct {
		Preset map[string]struct {
			Node *int `json:"node"`
		} `json:"preset"`
		Custom map[string]struct {
			Node *int `json:"node"`
		} `json:"custom"`
	} `json:"expressions"`
}

// rest is a node's rest transform in the clip's scene.
type rest struct {
	t Vec3
	r Quat
	s Vec3
}

func readClip(r io.Reader) (*Clip, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	c, err := parseGLB(data)
	if err != nil {
		return nil, err
	}
	var ext vrma
	ok, err := decodeExtension(c.doc.Extensions, extVRMA, &ext)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("vrm: not a VRM animation: the glTF has no VRMC_vrm_animation extension")
	}
	var m Model
	if err := c.readNodes(&m); err != nil {
		return nil, err
	}
	bones, err := clipBones(&ext, len(m.Nodes))
	if err != nil {
		return nil, err
	}
	cr := &clipReader{c: c, bones: bones, exprs: clipExpressions(&ext, len(m.Nodes)), world: worldRest(&m)}
	clip := &Clip{Rotations: map[string]RotationTrack{}, Expressions: map[string]WeightTrack{}}
	if len(c.doc.Animations) == 0 {
		return clip, nil
	}
	anim := c.doc.Animations[0]
	if anim == nil {
		return nil, errors.New("vrm: animation 0 is null")
	}
	clip.Name = anim.Name
	cr.restBones(&m)
	for ci, ch := range anim.Channels {
		if err := cr.readChannel(clip, anim, ci, ch); err != nil {
			return nil, err
		}
	}
	return clip, nil
}

// clipBones maps the clip's nodes to the humanoid bones they stand for,
// refusing a bone whose node is not in the scene.
func clipBones(ext *vrma, nodes int) (map[int]string, error) {
	bones := map[int]string{}
	for name, b := range ext.Humanoid.HumanBones {
		if b.Node == nil {
			continue
		}
		if *b.Node < 0 || *b.Node >= nodes {
			return nil, fmt.Errorf("vrm: humanoid bone %s: node %d out of range", name, *b.Node)
		}
		bones[*b.Node] = name
	}
	return bones, nil
}

// clipExpressions maps the clip's nodes to the expressions (preset or
// custom) they carry; an expression whose node is not in the scene is
// skipped, as nothing could animate it.
func clipExpressions(ext *vrma, nodes int) map[int]string {
	exprs := map[int]string{}
	for _, set := range []map[string]struct {
		Node *int `json:"node"`
	}{ext.Expressions.Preset, ext.Expressions.Custom} {
		for name, e := range set {
			if e.Node != nil && *e.Node >= 0 && *e.Node < nodes {
				exprs[*e.Node] = name
			}
		}
	}
	return exprs
}

// clipReader reads one animation's channels into a Clip: which node is
// which bone or expression, and the scene's rest transforms that turn a
// channel's keys into the normalised skeleton's meaning.
type clipReader struct {
	c          *container
	bones      map[int]string // node → humanoid bone
	exprs      map[int]string // node → expression
	world      []rest         // each node's rest world transform
	boneWorld  map[string]rest
	hipsParent rest // the hips' parent node's rest, identity if none
}

// restBones fills each bone's rest world transform and the hips' parent's.
func (cr *clipReader) restBones(m *Model) {
	cr.boneWorld = map[string]rest{}
	cr.hipsParent = rest{r: Quat{0, 0, 0, 1}, s: Vec3{1, 1, 1}}
	for node, name := range cr.bones {
		cr.boneWorld[name] = cr.world[node]
		if p := m.Nodes[node].Parent; name == "hips" && p >= 0 {
			cr.hipsParent = cr.world[p]
		}
	}
}

// readChannel reads one channel into clip: a bone's rotation, the hips'
// translation or an expression's weight. Channels of other nodes (the
// lookAt target) and other paths are not read.
func (cr *clipReader) readChannel(clip *Clip, anim *gltf.Animation, ci int, ch *gltf.AnimationChannel) error {
	if ch == nil || ch.Target.Node == nil {
		return nil
	}
	node := *ch.Target.Node
	name, isBone := cr.bones[node]
	expr, isExpr := cr.exprs[node]
	if !isBone && !isExpr {
		return nil // the lookAt target is not read
	}
	if ch.Sampler < 0 || ch.Sampler >= len(anim.Samplers) || anim.Samplers[ch.Sampler] == nil {
		return fmt.Errorf("vrm: channel %d: sampler %d out of range", ci, ch.Sampler)
	}
	s := anim.Samplers[ch.Sampler]
	var err error
	switch {
	case !isBone:
		if ch.Target.Path != gltf.TRSTranslation {
			return nil
		}
		err = cr.readExpression(clip, expr, s)
	case ch.Target.Path == gltf.TRSRotation:
		err = cr.readRotation(clip, name, node, s)
	case ch.Target.Path == gltf.TRSTranslation:
		if name != "hips" {
			return nil // VRMC_vrm_animation moves only the hips
		}
		err = cr.readHipsTranslation(clip, s)
	}
	if err != nil {
		return fmt.Errorf("vrm: channel %d: %w", ci, trimPrefix(err))
	}
	return nil
}

// readExpression reads an expression's weight track: in
// VRMC_vrm_animation, an expression's weight is its node's X.
func (cr *clipReader) readExpression(clip *Clip, expr string, s *gltf.AnimationSampler) error {
	times, vals, err := cr.c.keys(s, 3)
	if err != nil {
		return err
	}
	tr := WeightTrack{Times: times, Values: make([]float32, len(times)), Step: s.Interpolation == gltf.InterpolationStep}
	for i := range times {
		tr.Values[i] = clamp01(vals[3*i])
	}
	clip.Expressions[expr] = tr
	clip.Duration = max(clip.Duration, last(times))
	return nil
}

// readRotation reads a bone's rotation track.
func (cr *clipReader) readRotation(clip *Clip, name string, node int, s *gltf.AnimationSampler) error {
	times, vals, err := cr.c.keys(s, 4)
	if err != nil {
		return err
	}
	// To the normalised skeleton's meaning, as three-vrm-animation
	// reads clips (VRMAnimationLoaderPlugin): the rotation between
	// the bone's rest frame and its parent bone's, q' = P·q·B⁻¹
	// with P and B the parent's and the bone's rest world rotations.
	b := cr.world[node].r
	p := parentRest(name, cr.boneWorld, cr.hipsParent)
	tr := RotationTrack{Times: times, Step: s.Interpolation == gltf.InterpolationStep}
	tr.Values = make([]Quat, len(times))
	for i := range times {
		q := normQuat(Quat{vals[4*i], vals[4*i+1], vals[4*i+2], vals[4*i+3]})
		tr.Values[i] = normQuat(quatMul(quatMul(p.r, q), quatConj(b)))
	}
	clip.Rotations[name] = tr
	clip.Duration = max(clip.Duration, last(times))
	return nil
}

// readHipsTranslation reads the hips' translation track, into the hips'
// parent's rest frame.
func (cr *clipReader) readHipsTranslation(clip *Clip, s *gltf.AnimationSampler) error {
	times, vals, err := cr.c.keys(s, 3)
	if err != nil {
		return err
	}
	p := parentRest("hips", cr.boneWorld, cr.hipsParent)
	tr := TranslationTrack{Times: times, Step: s.Interpolation == gltf.InterpolationStep}
	tr.Values = make([]Vec3, len(times))
	for i := range times {
		v := Vec3{vals[3*i] * p.s[0], vals[3*i+1] * p.s[1], vals[3*i+2] * p.s[2]}
		v = rotate(p.r, v)
		tr.Values[i] = Vec3{v[0] + p.t[0], v[1] + p.t[1], v[2] + p.t[2]}
	}
	clip.HipsTranslation = tr
	clip.Duration = max(clip.Duration, last(times))
	return nil
}

// parentRest is the rest world transform of the bone's nearest humanoid
// ancestor the clip has, or else of the hips' parent node.
func parentRest(name string, boneWorld map[string]rest, hipsParent rest) rest {
	for p := humanParents[name]; p != ""; p = humanParents[p] {
		if r, ok := boneWorld[p]; ok {
			return r
		}
	}
	return hipsParent
}

// keys reads a sampler's times and values (comps each), cubic splines
// as their key values.
func (c *container) keys(s *gltf.AnimationSampler, comps int) ([]float32, []float32, error) {
	times, err := c.floats(s.Input, 1, false)
	if err != nil {
		return nil, nil, err
	}
	prev := float32(math.Inf(-1))
	for _, t := range times {
		if t != t || math.IsInf(float64(t), 0) || t < prev {
			return nil, nil, errors.New("vrm: key times must be finite and ascending")
		}
		prev = t
	}
	vals, err := c.floats(s.Output, comps, true)
	if err != nil {
		return nil, nil, err
	}
	if s.Interpolation == gltf.InterpolationCubicSpline {
		// In-tangent, value, out-tangent per key: the values alone are
		// read, as a linear track.
		if len(vals) != 3*comps*len(times) {
			return nil, nil, fmt.Errorf("vrm: %d cubic spline values for %d keys", len(vals)/comps, len(times))
		}
		out := make([]float32, comps*len(times))
		for i := range times {
			copy(out[comps*i:comps*i+comps], vals[comps*(3*i+1):])
		}
		return times, out, nil
	}
	if len(vals) != comps*len(times) {
		return nil, nil, fmt.Errorf("vrm: %d values for %d keys", len(vals)/comps, len(times))
	}
	return times, vals, nil
}

func last(t []float32) float32 {
	if len(t) == 0 {
		return 0
	}
	return t[len(t)-1]
}

// worldRest composes every node's rest transform with its ancestors'
// (scale per axis, as glTF's TRS does for unrotated or uniform scales).
func worldRest(m *Model) []rest {
	w := make([]rest, len(m.Nodes))
	done := make([]bool, len(m.Nodes))
	var visit func(i int) rest
	visit = func(i int) rest {
		if done[i] {
			return w[i]
		}
		n := &m.Nodes[i]
		local := rest{t: n.Translation, r: n.Rotation, s: n.Scale}
		if n.Parent >= 0 {
			p := visit(n.Parent)
			ts := rotate(p.r, Vec3{local.t[0] * p.s[0], local.t[1] * p.s[1], local.t[2] * p.s[2]})
			local = rest{
				t: Vec3{p.t[0] + ts[0], p.t[1] + ts[1], p.t[2] + ts[2]},
				r: normQuat(quatMul(p.r, local.r)),
				s: Vec3{p.s[0] * local.s[0], p.s[1] * local.s[1], p.s[2] * local.s[2]},
			}
		}
		w[i], done[i] = local, true
		return local
	}
	for i := range m.Nodes {
		visit(i)
	}
	return w
}

func quatConj(q Quat) Quat { return Quat{-q[0], -q[1], -q[2], q[3]} }

// rotate turns v by the unit quaternion q.
func rotate(q Quat, v Vec3) Vec3 {
	r := quatMul(quatMul(q, Quat{v[0], v[1], v[2], 0}), quatConj(q))
	return Vec3{r[0], r[1], r[2]}
}
