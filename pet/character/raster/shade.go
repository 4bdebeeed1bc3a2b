package raster

import "math"

// pmat is a material made ready for shading: its samplers built, its
// defaults filled in.
type pmat struct {
	base       Vec4
	baseTex    *sampler
	emissive   Vec3
	emTex      *sampler
	uvScale    Vec2
	uvOffset   Vec2
	alpha      AlphaMode
	cutoff     float32
	double     bool
	unlit      bool
	order      int
	toon       *Toon
	shadeTex   *sampler
	rimTex     *sampler
	outlineTex *sampler
	// needView: the shading uses the direction to the eye (the rim).
	needView bool
}

func prepareMaterial(m *Material, ct *colorTables) *pmat {
	if m == nil {
		// A mesh without a material is drawn opaque white, lit.
		m = &Material{BaseColor: Vec4{1, 1, 1, 1}, AlphaCutoff: 0.5}
	}
	p := &pmat{
		base: m.BaseColor, baseTex: newSampler(m.BaseTexture, &ct.toLinear),
		emissive: m.Emissive, emTex: newSampler(m.EmissiveTexture, &ct.toLinear),
		uvScale: m.UV.Scale, uvOffset: m.UV.Offset,
		alpha: m.AlphaMode, cutoff: m.AlphaCutoff, double: m.DoubleSided,
		unlit: m.Unlit, order: m.Order, toon: m.Toon,
	}
	if p.uvScale == (Vec2{}) {
		p.uvScale = Vec2{1, 1}
	}
	for i := range p.base {
		p.base[i] = clean(p.base[i])
	}
	if m.Toon != nil {
		p.needView = m.Toon.RimColor != (Vec3{})
		p.shadeTex = newSampler(m.Toon.ShadeTexture, &ct.toLinear)
		p.rimTex = newSampler(m.Toon.RimTexture, &ct.toLinear)
		// The width texture is data, not colour: read as is.
		p.outlineTex = newSampler(m.Toon.OutlineWidthTexture, &ct.byteLin)
	}
	return p
}

// clean turns a NaN or infinite factor into 0 so that a bad material
// draws black rather than poisoning the picture.
func clean(f float32) float32 {
	if f != f || f > math.MaxFloat32 || f < -math.MaxFloat32 {
		return 0
	}
	return f
}

func (p *pmat) uv(uv Vec2) (float32, float32) {
	return uv[0]*p.uvScale[0] + p.uvOffset[0], uv[1]*p.uvScale[1] + p.uvOffset[1]
}

// baseAt is the surface's base colour and opacity at a fragment: factor ×
// texture × vertex colour, linear.
func (p *pmat) baseAt(uv Vec2, col Vec4) Vec4 {
	c := p.base
	if p.baseTex != nil {
		u, v := p.uv(uv)
		t := p.baseTex.sample(u, v)
		c = Vec4{c[0] * t[0], c[1] * t[1], c[2] * t[2], c[3] * t[3]}
	}
	return Vec4{c[0] * col[0], c[1] * col[1], c[2] * col[2], c[3] * col[3]}
}

// lightRig is the scene's light made ready: L points towards the light.
type lightRig struct {
	l       Vec3
	color   Vec3
	ambient Vec3
}

func newLightRig(l Light) lightRig {
	d, ok := to64(l.Direction).scale(-1).norm()
	if !ok {
		d = v3{0, 1, 0}
	}
	return lightRig{
		l:       Vec3{float32(d[0]), float32(d[1]), float32(d[2])},
		color:   Vec3{clean(l.Color[0]), clean(l.Color[1]), clean(l.Color[2])},
		ambient: Vec3{clean(l.Ambient[0]), clean(l.Ambient[1]), clean(l.Ambient[2])},
	}
}

// frag is what the shading needs to know about one sample.
type frag struct {
	pos     Vec3 // world; set only where the material needs the view
	n       Vec3 // unit, facing the viewer's side for double-sided back faces
	uv      Vec2
	col     Vec4
	viewDir Vec3 // unit, from the surface towards the eye
	outline bool
}

