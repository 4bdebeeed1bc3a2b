package rig

import (
	"math"
	"strings"

	"yui/pet/character/vrm"
)

// Expression groups that VRM 1.0's override rules act on
// (overrideBlink, overrideLookAt, overrideMouth).
var (
	blinkGroup  = []string{"blink", "blinkLeft", "blinkRight"}
	lookAtGroup = []string{"lookUp", "lookDown", "lookLeft", "lookRight"}
	mouthGroup  = []string{"aa", "ih", "ou", "ee", "oh"}
)

func inGroup(name string, g []string) bool {
	for _, n := range g {
		if n == name {
			return true
		}
	}
	return false
}

// expressionWeights are the weights of the model's expressions (by index)
// for pose p: the pose's own (clamped, binary ones snapped at 0.5), the
// gaze's when lookAt works by expression, then VRM 1.0's overrides: an
// active expression that blocks blinking (looking, the mouth) sets those
// to 0, one that blends scales them by 1 − its weight.
func (r *Rig) expressionWeights(p Pose) []float64 {
	es := r.m.Expressions
	w := make([]float64, len(es))
	gaze := r.gazeExpressions(p)
	for i, e := range es {
		v := math.Max(0, math.Min(1, float64(p.Expressions[e.Name])))
		v = math.Max(v, gaze[e.Name])
		if e.IsBinary {
			if v > 0.5 {
				v = 1
			} else {
				v = 0
			}
		}
		w[i] = v
	}
	mul := [3]float64{1, 1, 1}
	groups := [3][]string{blinkGroup, lookAtGroup, mouthGroup}
	for i, e := range es {
		if w[i] == 0 {
			continue
		}
		for g, rule := range [3]string{e.OverrideBlink, e.OverrideLookAt, e.OverrideMouth} {
			if inGroup(e.Name, groups[g]) {
				continue
			}
			switch rule {
			case "block":
				mul[g] = 0
			case "blend":
				mul[g] *= 1 - w[i]
			}
		}
	}
	for i, e := range es {
		for g := range groups {
			if inGroup(e.Name, groups[g]) {
				w[i] *= mul[g]
			}
		}
	}
	return w
}

// morphWeights are each mesh's morph weights: its defaults plus the
// expressions' morph binds, clamped to 0..1. A bind to a mesh or target
// the model does not have is dropped.
func (r *Rig) morphWeights(ew []float64) [][]float64 {
	out := make([][]float64, len(r.m.Meshes))
	for i, me := range r.m.Meshes {
		n := 0
		for _, pr := range me.Primitives {
			n = max(n, len(pr.Targets))
		}
		out[i] = make([]float64, n)
		for t := 0; t < n && t < len(me.DefaultWeights); t++ {
			out[i][t] = float64(me.DefaultWeights[t])
		}
	}
	for e, ex := range r.m.Expressions {
		if ew[e] == 0 {
			continue
		}
		for _, b := range ex.Morphs {
			if b.Mesh < 0 || b.Mesh >= len(out) || b.Index < 0 || b.Index >= len(out[b.Mesh]) {
				continue
			}
			out[b.Mesh][b.Index] += ew[e] * float64(b.Weight)
		}
	}
	for _, ws := range out {
		for t, v := range ws {
			if !finite(v) {
				v = 0
			}
			ws[t] = math.Max(0, math.Min(1, v))
		}
	}
	return out
}

// materials are copies of the model's materials with the expressions'
// colour binds (each moves its colour towards the target by the
// expression's weight; the moves add up) and texture-transform binds
// (scale and offset moved the same way, on all of the material's
// textures) applied.
func (r *Rig) materials(ew []float64) []vrm.Material {
	ms := make([]vrm.Material, len(r.m.Materials))
	copy(ms, r.m.Materials)
	for i := range ms {
		if ms[i].Toon != nil {
			t := *ms[i].Toon
			ms[i].Toon = &t
		}
	}
	orig := r.m.Materials
	for e, ex := range r.m.Expressions {
		w := float32(ew[e])
		if w == 0 {
			continue
		}
		for _, b := range ex.Colors {
			if b.Material < 0 || b.Material >= len(ms) {
				continue
			}
			colorBind(&ms[b.Material], orig[b.Material], b, w)
		}
		for _, b := range ex.TextureTransforms {
			if b.Material < 0 || b.Material >= len(ms) {
				continue
			}
			now, was := textureRefs(&ms[b.Material]), textureRefs(&orig[b.Material])
			for k := range now {
				moveTransform(now[k], *was[k], b, w)
			}
		}
	}
	return ms
}

