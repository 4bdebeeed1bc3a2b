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
