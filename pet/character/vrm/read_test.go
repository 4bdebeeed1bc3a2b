package vrm

import (
	"math"
	"testing"
)

// fixtureFacts are the facts /shared/fixtures/vrm/PROVENANCE.md lists for
// each file (read there from the files' JSON chunks).
type fixtureFacts struct {
	file                  string
	version               int
	meshes, tris          int
	maxTargets            int
	skins, joints         int
	humanoid              int
	expressions           int
	expressionsWithBinds  int
	nodes                 int
	title, author, allow  string
	license, commercial   string
	redistribution, mtoon bool
}

var fixtures = []fixtureFacts{
	{file: "sphere.vrm", version: 0, meshes: 1, tris: 960, skins: 1, joints: 22, humanoid: 22, nodes: 31,
		title: "sphere", author: "FMS_Cat", allow: "Everyone", license: "CC0", commercial: "corporation"},
	{file: "pose_rotation_scale_shape_key_skinned.vrm", version: 0, meshes: 1, tris: 1, maxTargets: 1, skins: 1,
		joints: 17, humanoid: 17, expressions: 17, expressionsWithBinds: 1, nodes: 18,
		title: "SimpleMorph", author: "@saturday06", allow: "Everyone", license: "CC0", commercial: "corporation"},
	{file: "mtoon1_2_20_61_vrm0.vrm", version: 0, meshes: 4, tris: 4, humanoid: 17, expressions: 13, nodes: 22,
		title: "undefined", author: "undefined", allow: "Everyone", license: "CC0", commercial: "corporation", mtoon: true},
	{file: "smoke_spring.vrm", version: 1, meshes: 2, tris: 2400, skins: 1, joints: 4, humanoid: 19, nodes: 25,
		title: "smoke_spring", author: "arkavo-org/vrm-conformance generator", allow: "Everyone",
		license: "https://vrm.dev/licenses/1.0/", commercial: "personalNonProfit", redistribution: true, mtoon: true},
	{file: "VRMC_materials_mtoon_UV_Animation_Test.vrm", version: 1, meshes: 3, tris: 6, humanoid: 53, nodes: 58,
		title: "VRMC_materials_mtoon UV Animation Test", author: "pixiv Inc.", allow: "Everyone",
		license: "https://vrm.dev/licenses/1.0/", commercial: "corporation", redistribution: true, mtoon: true},
	{file: "cryptovoxels.vrm", version: 0, meshes: 1, tris: 4907, skins: 1, joints: 57, humanoid: 43, nodes: 74,
		title: "cryptovoxels", author: "jin", allow: "Everyone",
		license:    "https://hub.vroid.com/license?allowed_to_use_user=everyone&characterization_allowed_user=everyone&corporate_commercial_use=allow&credit=unnecessary&modification=allow&personal_commercial_use=profit&redistribution=allow&sexual_expression=allow&version=1&violent_expression=allow",
		commercial: "corporation"},
}

func TestReadFixtures(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.file, func(t *testing.T) {
			m := readFixture(t, f.file)
			checkFacts(t, m, f)
			checkWellFormed(t, m)
		})
	}
}

func checkFacts(t *testing.T, m *Model, f fixtureFacts) {
	t.Helper()
	tris, targets := 0, 0
	for _, me := range m.Meshes {
		for _, p := range me.Primitives {
			tris += len(p.Indices) / 3
			targets = max(targets, len(p.Targets))
		}
	}
	joints := 0
	for _, s := range m.Skins {
		joints += len(s.Joints)
	}
	withBinds := 0
	for _, e := range m.Expressions {
		if len(e.Morphs) > 0 {
			withBinds++
		}
	}
	mtoon := false
	for _, mat := range m.Materials {
		mtoon = mtoon || mat.Toon != nil
	}
	got := fixtureFacts{file: f.file, version: m.SpecVersion, meshes: len(m.Meshes), tris: tris, maxTargets: targets,
		skins: len(m.Skins), joints: joints, humanoid: len(m.Humanoid), expressions: len(m.Expressions),
		expressionsWithBinds: withBinds, nodes: len(m.Nodes), title: m.Meta.Title, author: m.Meta.Author,
		allow: m.Meta.AllowedUser, license: m.Meta.License, commercial: m.Meta.Commercial,
		redistribution: m.Meta.Redistribution, mtoon: mtoon}
	if got != f {
		t.Errorf("read\n%+v\nwant\n%+v", got, f)
	}
}

