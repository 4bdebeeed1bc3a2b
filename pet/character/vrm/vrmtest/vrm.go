package vrmtest

// writeVRM writes the VRMC_vrm extension: meta, humanoid, lookAt and the
// expressions, each bound to its morph target of the Face mesh.
func writeVRM(w *writer) {
	human := map[string]any{}
	for i, b := range bones {
		human[b.name] = map[string]int{"node": i}
	}
	preset, custom := map[string]any{}, map[string]any{}
	for i, name := range targetNames {
		e := map[string]any{
			"morphTargetBinds": []map[string]any{{"node": nodeFace, "index": i, "weight": 1.0}},
			"isBinary":         false,
		}
		switch name {
		case "blink", "blinkLeft", "blinkRight":
			// Blinking blocks nothing; the emotions block blinking.
		case "happy", "angry", "sad", "relaxed", "surprised":
			e["overrideBlink"] = "blend"
		}
		if name == "angry" {
			// A colour bind too: the skin flushes.
			e["materialColorBinds"] = []map[string]any{{"material": matSkin, "type": "color", "targetValue": [4]float32{1, 0.8, 0.8, 1}}}
		}
		if customExpressions[name] {
			custom[name] = e
		} else {
			preset[name] = e
		}
	}
	w.d.ExtensionsUsed = []string{"VRMC_materials_mtoon", "VRMC_vrm"}
	w.d.Extensions = map[string]any{"VRMC_vrm": map[string]any{
		"specVersion": "1.0",
		"meta": map[string]any{
			"name":                "Test Avatar",
			"version":             "1",
			"authors":             []string{"Yui tests"},
			"licenseUrl":          "https://creativecommons.org/publicdomain/zero/1.0/",
			"avatarPermission":    "everyone",
			"commercialUsage":     "corporation",
			"allowRedistribution": true,
			"modification":        "allowModificationRedistribution",
			"creditNotation":      "unnecessary",
			"thumbnailImage":      2,
		},
		"humanoid": map[string]any{"humanBones": human},
		"lookAt": map[string]any{
			"type":                    "bone",
			"offsetFromHeadBone":      [3]float32{0, eyeY - bones[bHead].pos[1], 0.08},
			"rangeMapHorizontalInner": map[string]float32{"inputMaxValue": 90, "outputScale": 8},
			"rangeMapHorizontalOuter": map[string]float32{"inputMaxValue": 90, "outputScale": 12},
			"rangeMapVerticalDown":    map[string]float32{"inputMaxValue": 90, "outputScale": 10},
			"rangeMapVerticalUp":      map[string]float32{"inputMaxValue": 90, "outputScale": 10},
		},
		"expressions": map[string]any{"preset": preset, "custom": custom},
	}}
}
