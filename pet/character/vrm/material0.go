package vrm

import (
	"fmt"
	"sort"
	"strings"
)

// material0 is one of VRM 0.x's materialProperties (Unity's material
// properties of the VRM/MToon or VRM/Unlit* shaders).
type material0 struct {
	Name              string               `json:"name"`
	Shader            string               `json:"shader"`
	RenderQueue       *int                 `json:"renderQueue"`
	FloatProperties   map[string]float32   `json:"floatProperties"`
	VectorProperties  map[string][]float32 `json:"vectorProperties"`
	TextureProperties map[string]int       `json:"textureProperties"`
	KeywordMap        map[string]bool      `json:"keywordMap"`
}

func (p *material0) float(name string, def float32) float32 {
	if v, ok := p.FloatProperties[name]; ok {
		return v
	}
	return def
}

// color reads a colour property, sRGB to linear (alpha kept).
func (p *material0) color(name string, def Vec4) Vec4 {
	v, ok := p.VectorProperties[name]
	if !ok || len(v) < 3 {
		return Vec4{gamma(def[0]), gamma(def[1]), gamma(def[2]), def[3]}
	}
	a := def[3]
	if len(v) > 3 {
		a = v[3]
	}
	return Vec4{gamma(v[0]), gamma(v[1]), gamma(v[2]), a}
}

// tex reads a texture property with the _MainTex transform every MToon
// texture shares.
func (p *material0) tex(name string, textures int) TextureRef {
	ref := TextureRef{Index: -1, Scale: Vec2{1, 1}}
	i, ok := p.TextureProperties[name]
	if !ok || i < 0 || i >= textures {
		return ref
	}
	ref.Index = i
	if st, ok := p.VectorProperties["_MainTex"]; ok && len(st) >= 4 {
		// Unity's (offset, scale) with V up; glTF's V runs down.
		ref.Offset = Vec2{st[0], 1 - st[3] - st[1]}
		ref.Scale = Vec2{st[2], st[3]}
	}
	return ref
}

// blend is the 0.x material's render type.
type blend0 uint8

const (
	blendOpaque blend0 = iota
	blendCutout
	blendTransparent
	blendTransparentZWrite
)

func (p *material0) blend() blend0 {
	if strings.HasPrefix(p.Shader, "VRM/Unlit") {
		switch p.Shader {
		case "VRM/UnlitCutout":
			return blendCutout
		case "VRM/UnlitTransparent":
			return blendTransparent
		case "VRM/UnlitTransparentZWrite":
			return blendTransparentZWrite
		}
		return blendOpaque
	}
	if bm, ok := p.FloatProperties["_BlendMode"]; ok && bm >= 0 && bm <= 3 {
		return blend0(bm)
	}
	switch {
	case p.KeywordMap["_ALPHABLEND_ON"] && p.float("_ZWrite", 0) == 1:
		return blendTransparentZWrite
	case p.KeywordMap["_ALPHABLEND_ON"]:
		return blendTransparent
	case p.KeywordMap["_ALPHATEST_ON"]:
		return blendCutout
	}
	return blendOpaque
}

// materials0 converts materialProperties (one per glTF material, by
// index) to VRM 1.0's MToon, as three-vrm's VRM 0.x compatibility does
// (packages/three-vrm-materials-v0compat, VRMMaterialsV0CompatPlugin).
func (c *container) materials0(m *Model, props []material0) error {
	if len(props) > len(m.Materials) {
		props = props[:len(m.Materials)]
	}
	queues := renderQueues0(props)
	for i := range props {
		p := &props[i]
		mat := &m.Materials[i]
		switch {
		case p.Shader == "VRM/MToon":
			mtoon0(mat, p, len(m.Textures), queues)
		case strings.HasPrefix(p.Shader, "VRM/Unlit"):
			unlit0(mat, p, len(m.Textures), queues)
		case p.Shader == "VRM_USE_GLTFSHADER", p.Shader == "":
			// The glTF material already says it all.
		default:
			// Unknown shaders (e.g. Standard) keep their glTF material.
		}
		if err := checkRefs(mat, len(m.Textures)); err != nil {
			return fmt.Errorf("vrm: material %d: %w", i, err)
		}
	}
	return nil
}

func checkRefs(mat *Material, textures int) error {
	refs := []TextureRef{mat.BaseTexture, mat.EmissiveTexture}
	if mat.Toon != nil {
		refs = append(refs, mat.Toon.ShadeTexture, mat.Toon.RimTexture, mat.Toon.OutlineWidthTexture)
	}
	for _, r := range refs {
		if r.Index < -1 || r.Index >= textures {
			return fmt.Errorf("texture %d out of range", r.Index)
		}
	}
	return nil
}

func alpha0(mat *Material, p *material0, b blend0) {
	mat.AlphaMode, mat.AlphaCutoff = AlphaOpaque, 0.5
	switch b {
	case blendCutout:
		mat.AlphaMode, mat.AlphaCutoff = AlphaMask, p.float("_Cutoff", 0.5)
	case blendTransparent, blendTransparentZWrite:
		mat.AlphaMode = AlphaBlend
	}
}

