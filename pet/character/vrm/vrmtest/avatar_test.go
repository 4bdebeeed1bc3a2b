package vrmtest_test

import (
	"bytes"
	"math"
	"testing"

	"yui/pet/character/vrm"
	"yui/pet/character/vrm/vrmtest"
)

func read(t *testing.T, o vrmtest.Options) (*vrm.Model, []byte) {
	t.Helper()
	data := vrmtest.Avatar(o)
	m, err := vrm.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Read(Avatar(%+v)): %v", o, err)
	}
	return m, data
}

func triangles(m *vrm.Model) int {
	n := 0
	for _, me := range m.Meshes {
		for _, p := range me.Primitives {
			n += len(p.Indices) / 3
		}
	}
	return n
}

func TestAvatarReadsBack(t *testing.T) {
	m, _ := read(t, vrmtest.Options{})
	if m.SpecVersion != 1 {
		t.Errorf("spec version %d", m.SpecVersion)
	}
	want := vrm.Meta{Title: "Test Avatar", Version: "1", Author: "Yui tests",
		License: "https://creativecommons.org/publicdomain/zero/1.0/", AllowedUser: "Everyone",
		Commercial: "corporation", Redistribution: true, Thumbnail: m.Meta.Thumbnail}
	if m.Meta != want {
		t.Errorf("meta %+v", m.Meta)
	}
	if m.Meta.Thumbnail < 0 {
		t.Error("no thumbnail")
	} else if img, err := m.Textures[m.Meta.Thumbnail].Decode(); err != nil || img.Bounds().Dx() != 64 {
		t.Errorf("thumbnail: %v", err)
	}
	for _, b := range []string{"hips", "spine", "chest", "upperChest", "neck", "head", "leftEye", "rightEye",
		"leftShoulder", "leftUpperArm", "leftLowerArm", "leftHand", "rightShoulder", "rightUpperArm",
		"rightLowerArm", "rightHand", "leftUpperLeg", "leftLowerLeg", "leftFoot", "leftToes",
		"rightUpperLeg", "rightLowerLeg", "rightFoot", "rightToes"} {
		if _, ok := m.Humanoid[b]; !ok {
			t.Errorf("no %s bone", b)
		}
	}
	if m.LookAt.Type != "bone" || m.LookAt.HorizontalOuter.OutputScale != 12 {
		t.Errorf("lookAt %+v", m.LookAt)
	}
	if len(m.Skins) != 1 || len(m.Skins[0].Joints) != len(m.Humanoid) {
		t.Errorf("skins %d", len(m.Skins))
	}
	if len(m.Materials) != 6 {
		t.Fatalf("%d materials", len(m.Materials))
	}
	for _, mat := range m.Materials {
		if mat.Toon == nil {
			t.Errorf("material %s is not MToon", mat.Name)
		}
	}
	if m.Materials[1].Toon.OutlineMode != vrm.OutlineWorld || m.Materials[1].Toon.OutlineWidth <= 0 {
		t.Errorf("the dress has no outline: %+v", m.Materials[1].Toon)
	}
	for _, i := range []int{m.Materials[0].BaseTexture.Index, m.Materials[1].BaseTexture.Index} {
		img, err := m.Textures[i].Decode()
		if err != nil || img.Bounds().Dx() != 256 {
			t.Errorf("texture %d: %v", i, err)
		}
	}
	for _, me := range m.Meshes {
		for _, p := range me.Primitives {
			if len(p.Joints) != len(p.Positions) || len(p.UVs) != len(p.Positions) || len(p.Normals) != len(p.Positions) {
				t.Errorf("mesh %s: attributes missing", me.Name)
			}
			for _, w := range p.Weights {
				if s := w[0] + w[1] + w[2] + w[3]; math.Abs(float64(s)-1) > 1e-4 {
					t.Fatalf("mesh %s: weights sum to %v", me.Name, s)
				}
			}
		}
	}
}

// TestAvatarExpressionsShow checks every expression moves the face by a
// visible amount (over a millimetre) and that the presets are all there.
func TestAvatarExpressionsShow(t *testing.T) {
	m, _ := read(t, vrmtest.Options{})
	presets := map[string]bool{}
	for _, e := range m.Expressions {
		if e.Preset {
			presets[e.Name] = true
		} else if e.Name != "smirk" && e.Name != "puzzled" {
			t.Errorf("unexpected custom expression %q", e.Name)
		}
		if len(e.Morphs) == 0 {
			t.Errorf("%s binds nothing", e.Name)
			continue
		}
		b := e.Morphs[0]
		var most float64
		for _, p := range m.Meshes[b.Mesh].Primitives {
			for _, d := range p.Targets[b.Index].Positions {
				most = math.Max(most, math.Sqrt(float64(d[0]*d[0]+d[1]*d[1]+d[2]*d[2])))
			}
		}
		if most < 0.001 {
			t.Errorf("%s moves the face at most %.4f m", e.Name, most)
		}
	}
	for _, p := range []string{"happy", "angry", "sad", "relaxed", "surprised", "aa", "ih", "ou", "ee", "oh",
		"blink", "blinkLeft", "blinkRight"} {
		if !presets[p] {
			t.Errorf("no %s preset", p)
		}
	}
}

func TestAvatarDeterministic(t *testing.T) {
	a := vrmtest.Avatar(vrmtest.Options{Subdivisions: 6, TextureSize: 64})
	b := vrmtest.Avatar(vrmtest.Options{Subdivisions: 6, TextureSize: 64})
	if !bytes.Equal(a, b) {
		t.Fatal("the same options gave different bytes")
	}
}

