package vrmtest

import "math"

// ClipOptions shape a test animation.
type ClipOptions struct {
	// Seconds is the clip's length (default 2); Keys its keyframes per
	// track (default 9).
	Seconds float32
	Keys    int
	// Step makes the tracks step instead of interpolating linearly.
	Step bool
}

// Wave returns the bytes of a .vrma clip (VRMC_vrm_animation 1.0) on the
// test avatar's skeleton: the left arm waves (its upper arm swings about
// Z, up to 60° over the T-pose and back), the head nods 15°, the hips
// bob 3 cm, and a smile (the happy expression) comes and goes. The rest
// skeleton is Avatar's T-pose, so each rotation in the file is the
// bone's normalised rotation.
func Wave(o ClipOptions) []byte {
	if o.Seconds <= 0 {
		o.Seconds = 2
	}
	if o.Keys < 2 {
		o.Keys = 9
	}
	w := &writer{}
	w.d.Asset = asset{Version: "2.0", Generator: "yui vrmtest"}
	for i, b := range bones {
		n := node{Name: b.name}
		t := b.pos
		if b.parent >= 0 {
			p := bones[b.parent].pos
			t = vec3{t[0] - p[0], t[1] - p[1], t[2] - p[2]}
		}
		n.Translation = &t
		for j, c := range bones {
			if c.parent == i {
				n.Children = append(n.Children, j)
			}
		}
		w.d.Nodes = append(w.d.Nodes, n)
	}
	w.d.Scenes = []scene{{Nodes: []int{bHips}}}
	times := make([]float32, o.Keys)
	arm := make([]float32, 0, 4*o.Keys)
	head := make([]float32, 0, 4*o.Keys)
	hips := make([]float32, 0, 3*o.Keys)
	for i := range times {
		f := float64(i) / float64(o.Keys-1)
		times[i] = o.Seconds * float32(f)
		a := math.Pi / 3 * math.Sin(math.Pi*f) // 0 → 60° → 0
		arm = append(arm, 0, 0, float32(math.Sin(a/2)), float32(math.Cos(a/2)))
		h := math.Pi / 12 * math.Sin(2*math.Pi*f)
		head = append(head, float32(math.Sin(h/2)), 0, 0, float32(math.Cos(h/2)))
		p := bones[bHips].pos
		hips = append(hips, p[0], p[1]+0.03*float32(math.Sin(2*math.Pi*f)), p[2])
	}
	in := w.floats(times, 1, "SCALAR", true, 0)
	interp := "LINEAR"
	if o.Step {
		interp = "STEP"
	}
	samplers := []map[string]any{
		{"input": in, "output": w.floats(arm, 4, "VEC4", false, 0), "interpolation": interp},
		{"input": in, "output": w.floats(head, 4, "VEC4", false, 0), "interpolation": interp},
		{"input": in, "output": w.floats(hips, 3, "VEC3", false, 0), "interpolation": interp},
	}
	channels := []map[string]any{
		{"sampler": 0, "target": map[string]any{"node": bLeftUpperArm, "path": "rotation"}},
		{"sampler": 1, "target": map[string]any{"node": bHead, "path": "rotation"}},
		{"sampler": 2, "target": map[string]any{"node": bHips, "path": "translation"}},
	}
	// A smile that comes and goes, on an expression node: its X is the
	// weight.
	smile := make([]float32, 0, 3*o.Keys)
	for i := range times {
		f := float64(i) / float64(o.Keys-1)
		smile = append(smile, float32(math.Sin(math.Pi*f)), 0, 0)
	}
	samplers = append(samplers, map[string]any{"input": in, "output": w.floats(smile, 3, "VEC3", false, 0), "interpolation": interp})
	exprNode := len(w.d.Nodes)
	w.d.Nodes = append(w.d.Nodes, node{Name: "happy"})
	w.d.Scenes[0].Nodes = append(w.d.Scenes[0].Nodes, exprNode)
	channels = append(channels, map[string]any{"sampler": 3, "target": map[string]any{"node": exprNode, "path": "translation"}})
	w.d.Animations = []map[string]any{{"name": "Wave", "samplers": samplers, "channels": channels}}
	human := map[string]any{}
	for i, b := range bones {
		human[b.name] = map[string]int{"node": i}
	}
	w.d.ExtensionsUsed = []string{"VRMC_vrm_animation"}
	w.d.Extensions = map[string]any{"VRMC_vrm_animation": map[string]any{
		"specVersion": "1.0",
		"humanoid":    map[string]any{"humanBones": human},
		"expressions": map[string]any{"preset": map[string]any{"happy": map[string]int{"node": exprNode}}},
	}}
	return w.glb()
}
