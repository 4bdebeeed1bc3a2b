package vrm

import (
	"fmt"
	"sort"
	"strings"
)

// presetNames are VRM 1.0's preset expressions, in the specification's
// order (VRMC_vrm expressions.preset), which is the order they are read in.
var presetNames = []string{
	"happy", "angry", "sad", "relaxed", "surprised",
	"aa", "ih", "ou", "ee", "oh",
	"blink", "blinkLeft", "blinkRight",
	"lookUp", "lookDown", "lookLeft", "lookRight",
	"neutral",
}

type vrm1 struct {
	SpecVersion string `json:"specVersion"`
	Meta        struct {
		Name                string   `json:"name"`
		Version             string   `json:"version"`
		Authors             []string `json:"authors"`
		ContactInformation  string   `json:"contactInformation"`
		References          []string `json:"references"`
		ThumbnailImage      *int     `json:"thumbnailImage"`
		LicenseURL          string   `json:"licenseUrl"`
		AvatarPermission    string   `json:"avatarPermission"`
		CommercialUsage     string   `json:"commercialUsage"`
		AllowRedistribution bool     `json:"allowRedistribution"`
	} `json:"meta"`
	Humanoid struct {
		HumanBones map[string]struct {
			Node *int `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
	LookAt *struct {
		OffsetFromHeadBone      *[3]float32 `json:"offsetFromHeadBone"`
		Type                    string      `json:"type"`
		RangeMapHorizontalInner *rangeMap1  `json:"rangeMapHorizontalInner"`
		RangeMapHorizontalOuter *rangeMap1  `json:"rangeMapHorizontalOuter"`
		RangeMapVerticalDown    *rangeMap1  `json:"rangeMapVerticalDown"`
		RangeMapVerticalUp      *rangeMap1  `json:"rangeMapVerticalUp"`
	} `json:"lookAt"`
	Expressions struct {
		Preset map[string]expression1 `json:"preset"`
		Custom map[string]expression1 `json:"custom"`
	} `json:"expressions"`
}

type rangeMap1 struct {
	InputMaxValue *float32 `json:"inputMaxValue"`
	OutputScale   *float32 `json:"outputScale"`
}

type expression1 struct {
	MorphTargetBinds []struct {
		Node   int     `json:"node"`
		Index  int     `json:"index"`
		Weight float32 `json:"weight"`
	} `json:"morphTargetBinds"`
	MaterialColorBinds []struct {
		Material    int        `json:"material"`
		Type        string     `json:"type"`
		TargetValue [4]float32 `json:"targetValue"`
	} `json:"materialColorBinds"`
	TextureTransformBinds []struct {
		Material int         `json:"material"`
		Scale    *[2]float32 `json:"scale"`
		Offset   *[2]float32 `json:"offset"`
	} `json:"textureTransformBinds"`
	IsBinary       bool   `json:"isBinary"`
	OverrideBlink  string `json:"overrideBlink"`
	OverrideLookAt string `json:"overrideLookAt"`
	OverrideMouth  string `json:"overrideMouth"`
}

// readVRM1 reads a VRM 1.0 model's VRMC_vrm extension: its meta, humanoid,
// look-at and expressions.
func (c *container) readVRM1(m *Model) error {
	var v vrm1
	if _, err := decodeExtension(c.doc.Extensions, extVRM1, &v); err != nil {
		return err
	}
	if !strings.HasPrefix(v.SpecVersion, "1") {
		return fmt.Errorf("vrm: VRMC_vrm specVersion %q is not 1.x", v.SpecVersion)
	}
	if err := c.meta1(m, &v); err != nil {
		return err
	}
	if err := humanoid1(m, &v); err != nil {
		return err
	}
	lookAt1(m, &v)
	expressions1(m, &v)
	return nil
}

// meta1 reads the meta and its thumbnail, in VRM 0.x's words, which Meta
// keeps.
func (c *container) meta1(m *Model, v *vrm1) error {
	mt := &v.Meta
	m.Meta = Meta{
		Title:          mt.Name,
		Version:        mt.Version,
		Author:         strings.Join(mt.Authors, ", "),
		Contact:        mt.ContactInformation,
		Reference:      strings.Join(mt.References, ", "),
		License:        mt.LicenseURL,
		Commercial:     mt.CommercialUsage,
		Redistribution: mt.AllowRedistribution,
		Thumbnail:      -1,
	}
	switch mt.AvatarPermission {
	case "everyone":
		m.Meta.AllowedUser = "Everyone"
	case "onlySeparatelyLicensedPerson":
		m.Meta.AllowedUser = "OnlySeparatelyLicensedPerson"
	default: // "onlyAuthor", VRM 1.0's default
		m.Meta.AllowedUser = "OnlyAuthor"
	}
	if m.Meta.Commercial == "" {
		m.Meta.Commercial = "personalNonProfit"
	}
	if mt.ThumbnailImage != nil {
		t, err := c.thumbnail(m, *mt.ThumbnailImage)
		if err != nil {
			return err
		}
		m.Meta.Thumbnail = t
	}
	return nil
}

// humanoid1 reads the humanoid bones' nodes, refusing one out of range and
// a humanoid without hips.
func humanoid1(m *Model, v *vrm1) error {
	m.Humanoid = make(map[string]int, len(v.Humanoid.HumanBones))
	for name, b := range v.Humanoid.HumanBones {
		if b.Node == nil {
			continue
		}
		if *b.Node < 0 || *b.Node >= len(m.Nodes) {
			return fmt.Errorf("vrm: humanoid bone %s: node %d out of range", name, *b.Node)
		}
		m.Humanoid[name] = *b.Node
	}
	if _, ok := m.Humanoid["hips"]; !ok {
		return fmt.Errorf("vrm: the humanoid has no hips bone")
	}
	return nil
}

// lookAt1 reads the look-at, filling VRMC_vrm's defaults for what it leaves
// out (a bone look-at, range maps of 90° to its type's output scale).
func lookAt1(m *Model, v *vrm1) {
	m.LookAt = LookAt{Type: "bone"}
	if la := v.LookAt; la != nil {
		if la.Type == "expression" {
			m.LookAt.Type = "expression"
		}
		if la.OffsetFromHeadBone != nil {
			m.LookAt.OffsetFromHeadBone = Vec3(*la.OffsetFromHeadBone)
		}
	}
	out := float32(10) // VRMC_vrm lookAt.rangeMap*'s default outputScale for bones
	if m.LookAt.Type == "expression" {
		out = 1
	}
	rm := func(r *rangeMap1) RangeMap {
		res := RangeMap{InputMaxValue: 90, OutputScale: out}
		if r != nil {
			res.InputMaxValue = orF(r.InputMaxValue, 90)
			res.OutputScale = orF(r.OutputScale, out)
		}
		return res
	}
	if la := v.LookAt; la != nil {
		m.LookAt.HorizontalInner, m.LookAt.HorizontalOuter = rm(la.RangeMapHorizontalInner), rm(la.RangeMapHorizontalOuter)
		m.LookAt.VerticalDown, m.LookAt.VerticalUp = rm(la.RangeMapVerticalDown), rm(la.RangeMapVerticalUp)
	} else {
		m.LookAt.HorizontalInner, m.LookAt.HorizontalOuter = rm(nil), rm(nil)
		m.LookAt.VerticalDown, m.LookAt.VerticalUp = rm(nil), rm(nil)
	}
}

// expressions1 reads the preset expressions in presetNames' order, then
// the custom ones by name; a custom one named as a preset is dropped.
func expressions1(m *Model, v *vrm1) {
	for _, name := range presetNames {
		if e, ok := v.Expressions.Preset[name]; ok {
			m.Expressions = append(m.Expressions, e.expression(m, name, true))
		}
	}
	custom := make([]string, 0, len(v.Expressions.Custom))
	for name := range v.Expressions.Custom {
		if _, clash := v.Expressions.Preset[name]; !clash {
			custom = append(custom, name)
		}
	}
	sort.Strings(custom)
	for _, name := range custom {
		m.Expressions = append(m.Expressions, v.Expressions.Custom[name].expression(m, name, false))
	}
}

// expression converts one VRM 1.0 expression. Binds that name a node
// without a mesh, a morph target or a material that is not there are
// dropped: the rest of the expression still works.
func (e expression1) expression(m *Model, name string, preset bool) Expression {
	x := Expression{
		Name: name, Preset: preset, IsBinary: e.IsBinary,
		OverrideBlink:  overrideOf(e.OverrideBlink),
		OverrideLookAt: overrideOf(e.OverrideLookAt),
		OverrideMouth:  overrideOf(e.OverrideMouth),
	}
	for _, b := range e.MorphTargetBinds {
		if b.Node < 0 || b.Node >= len(m.Nodes) || m.Nodes[b.Node].Mesh < 0 {
			continue
		}
		mesh := m.Nodes[b.Node].Mesh
		if !hasTarget(&m.Meshes[mesh], b.Index) {
			continue
		}
		x.Morphs = append(x.Morphs, MorphBind{Mesh: mesh, Index: b.Index, Weight: clamp01(b.Weight)})
	}
	for _, b := range e.MaterialColorBinds {
		if b.Material < 0 || b.Material >= len(m.Materials) {
			continue
		}
		x.Colors = append(x.Colors, ColorBind{Material: b.Material, Type: b.Type, Target: Vec4(b.TargetValue)})
	}
	for _, b := range e.TextureTransformBinds {
		if b.Material < 0 || b.Material >= len(m.Materials) {
			continue
		}
		tb := TextureTransformBind{Material: b.Material, Scale: Vec2{1, 1}}
		if b.Scale != nil {
			tb.Scale = Vec2(*b.Scale)
		}
		if b.Offset != nil {
			tb.Offset = Vec2(*b.Offset)
		}
		x.TextureTransforms = append(x.TextureTransforms, tb)
	}
	return x
}

func overrideOf(s string) string {
	switch s {
	case "block", "blend":
		return s
	}
	return "none"
}

func hasTarget(mesh *Mesh, index int) bool {
	if index < 0 {
		return false
	}
	for _, p := range mesh.Primitives {
		if index < len(p.Targets) {
			return true
		}
	}
	return false
}

func clamp01(v float32) float32 {
	switch {
	case v < 0 || v != v:
		return 0
	case v > 1:
		return 1
	}
	return v
}

// thumbnail finds the texture showing image img, adding one (with the
// default sampler) when no texture does: VRM 1.0 names an image, the
// Model a texture.
func (c *container) thumbnail(m *Model, img int) (int, error) {
	for i, t := range c.doc.Textures {
		if t.Source != nil && *t.Source == img {
			return i, nil
		}
	}
	mime, data, err := c.image(img)
	if err != nil {
		return -1, fmt.Errorf("vrm: thumbnail: %w", trimPrefix(err))
	}
	m.Textures = append(m.Textures, Texture{MIME: mime, Data: data, Sampler: Sampler{WrapS: 10497, WrapT: 10497}})
	return len(m.Textures) - 1, nil
}