// shade returns the fragment's linear colour, not premultiplied, and its
// opacity (1 for opaque and masked materials).
func (p *pmat) shade(f *frag, lr *lightRig) Vec4 {
	b := p.baseAt(f.uv, f.col)
	a := b[3]
	if p.alpha != AlphaBlend {
		a = 1
	}
	var c Vec3
	switch {
	case p.unlit:
		c = Vec3{b[0], b[1], b[2]}
	case p.toon != nil:
		c = p.shadeToon(f, lr, b)
	default:
		ndl := max(dot3(f.n, lr.l), 0)
		for k := range 3 {
			c[k] = b[k] * (ndl*lr.color[k] + lr.ambient[k])
		}
	}
	if !p.unlit || p.emissive != (Vec3{}) {
		c = add3(c, p.emissionAt(f.uv))
	}
	if f.outline && p.toon != nil {
		t := p.toon
		m := clamp01(t.OutlineLightingMix)
		for k := range 3 {
			c[k] = t.OutlineColor[k] * (1 + (c[k]-1)*m)
		}
	}
	return Vec4{c[0], c[1], c[2], a}
}

func (p *pmat) emissionAt(uv Vec2) Vec3 {
	e := p.emissive
	if e == (Vec3{}) {
		return e
	}
	if p.emTex != nil {
		u, v := p.uv(uv)
		t := p.emTex.sample(u, v)
		e = Vec3{e[0] * t[0], e[1] * t[1], e[2] * t[2]}
	}
	return Vec3{clean(e[0]), clean(e[1]), clean(e[2])}
}

// shadeToon is MToon's lighting in VRM 1.0's meaning (the
// VRMC_materials_mtoon specification): the lit and shade colours mixed by
// a shading term made toony, times the light, plus the ambient light on the
// lit colour, plus the rim.
func (p *pmat) shadeToon(f *frag, lr *lightRig, lit Vec4) Vec3 {
	t := p.toon
	shade := t.ShadeColor
	if p.shadeTex != nil {
		u, v := p.uv(f.uv)
		s := p.shadeTex.sample(u, v)
		shade = Vec3{shade[0] * s[0], shade[1] * s[1], shade[2] * s[2]}
	}
	shade = Vec3{shade[0] * f.col[0], shade[1] * f.col[1], shade[2] * f.col[2]}
	toony := clamp01(t.ShadingToony)
	s := linearstep(-1+toony, 1-toony, dot3(f.n, lr.l)+t.ShadingShift)
	var c Vec3
	for k := range 3 {
		c[k] = (shade[k]+(lit[k]-shade[k])*s)*lr.color[k] + lr.ambient[k]*lit[k]
	}
	if t.RimColor != (Vec3{}) {
		x := clamp01(1 - dot3(f.viewDir, f.n) + t.RimLift)
		fres := powf(x, t.RimFresnelPower)
		rim := Vec3{t.RimColor[0] * fres, t.RimColor[1] * fres, t.RimColor[2] * fres}
		if p.rimTex != nil {
			u, v := p.uv(f.uv)
			r := p.rimTex.sample(u, v)
			rim = Vec3{rim[0] * r[0], rim[1] * r[1], rim[2] * r[2]}
		}
		mix := clamp01(t.RimLightingMix)
		for k := range 3 {
			light := lr.color[k]*s + lr.ambient[k]
			c[k] += rim[k] * (1 + (light-1)*mix)
		}
	}
	return c
}

// powf is x^p for x in 0..1, by multiplication for the whole powers
// models use (MToon's default is 5), math.Pow otherwise.
func powf(x, p float32) float32 {
	if !(x > 0) {
		if p == 0 {
			return 1
		}
		return 0
	}
	if !(p > 0) {
		return 1
	}
	if n := int(p); float32(n) == p && n <= 16 {
		r := float32(1)
		for range n {
			r *= x
		}
		return r
	}
	return float32(math.Pow(float64(x), float64(p)))
}

// linearstep is MToon's ramp; with lo ≥ hi (toony 1) it is a step.
func linearstep(lo, hi, x float32) float32 {
	if hi <= lo {
		if x >= lo {
			return 1
		}
		return 0
	}
	return clamp01((x - lo) / (hi - lo))
}

func clamp01(x float32) float32 {
	if !(x > 0) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

func dot3(a, b Vec3) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func add3(a, b Vec3) Vec3    { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

func norm3(a Vec3) Vec3 {
	l := dot3(a, a)
	if !(l > 0) {
		return Vec3{}
	}
	k := 1 / float32(math.Sqrt(float64(l)))
	return Vec3{a[0] * k, a[1] * k, a[2] * k}
}
