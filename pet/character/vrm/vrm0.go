package vrm

import (
	"fmt"
	"math"
	"strings"
)

// presets0 maps VRM 0.x's blend shape presets to VRM 1.0's expressions
// (the migration in the VRM 1.0 specification's expression chapter).
var presets0 = map[string]string{
	"neutral": "neutral",
	"a":       "aa", "i": "ih", "u": "ou", "e": "ee", "o": "oh",
	"blink": "blink", "blink_l": "blinkLeft", "blink_r": "blinkRight",
	"joy": "happy", "angry": "angry", "sorrow": "sad", "fun": "relaxed",
	"lookup": "lookUp", "lookdown": "lookDown", "lookleft": "lookLeft", "lookright": "lookRight",
}

// bones0 renames the VRM 0.x bones VRM 1.0 renamed: 0.x counted the
// thumb's three bones from the proximal, 1.0 from the metacarpal.
var bones0 = map[string]string{
	"leftThumbProximal":      "leftThumbMetacarpal",
	"leftThumbIntermediate":  "leftThumbProximal",
	"rightThumbProximal":     "rightThumbMetacarpal",
	"rightThumbIntermediate": "rightThumbProximal",
}

type vrm0 struct {
	Meta struct {
		Title              string `json:"title"`
		Version            string `json:"version"`
		Author             string `json:"author"`
		ContactInformation string `json:"contactInformation"`
		Reference          string `json:"reference"`
		Texture            *int   `json:"texture"`
		AllowedUserName    string `json:"allowedUserName"`
		// "Ussage" is how VRM 0.x spells it.
		CommercialUssageName string `json:"commercialUssageName"`
		LicenseName          string `json:"licenseName"`
		OtherLicenseURL      string `json:"otherLicenseUrl"`
	} `json:"meta"`
	Humanoid struct {
		HumanBones []struct {
			Bone string `json:"bone"`
			Node *int   `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
	FirstPerson struct {
		FirstPersonBoneOffset *struct {
			X, Y, Z *float32
		} `json:"firstPersonBoneOffset"`
		LookAtTypeName        string     `json:"lookAtTypeName"`
		LookAtHorizontalInner *degreeMap `json:"lookAtHorizontalInner"`
		LookAtHorizontalOuter *degreeMap `json:"lookAtHorizontalOuter"`
		LookAtVerticalDown    *degreeMap `json:"lookAtVerticalDown"`
		LookAtVerticalUp      *degreeMap `json:"lookAtVerticalUp"`
	} `json:"firstPerson"`
	BlendShapeMaster struct {
		BlendShapeGroups []struct {
			Name       string `json:"name"`
			PresetName string `json:"presetName"`
			Binds      []struct {
				Mesh   int     `json:"mesh"`
				Index  int     `json:"index"`
				Weight float32 `json:"weight"`
			} `json:"binds"`
			MaterialValues []struct {
				MaterialName string    `json:"materialName"`
				PropertyName string    `json:"propertyName"`
				TargetValue  []float32 `json:"targetValue"`
			} `json:"materialValues"`
			IsBinary bool `json:"isBinary"`
		} `json:"blendShapeGroups"`
	} `json:"blendShapeMaster"`
	MaterialProperties []material0 `json:"materialProperties"`
}

// degreeMap is VRM 0.x's lookAt curve; only its ranges are kept (VRM 1.0
// has no curve).
type degreeMap struct {
	XRange *float32 `json:"xRange"`
	YRange *float32 `json:"yRange"`
}

func (c *container) readVRM0(m *Model) error {
	var v vrm0
	if _, err := decodeExtension(c.doc.Extensions, extVRM0, &v); err != nil {
		return err
	}
	c.meta0(m, &v)
	m.Humanoid = make(map[string]int, len(v.Humanoid.HumanBones))
	for _, b := range v.Humanoid.HumanBones {
		if b.Node == nil || b.Bone == "" {
			continue
		}
		if *b.Node < 0 || *b.Node >= len(m.Nodes) {
			return fmt.Errorf("vrm: humanoid bone %s: node %d out of range", b.Bone, *b.Node)
		}
		name := b.Bone
		if n, ok := bones0[name]; ok {
			name = n
		}
		m.Humanoid[name] = *b.Node
	}
	if _, ok := m.Humanoid["hips"]; !ok {
		return fmt.Errorf("vrm: the humanoid has no hips bone")
	}
	lookAt0(m, &v)
	if err := c.materials0(m, v.MaterialProperties); err != nil {
		return err
	}
	expressions0(m, &v)
	turnRoots(m)
	return nil
}

func (c *container) meta0(m *Model, v *vrm0) {
	mt := &v.Meta
	m.Meta = Meta{
		Title: mt.Title, Version: mt.Version, Author: mt.Author,
		Contact: mt.ContactInformation, Reference: mt.Reference,
		License: mt.LicenseName, Thumbnail: -1,
	}
	if (mt.LicenseName == "Other" || mt.LicenseName == "") && mt.OtherLicenseURL != "" {
		m.Meta.License = mt.OtherLicenseURL
	}
	switch mt.AllowedUserName {
	case "Everyone":
		m.Meta.AllowedUser = "Everyone"
	case "ExplicitlyLicensedPerson":
		m.Meta.AllowedUser = "OnlySeparatelyLicensedPerson"
	default:
		m.Meta.AllowedUser = "OnlyAuthor"
	}
	m.Meta.Commercial = "personalNonProfit"
	if mt.CommercialUssageName == "Allow" {
		m.Meta.Commercial = "corporation"
	}
	if mt.Texture != nil && *mt.Texture >= 0 && *mt.Texture < len(m.Textures) {
		m.Meta.Thumbnail = *mt.Texture
	}
}

// lookAt0 converts firstPerson's lookAt as three-vrm's VRM 0.x import
// does (packages/three-vrm-core, VRMLookAtLoaderPlugin): the bone offset's
// Z is negated (Unity's left-handed axes), 0.06 m up by default, and the
// curves become range maps of their xRange and yRange.
func lookAt0(m *Model, v *vrm0) {
	fp := &v.FirstPerson
	m.LookAt = LookAt{Type: "bone", OffsetFromHeadBone: Vec3{0, 0.06, 0}}
	out := float32(10)
	if fp.LookAtTypeName == "BlendShape" {
		m.LookAt.Type = "expression"
		out = 1
	}
	if o := fp.FirstPersonBoneOffset; o != nil {
		m.LookAt.OffsetFromHeadBone = Vec3{orF(o.X, 0), orF(o.Y, 0.06), 0 - orF(o.Z, 0)} // 0 − z, not −z: no negative zero
	}
	rm := func(d *degreeMap) RangeMap {
		if d == nil {
			return RangeMap{InputMaxValue: 90, OutputScale: out}
		}
		return RangeMap{InputMaxValue: orF(d.XRange, 90), OutputScale: orF(d.YRange, out)}
	}
	m.LookAt.HorizontalInner, m.LookAt.HorizontalOuter = rm(fp.LookAtHorizontalInner), rm(fp.LookAtHorizontalOuter)
	m.LookAt.VerticalDown, m.LookAt.VerticalUp = rm(fp.LookAtVerticalDown), rm(fp.LookAtVerticalUp)
}

// colorProps0 maps VRM 0.x's material value properties to VRM 1.0's
// materialColorBind types.
var colorProps0 = map[string]string{
	"_Color": "color", "_ShadeColor": "shadeColor", "_RimColor": "rimColor",
	"_EmissionColor": "emissionColor", "_OutlineColor": "outlineColor",
}

func expressions0(m *Model, v *vrm0) {
	byName := make(map[string]int, len(m.Materials))
	for i := len(m.Materials) - 1; i >= 0; i-- {
		byName[m.Materials[i].Name] = i
	}
	seen := map[string]bool{}
	for _, g := range v.BlendShapeMaster.BlendShapeGroups {
		name, preset := presets0[strings.ToLower(g.PresetName)]
		if !preset {
			name = g.Name
		}
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		x := Expression{Name: name, Preset: preset, IsBinary: g.IsBinary,
			OverrideBlink: "none", OverrideLookAt: "none", OverrideMouth: "none"}
		for _, b := range g.Binds {
			if b.Mesh < 0 || b.Mesh >= len(m.Meshes) || !hasTarget(&m.Meshes[b.Mesh], b.Index) {
				continue
			}
			x.Morphs = append(x.Morphs, MorphBind{Mesh: b.Mesh, Index: b.Index, Weight: clamp01(b.Weight / 100)})
		}
		for _, mv := range g.MaterialValues {
			mi, ok := byName[mv.MaterialName]
			if !ok || len(mv.TargetValue) < 4 {
				continue
			}
			t := mv.TargetValue
			if typ, ok := colorProps0[mv.PropertyName]; ok {
				x.Colors = append(x.Colors, ColorBind{Material: mi, Type: typ,
					Target: Vec4{gamma(t[0]), gamma(t[1]), gamma(t[2]), t[3]}})
			} else if mv.PropertyName == "_MainTex_ST" {
				// Unity's _ST is (scale, offset) with V up; glTF's V runs down.
				x.TextureTransforms = append(x.TextureTransforms, TextureTransformBind{
					Material: mi, Scale: Vec2{t[0], t[1]}, Offset: Vec2{t[2], 1 - t[1] - t[3]}})
			}
		}
		m.Expressions = append(m.Expressions, x)
	}
}

// gamma turns an sRGB-encoded 0.x colour component linear, as three-vrm's
// VRM 0.x material import does (packages/three-vrm-materials-v0compat,
// utils/gammaEOTF: a 2.2 power).
func gamma(v float32) float32 {
	if v <= 0 {
		return 0
	}
	return float32(math.Pow(float64(v), 2.2))
}

// halfTurnY is the quaternion of half a turn about Y.
var halfTurnY = Quat{0, 1, 0, 0}

// turnRoots turns a VRM 0.x model (which faces −Z) to face +Z by turning
// each root node half a turn about Y: skins follow, since their joints'
// world transforms turn with the roots.
func turnRoots(m *Model) {
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if n.Parent != -1 {
			continue
		}
		n.Translation = Vec3{-n.Translation[0], n.Translation[1], -n.Translation[2]}
		n.Rotation = normQuat(quatMul(halfTurnY, n.Rotation))
	}
}

// quatMul is the Hamilton product a·b (b applied first).
func quatMul(a, b Quat) Quat {
	return Quat{
		a[3]*b[0] + a[0]*b[3] + a[1]*b[2] - a[2]*b[1],
		a[3]*b[1] - a[0]*b[2] + a[1]*b[3] + a[2]*b[0],
		a[3]*b[2] + a[0]*b[1] - a[1]*b[0] + a[2]*b[3],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}
