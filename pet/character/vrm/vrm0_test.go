package vrm

import (
	"bytes"
	"math"
	"testing"
)

// vrm0Minimal is minimal() as a VRM 0.x model with one MToon material,
// a morph target and a blend shape group binding it and a colour.
func vrm0Minimal() (obj, []byte) {
	doc, bin := minimal()
	delete(doc, "extensions")
	doc["materials"] = []any{obj{"name": "Body"}}
	p := at(doc, "meshes", 0, "primitives", 0)
	p["material"] = 0
	p["targets"] = []any{obj{"POSITION": 0}}
	doc["extensions"] = obj{"VRM": obj{
		"specVersion": "0.0",
		"meta": obj{"title": "zero", "allowedUserName": "ExplicitlyLicensedPerson",
			"commercialUssageName": "Disallow", "licenseName": "Other", "otherLicenseUrl": "https://example.com/l"},
		"humanoid": obj{"humanBones": []any{
			obj{"bone": "hips", "node": 1},
			obj{"bone": "leftThumbProximal", "node": 0},
		}},
		"firstPerson": obj{"lookAtTypeName": "BlendShape",
			"firstPersonBoneOffset": obj{"x": 0, "y": 0.1, "z": 0.02},
			"lookAtHorizontalOuter": obj{"xRange": 60, "yRange": 0.5}},
		"blendShapeMaster": obj{"blendShapeGroups": []any{
			obj{"name": "Joy", "presetName": "joy", "binds": []any{obj{"mesh": 0, "index": 0, "weight": 50}},
				"materialValues": []any{
					obj{"materialName": "Body", "propertyName": "_Color", "targetValue": []float64{0.5, 1, 0, 1}},
					obj{"materialName": "Body", "propertyName": "_MainTex_ST", "targetValue": []float64{2, 1, 0.5, 0}},
				}},
			obj{"name": "Wink", "presetName": "unknown", "binds": []any{obj{"mesh": 0, "index": 7, "weight": 100}}},
		}},
		"materialProperties": []any{obj{
			"name": "Body", "shader": "VRM/MToon", "renderQueue": 2000,
			"floatProperties": obj{"_ShadeShift": 0.2, "_ShadeToony": 0.5, "_OutlineWidth": 0.5,
				"_OutlineWidthMode": 1, "_CullMode": 0, "_BlendMode": 1, "_Cutoff": 0.3},
			"vectorProperties":  obj{"_Color": []float64{0.5, 0.5, 0.5, 0.8}, "_ShadeColor": []float64{1, 0, 0, 1}},
			"textureProperties": obj{},
			"keywordMap":        obj{},
		}},
	}}
	return doc, bin
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

func TestReadVRM0Conversions(t *testing.T) {
	doc, bin := vrm0Minimal()
	m, err := Read(bytes.NewReader(glb(t, doc, bin)))
	if err != nil {
		t.Fatal(err)
	}
	if m.Meta.AllowedUser != "OnlySeparatelyLicensedPerson" || m.Meta.Commercial != "personalNonProfit" ||
		m.Meta.License != "https://example.com/l" || m.Meta.Redistribution {
		t.Errorf("meta %+v", m.Meta)
	}
	if _, ok := m.Humanoid["leftThumbMetacarpal"]; !ok {
		t.Errorf("humanoid %v: 0.x's thumb proximal is 1.0's metacarpal", m.Humanoid)
	}
	la := m.LookAt
	if la.Type != "expression" || la.OffsetFromHeadBone != (Vec3{0, 0.1, -0.02}) ||
		la.HorizontalOuter != (RangeMap{60, 0.5}) || la.HorizontalInner != (RangeMap{90, 1}) {
		t.Errorf("lookAt %+v", la)
	}
	mat := m.Materials[0]
	toon := mat.Toon
	if toon == nil {
		t.Fatal("not MToon")
	}
	// three-vrm's conversion: toony 0.5 → lerp(0.5, 1, 0.5 + 0.5·0.2) = 0.8;
	// shift −0.2 − (1 − 0.8) = −0.4.
	if !near(toon.ShadingToony, 0.8) || !near(toon.ShadingShift, -0.4) {
		t.Errorf("toony %v shift %v", toon.ShadingToony, toon.ShadingShift)
	}
	if !near(toon.OutlineWidth, 0.005) || toon.OutlineMode != OutlineWorld || toon.OutlineLightingMix != 0 {
		t.Errorf("outline %v mode %v mix %v", toon.OutlineWidth, toon.OutlineMode, toon.OutlineLightingMix)
	}
	g := float32(math.Pow(0.5, 2.2))
	if !near(mat.BaseColor[0], g) || mat.BaseColor[3] != 0.8 || toon.ShadeColor != (Vec3{1, 0, 0}) {
		t.Errorf("colours %v %v", mat.BaseColor, toon.ShadeColor)
	}
	if !mat.DoubleSided || mat.AlphaMode != AlphaMask || !near(mat.AlphaCutoff, 0.3) {
		t.Errorf("double %v alpha %v cutoff %v", mat.DoubleSided, mat.AlphaMode, mat.AlphaCutoff)
	}
	if len(m.Expressions) != 2 {
		t.Fatalf("%d expressions", len(m.Expressions))
	}
	happy, wink := m.Expressions[0], m.Expressions[1]
	if happy.Name != "happy" || !happy.Preset || len(happy.Morphs) != 1 || happy.Morphs[0].Weight != 0.5 {
		t.Errorf("happy %+v", happy)
	}
	if len(happy.Colors) != 1 || happy.Colors[0].Type != "color" || !near(happy.Colors[0].Target[0], g) {
		t.Errorf("happy colours %+v", happy.Colors)
	}
	if len(happy.TextureTransforms) != 1 || happy.TextureTransforms[0].Scale != (Vec2{2, 1}) ||
		happy.TextureTransforms[0].Offset != (Vec2{0.5, 0}) {
		t.Errorf("happy texture transforms %+v", happy.TextureTransforms)
	}
	if wink.Name != "Wink" || wink.Preset || len(wink.Morphs) != 0 {
		t.Errorf("wink %+v (its bind names a target that is not there)", wink)
	}
}