// checkWellFormed checks the invariants the posing relies on.
func checkWellFormed(t *testing.T, m *Model) {
	t.Helper()
	for i, n := range m.Nodes {
		for _, c := range n.Children {
			if m.Nodes[c].Parent != i {
				t.Errorf("node %d's child %d has parent %d", i, c, m.Nodes[c].Parent)
			}
		}
		if n.Mesh >= len(m.Meshes) || n.Skin >= len(m.Skins) {
			t.Errorf("node %d: mesh %d / skin %d out of range", i, n.Mesh, n.Skin)
		}
	}
	for _, r := range m.Roots {
		if m.Nodes[r].Parent != -1 {
			t.Errorf("root %d has a parent", r)
		}
	}
	for name, n := range m.Humanoid {
		if n < 0 || n >= len(m.Nodes) {
			t.Errorf("bone %s: node %d out of range", name, n)
		}
	}
	if _, ok := m.Humanoid["hips"]; !ok {
		t.Error("no hips")
	}
	for mi, me := range m.Meshes {
		for pi, p := range me.Primitives {
			n := len(p.Positions)
			for _, ix := range p.Indices {
				if int(ix) >= n {
					t.Fatalf("mesh %d primitive %d: index %d of %d", mi, pi, ix, n)
				}
			}
			for _, l := range []int{len(p.Normals), len(p.UVs), len(p.Joints), len(p.Weights)} {
				if l != 0 && l != n {
					t.Errorf("mesh %d primitive %d: attribute of %d for %d vertices", mi, pi, l, n)
				}
			}
			for _, v := range p.Positions {
				for _, f := range v {
					if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
						t.Fatalf("mesh %d primitive %d: position %v", mi, pi, v)
					}
				}
			}
			for _, mt := range p.Targets {
				if len(mt.Positions) != n {
					t.Errorf("mesh %d primitive %d: target of %d for %d vertices", mi, pi, len(mt.Positions), n)
				}
			}
		}
	}
	for _, e := range m.Expressions {
		for _, b := range e.Morphs {
			if b.Mesh < 0 || b.Mesh >= len(m.Meshes) || b.Weight < 0 || b.Weight > 1 {
				t.Errorf("expression %s: bad bind %+v", e.Name, b)
			}
		}
	}
}

func TestReadFixtureDetails(t *testing.T) {
	t.Run("vrm0 presets renamed and weights scaled", func(t *testing.T) {
		m := readFixture(t, "pose_rotation_scale_shape_key_skinned.vrm")
		want := []string{"neutral", "aa", "ih", "ou", "ee", "oh", "blink", "happy", "angry", "sad", "relaxed",
			"lookUp", "lookDown", "lookLeft", "lookRight", "blinkLeft", "blinkRight"}
		for i, e := range m.Expressions {
			if e.Name != want[i] || !e.Preset {
				t.Errorf("expression %d = %q (preset %v), want preset %q", i, e.Name, e.Preset, want[i])
			}
		}
		aa := m.Expressions[1]
		if len(aa.Morphs) != 1 || aa.Morphs[0].Mesh != 0 || aa.Morphs[0].Index != 0 || aa.Morphs[0].Weight <= 0 || aa.Morphs[0].Weight > 1 {
			t.Errorf("aa binds %+v", aa.Morphs)
		}
	})
	t.Run("vrm0 turned to face +Z", func(t *testing.T) {
		m := readFixture(t, "sphere.vrm")
		for _, r := range m.Roots {
			q := m.Nodes[r].Rotation
			// A root without rotation in the file is now half a turn about Y.
			if q != (Quat{0, 1, 0, 0}) {
				t.Errorf("root %d rotation %v, want half a turn about Y", r, q)
			}
		}
	})
	t.Run("vrm0 mtoon converted", func(t *testing.T) {
		m := readFixture(t, "mtoon1_2_20_61_vrm0.vrm")
		want := []AlphaMode{AlphaOpaque, AlphaMask, AlphaBlend, AlphaBlend}
		for i, mat := range m.Materials {
			if mat.AlphaMode != want[i] || mat.Toon == nil {
				t.Errorf("material %s: alpha %d toon %v", mat.Name, mat.AlphaMode, mat.Toon)
			}
		}
		if !m.Materials[3].Toon.TransparentZWrite || m.Materials[2].Toon.TransparentZWrite {
			t.Error("TransparentWithZWrite not told from Transparent")
		}
		if m.Materials[0].BaseTexture.Index < 0 {
			t.Error("Opaque lost its _MainTex")
		}
		for i, tex := range m.Textures {
			if tex.MIME != "image/png" {
				t.Errorf("texture %d MIME %q", i, tex.MIME)
				continue
			}
			if _, err := tex.Decode(); err != nil {
				t.Errorf("texture %d: %v", i, err)
			}
		}
	})
	t.Run("vrm1 mtoon textures decode", func(t *testing.T) {
		m := readFixture(t, "VRMC_materials_mtoon_UV_Animation_Test.vrm")
		for i, tex := range m.Textures {
			img, err := tex.Decode()
			if err != nil || img.Bounds().Empty() {
				t.Errorf("texture %d: %v", i, err)
			}
		}
		if m.Roots[0] != 54 {
			t.Errorf("roots %v", m.Roots)
		}
	})
	t.Run("vrm1 lookAt", func(t *testing.T) {
		m := readFixture(t, "smoke_spring.vrm")
		if m.LookAt.Type != "bone" || m.LookAt.HorizontalOuter.InputMaxValue <= 0 {
			t.Errorf("lookAt %+v", m.LookAt)
		}
	})
}