func mtoon0(mat *Material, p *material0, textures int, queues map[queueKey]int) {
	b := p.blend()
	alpha0(mat, p, b)
	mat.DoubleSided = p.float("_CullMode", 2) == 0 // Unity's CullMode Off
	mat.Unlit = false
	mat.BaseColor = p.color("_Color", Vec4{1, 1, 1, 1})
	if v, ok := p.VectorProperties["_Color"]; ok && len(v) > 3 {
		mat.BaseColor[3] = v[3] // alpha is stored linear
	}
	mat.BaseTexture = p.tex("_MainTex", textures)
	e := p.color("_EmissionColor", Vec4{0, 0, 0, 1})
	mat.Emissive = Vec3{e[0], e[1], e[2]}
	mat.EmissiveTexture = p.tex("_EmissionMap", textures)
	shade := p.color("_ShadeColor", Vec4{0.97, 0.81, 0.86, 1})
	rim := p.color("_RimColor", Vec4{0, 0, 0, 1})
	outline := p.color("_OutlineColor", Vec4{0, 0, 0, 1})
	// 0.x's shade shift and toony become 1.0's (three-vrm's formulas).
	shift := p.float("_ShadeShift", 0)
	toony := p.float("_ShadeToony", 0.9)
	toony = toony + (1-toony)*(0.5+0.5*shift)
	shift = -shift - (1 - toony)
	t := &Toon{
		ShadeColor:          Vec3{shade[0], shade[1], shade[2]},
		ShadeTexture:        p.tex("_ShadeTexture", textures),
		ShadingShift:        shift,
		ShadingToony:        toony,
		RimColor:            Vec3{rim[0], rim[1], rim[2]},
		RimTexture:          p.tex("_RimTexture", textures),
		RimFresnelPower:     p.float("_RimFresnelPower", 1),
		RimLift:             p.float("_RimLift", 0),
		RimLightingMix:      p.float("_RimLightingMix", 0),
		OutlineWidth:        0.01 * p.float("_OutlineWidth", 0), // centimetres in 0.x
		OutlineWidthTexture: p.tex("_OutlineWidthTexture", textures),
		OutlineColor:        Vec3{outline[0], outline[1], outline[2]},
		TransparentZWrite:   b == blendTransparentZWrite,
		RenderQueueOffset:   queueOffset(p, b, queues),
	}
	switch p.float("_OutlineWidthMode", 0) {
	case 1:
		t.OutlineMode = OutlineWorld
	case 2:
		t.OutlineMode = OutlineScreen
	}
	if p.float("_OutlineColorMode", 0) == 1 { // Mixed; Fixed ignores light
		t.OutlineLightingMix = p.float("_OutlineLightingMix", 1)
	}
	mat.Toon = t
}

// unlit0 turns VRM/Unlit* into MToon with the shade colour equal to the
// base colour, as three-vrm does (an unlit look that keeps 0.x's render
// queue).
func unlit0(mat *Material, p *material0, textures int, queues map[queueKey]int) {
	b := p.blend()
	alpha0(mat, p, b)
	mat.BaseColor = p.color("_Color", Vec4{1, 1, 1, 1})
	mat.BaseTexture = p.tex("_MainTex", textures)
	mat.Unlit = true
	mat.Toon = &Toon{
		ShadeColor:        Vec3{mat.BaseColor[0], mat.BaseColor[1], mat.BaseColor[2]},
		ShadeTexture:      mat.BaseTexture,
		ShadingToony:      0.9,
		RimFresnelPower:   5,
		RimLightingMix:    1,
		TransparentZWrite: b == blendTransparentZWrite,
		RenderQueueOffset: queueOffset(p, b, queues),
	}
}

type queueKey struct {
	zwrite bool
	queue  int
}

// renderQueues0 maps the transparent materials' 0.x render queues to
// 1.0's offsets in the same order: transparent ones end at 0 (−9..0),
// transparent-with-Z-write ones start at 0 (0..9).
func renderQueues0(props []material0) map[queueKey]int {
	sets := map[bool][]int{}
	seen := map[queueKey]bool{}
	for i := range props {
		p := &props[i]
		b := p.blend()
		if p.RenderQueue == nil || (b != blendTransparent && b != blendTransparentZWrite) {
			continue
		}
		k := queueKey{b == blendTransparentZWrite, *p.RenderQueue}
		if !seen[k] {
			seen[k] = true
			sets[k.zwrite] = append(sets[k.zwrite], k.queue)
		}
	}
	out := map[queueKey]int{}
	for zw, qs := range sets {
		sort.Ints(qs)
		for i, q := range qs {
			if zw {
				out[queueKey{true, q}] = min(i, 9)
			} else {
				out[queueKey{false, q}] = max(i-(len(qs)-1), -9)
			}
		}
	}
	return out
}

func queueOffset(p *material0, b blend0, queues map[queueKey]int) int {
	if p.RenderQueue == nil {
		return 0
	}
	return queues[queueKey{b == blendTransparentZWrite, *p.RenderQueue}]
}
