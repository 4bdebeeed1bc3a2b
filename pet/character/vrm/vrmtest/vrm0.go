package vrmtest

import "math"

// presets0 are VRM 0.x's names of the presets it has (surprised is not
// one: 0.x writes it as a custom group).
var presets0 = map[string]string{
	"happy": "joy", "angry": "angry", "sad": "sorrow", "relaxed": "fun",
	"aa": "a", "ih": "i", "ou": "u", "ee": "e", "oh": "o",
	"blink": "blink", "blinkLeft": "blink_l", "blinkRight": "blink_r",
}

// writeVRM0 writes the VRM 0.x extension: meta, humanoid, firstPerson's
// lookAt, blend shape groups (weights 0..100, bound by mesh index) and
// the MToon material properties (colours in sRGB, outline width in cm).
func writeVRM0(w *writer) {
	var human []map[string]any
	for i, b := range bones {
		human = append(human, map[string]any{"bone": b.name, "node": i, "useDefaultValues": true})
	}
	var groups []map[string]any
	for i, name := range targetNames {
		preset, ok := presets0[name]
		if !ok {
			preset = "unknown"
		}
		groups = append(groups, map[string]any{
			"name": name, "presetName": preset, "isBinary": false,
			"binds":          []map[string]any{{"mesh": meshFace, "index": i, "weight": 100}},
			"materialValues": []any{},
		})
	}
	// The thumbnail: 0.x names a texture, not an image.
	w.d.Textures = append(w.d.Textures, texture{Sampler: 0, Source: 2})
	props := make([]map[string]any, len(w.d.Materials))
	for i, m := range w.d.Materials {
		mat := m.(material)
		base := mat.PBRMetallicRoughness["baseColorFactor"].([4]float32)
		tex := map[string]int{}
		if t, ok := mat.PBRMetallicRoughness["baseColorTexture"].(map[string]any); ok {
			tex["_MainTex"] = t["index"].(int)
		}
		outline := 0.0
		if i == matDress || i == matHair {
			outline = 0.35 // centimetres
		}
		props[i] = map[string]any{
			"name": mat.Name, "shader": "VRM/MToon", "renderQueue": 2000,
			"floatProperties": map[string]float64{
				"_BlendMode": 0, "_CullMode": 2, "_ShadeShift": 0.1, "_ShadeToony": 0.85,
				"_RimFresnelPower": 4, "_RimLift": 0.05, "_RimLightingMix": 0.5,
				"_OutlineWidthMode": 1, "_OutlineWidth": outline, "_OutlineColorMode": 1, "_OutlineLightingMix": 0.6,
			},
			"vectorProperties": map[string][]float32{
				"_Color":        {srgb(base[0]), srgb(base[1]), srgb(base[2]), base[3]},
				"_ShadeColor":   {0.6, 0.5, 0.55, 1},
				"_RimColor":     {0.3, 0.25, 0.25, 1},
				"_OutlineColor": {0.3, 0.2, 0.25, 1},
				"_MainTex":      {0, 0, 1, 1},
			},
			"textureProperties": tex,
			"keywordMap":        map[string]bool{},
			"tagMap":            map[string]string{"RenderType": "Opaque"},
		}
	}
	w.d.ExtensionsUsed = []string{"VRM"}
	w.d.Extensions = map[string]any{"VRM": map[string]any{
		"exporterVersion": "yui vrmtest",
		"specVersion":     "0.0",
		"meta": map[string]any{
			"title": "Test Avatar", "version": "1", "author": "Yui tests",
			"texture": len(w.d.Textures) - 1, "allowedUserName": "Everyone",
			"violentUssageName": "Disallow", "sexualUssageName": "Disallow", "commercialUssageName": "Allow",
			"licenseName": "CC0",
		},
		"humanoid": map[string]any{"humanBones": human},
		"firstPerson": map[string]any{
			"firstPersonBone":       bHead,
			"firstPersonBoneOffset": map[string]float32{"x": 0, "y": eyeY - bones[bHead].pos[1], "z": 0.08}, // Unity axes: +Z is the front
			"lookAtTypeName":        "Bone",
			"lookAtHorizontalInner": map[string]float32{"xRange": 90, "yRange": 8},
			"lookAtHorizontalOuter": map[string]float32{"xRange": 90, "yRange": 12},
			"lookAtVerticalDown":    map[string]float32{"xRange": 90, "yRange": 10},
			"lookAtVerticalUp":      map[string]float32{"xRange": 90, "yRange": 10},
		},
		"blendShapeMaster":   map[string]any{"blendShapeGroups": groups},
		"materialProperties": props,
	}}
}

// srgb encodes a linear colour component the way 0.x stores colours (the
// reader's 2.2 power undoes it).
func srgb(v float32) float32 {
	if v <= 0 {
		return 0
	}
	return float32(math.Pow(float64(v), 1/2.2))
}