func TestAvatarSizes(t *testing.T) {
	for _, want := range []int{5000, 100000} {
		if want > 5000 && testing.Short() {
			continue
		}
		m, data := read(t, vrmtest.Options{Triangles: want, TextureSize: 64})
		got := triangles(m)
		if math.Abs(float64(got-want)) > 0.15*float64(want) {
			t.Errorf("asked for %d triangles, got %d", want, got)
		}
		t.Logf("%d triangles: %d bytes", got, len(data))
	}
}

func TestAvatarBigTextures(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes two 4096² textures")
	}
	m, data := read(t, vrmtest.Options{Subdivisions: 4, TextureSize: 4096})
	img, err := m.Textures[m.Materials[1].BaseTexture.Index].Decode()
	if err != nil || img.Bounds().Dx() != 4096 {
		t.Fatalf("dress texture: %v", err)
	}
	t.Logf("%d bytes", len(data))
}

func TestWaveReadsBack(t *testing.T) {
	for _, step := range []bool{false, true} {
		c, err := vrm.ReadClip(bytes.NewReader(vrmtest.Wave(vrmtest.ClipOptions{Step: step})))
		if err != nil {
			t.Fatal(err)
		}
		if c.Name != "Wave" || c.Duration != 2 || len(c.Rotations) != 2 {
			t.Fatalf("clip %q %vs %d tracks", c.Name, c.Duration, len(c.Rotations))
		}
		arm := c.Rotations["leftUpperArm"]
		if len(arm.Times) != 9 || arm.Step != step {
			t.Fatalf("arm track %d keys, step %v", len(arm.Times), arm.Step)
		}
		// Halfway, the arm is 60° up: a rotation about +Z of 60°.
		q := arm.Values[4]
		if math.Abs(float64(q[2])-0.5) > 1e-3 || math.Abs(float64(q[3])-math.Sqrt(3)/2) > 1e-3 {
			t.Errorf("arm halfway %v", q)
		}
		if happy := c.Expressions["happy"]; len(happy.Values) != 9 || math.Abs(float64(happy.Values[4])-1) > 1e-6 {
			t.Errorf("happy %+v", happy)
		}
		hips := c.HipsTranslation
		if len(hips.Values) != 9 || math.Abs(float64(hips.Values[2][1])-0.93) > 1e-3 {
			t.Errorf("hips %v", hips.Values)
		}
	}
}

func TestAvatarVRM0(t *testing.T) {
	m0, _ := read(t, vrmtest.Options{VRM0: true})
	m1, _ := read(t, vrmtest.Options{})
	if m0.SpecVersion != 0 || m0.Meta.Title != "Test Avatar" || m0.Meta.License != "CC0" || m0.Meta.Thumbnail < 0 {
		t.Fatalf("version %d meta %+v", m0.SpecVersion, m0.Meta)
	}
	if len(m0.Expressions) != len(m1.Expressions) {
		t.Errorf("%d expressions, VRM 1.0 has %d", len(m0.Expressions), len(m1.Expressions))
	}
	names := map[string]bool{}
	for _, e := range m0.Expressions {
		names[e.Name] = e.Preset
		if len(e.Morphs) != 1 || e.Morphs[0].Weight != 1 {
			t.Errorf("%s binds %+v", e.Name, e.Morphs)
		}
	}
	if !names["happy"] || !names["blinkLeft"] || names["surprised"] {
		t.Errorf("expressions %v (surprised is custom in 0.x)", names)
	}
	for i, mat := range m0.Materials {
		if mat.Toon == nil {
			t.Fatalf("material %d not MToon", i)
		}
		for k := 0; k < 3; k++ {
			if d := math.Abs(float64(mat.BaseColor[k] - m1.Materials[i].BaseColor[k])); d > 1e-3 {
				t.Errorf("material %d base colour %v, VRM 1.0 %v", i, mat.BaseColor, m1.Materials[i].BaseColor)
			}
		}
	}
	if w := m0.Materials[1].Toon.OutlineWidth; math.Abs(float64(w)-0.0035) > 1e-6 {
		t.Errorf("outline %v m, want 0.35 cm", w)
	}
	// Turned back to face +Z, the 0.x avatar's vertices match the 1.0
	// one's: the root turns half a turn, the positions are its mirror.
	if q := m0.Nodes[m0.Roots[0]].Rotation; q != (vrm.Quat{0, 1, 0, 0}) {
		t.Errorf("root rotation %v", q)
	}
	p0, p1 := m0.Meshes[0].Primitives[0].Positions, m1.Meshes[0].Primitives[0].Positions
	for i := range p1 {
		if p0[i][0] != -p1[i][0] || p0[i][1] != p1[i][1] || p0[i][2] != -p1[i][2] {
			t.Fatalf("vertex %d: %v and %v", i, p0[i], p1[i])
		}
	}
}

func TestAvatarGrain(t *testing.T) {
	plain := vrmtest.Avatar(vrmtest.Options{Subdivisions: 3, TextureSize: 512})
	grainy := vrmtest.Avatar(vrmtest.Options{Subdivisions: 3, TextureSize: 512, Grain: true})
	// Two 512² textures of noise weigh over 100 kB more than plain ones.
	if len(grainy)-len(plain) < 100<<10 {
		t.Errorf("grain added %d bytes", len(grainy)-len(plain))
	}
	if _, err := vrm.Read(bytes.NewReader(grainy)); err != nil {
		t.Fatal(err)
	}
}