func colorBind(m *vrm.Material, orig vrm.Material, b vrm.ColorBind, w float32) {
	move3 := func(dst *vrm.Vec3, from vrm.Vec3) {
		for k := 0; k < 3; k++ {
			dst[k] += (b.Target[k] - from[k]) * w
		}
	}
	switch b.Type {
	case "color":
		for k := 0; k < 4; k++ {
			m.BaseColor[k] += (b.Target[k] - orig.BaseColor[k]) * w
		}
	case "emissionColor":
		move3(&m.Emissive, orig.Emissive)
	case "shadeColor", "rimColor", "outlineColor":
		if m.Toon == nil || orig.Toon == nil {
			return
		}
		switch b.Type {
		case "shadeColor":
			move3(&m.Toon.ShadeColor, orig.Toon.ShadeColor)
		case "rimColor":
			move3(&m.Toon.RimColor, orig.Toon.RimColor)
		default:
			move3(&m.Toon.OutlineColor, orig.Toon.OutlineColor)
		}
	}
	// matcapColor: the renderer draws no matcap (pet/character/raster).
}

// textureRefs are a material's texture references (the Toon ones only
// when it has a Toon), in a fixed order.
func textureRefs(m *vrm.Material) []*vrm.TextureRef {
	rs := []*vrm.TextureRef{&m.BaseTexture, &m.EmissiveTexture}
	if m.Toon != nil {
		rs = append(rs, &m.Toon.ShadeTexture, &m.Toon.RimTexture, &m.Toon.OutlineWidthTexture)
	}
	return rs
}

// moveTransform moves a texture's transform from the material's own
// (was) towards the bind's by w. A scale never set (0,0) counts as 1,1.
func moveTransform(t *vrm.TextureRef, was vrm.TextureRef, b vrm.TextureTransformBind, w float32) {
	if t.Index < 0 {
		return
	}
	if was.Scale == (vrm.Vec2{}) {
		was.Scale = vrm.Vec2{1, 1}
	}
	if t.Scale == (vrm.Vec2{}) {
		t.Scale = vrm.Vec2{1, 1}
	}
	for k := 0; k < 2; k++ {
		t.Scale[k] += (b.Scale[k] - was.Scale[k]) * w
		t.Offset[k] += (b.Offset[k] - was.Offset[k]) * w
	}
}

// lookAt range-map defaults (VRM 1.0's schema): 90° in; 10° out for
// bones, 1.0 for expressions.
const (
	defaultRangeIn       = 90
	defaultRangeOutBone  = 10
	defaultRangeOutWeigh = 1
)

func rangeMap(rm vrm.RangeMap, deg float64, defOut float64) float64 {
	in, out := float64(rm.InputMaxValue), float64(rm.OutputScale)
	if in <= 0 {
		in = defaultRangeIn
	}
	if out == 0 {
		out = defOut
	}
	return math.Min(math.Abs(deg)/in, 1) * out
}

func (r *Rig) gazeByExpression() bool {
	return strings.EqualFold(r.m.LookAt.Type, "expression")
}

// gazeExpressions are the lookLeft/Right/Up/Down weights for the pose's
// gaze when the model looks by expression (yaw > 0 is the model's left).
func (r *Rig) gazeExpressions(p Pose) map[string]float64 {
	if !r.gazeByExpression() || (p.Yaw == 0 && p.Pitch == 0) {
		return nil
	}
	la := r.m.LookAt
	yaw, pitch := float64(p.Yaw), float64(p.Pitch)
	g := map[string]float64{}
	if yaw > 0 {
		g["lookLeft"] = math.Min(1, rangeMap(la.HorizontalOuter, yaw, defaultRangeOutWeigh))
	} else if yaw < 0 {
		g["lookRight"] = math.Min(1, rangeMap(la.HorizontalOuter, yaw, defaultRangeOutWeigh))
	}
	if pitch > 0 {
		g["lookUp"] = math.Min(1, rangeMap(la.VerticalUp, pitch, defaultRangeOutWeigh))
	} else if pitch < 0 {
		g["lookDown"] = math.Min(1, rangeMap(la.VerticalDown, pitch, defaultRangeOutWeigh))
	}
	return g
}

// gazeBones turns the eye bones for the pose's gaze when the model looks
// by bone: each eye's yaw through the outer range map when it turns away
// from the nose (the left eye looking left), the inner one otherwise, and
// the pitch through the up or down map; the turn acts in the head's
// normalised frame (+Y yaw to the model's left, pitch up about −X).
func (r *Rig) gazeBones(p Pose, rot []quat) {
	if r.gazeByExpression() || (p.Yaw == 0 && p.Pitch == 0) {
		return
	}
	la := r.m.LookAt
	yaw, pitch := float64(p.Yaw), float64(p.Pitch)
	var pOut float64
	if pitch > 0 {
		pOut = rangeMap(la.VerticalUp, pitch, defaultRangeOutBone)
	} else {
		pOut = -rangeMap(la.VerticalDown, pitch, defaultRangeOutBone)
	}
	for _, side := range []string{"left", "right"} {
		n := r.boneNode(side + "Eye")
		if n < 0 {
			continue
		}
		outward := (yaw > 0) == (side == "left")
		m := la.HorizontalInner
		if outward {
			m = la.HorizontalOuter
		}
		yOut := math.Copysign(rangeMap(m, yaw, defaultRangeOutBone), yaw)
		q := axisAngle(vec3{0, 1, 0}, yOut).mul(axisAngle(vec3{1, 0, 0}, -pOut))
		rot[n] = q.mul(rot[n])
	}
}
