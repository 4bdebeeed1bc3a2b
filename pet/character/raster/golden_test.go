package raster

import (
	"bytes"
	"context"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden pictures under testdata/")

// goldenTolerance is the per-channel difference a golden comparison
// forgives: a rounding moved by a harmless change is not a failure, a
// changed look is.
const goldenTolerance = 3

// checkGolden compares img with testdata/name.png. On a mismatch it
// leaves the picture drawn and a diff (red where they differ) in the
// test's artifact directory (go test -artifacts keeps it).
func checkGolden(t *testing.T, name string, img *image.NRGBA) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run go test -update to write it)", name, err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("golden %s: %v", name, err)
	}
	if want.Bounds() != img.Bounds() {
		t.Fatalf("golden %s: size %v, want %v", name, img.Bounds(), want.Bounds())
	}
	diff := image.NewNRGBA(img.Bounds())
	bad, worst := 0, 0
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			g := img.NRGBAAt(x, y)
			w := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
			d := max(absDiff(g.R, w.R), absDiff(g.G, w.G), absDiff(g.B, w.B), absDiff(g.A, w.A))
			worst = max(worst, d)
			if d > goldenTolerance {
				bad++
				diff.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 255})
			} else {
				diff.SetNRGBA(x, y, color.NRGBA{g.R / 4, g.G / 4, g.B / 4, 255})
			}
		}
	}
	if bad == 0 {
		return
	}
	dir := t.ArtifactDir()
	for n, im := range map[string]*image.NRGBA{name + ".got.png": img, name + ".diff.png": diff} {
		var buf bytes.Buffer
		_ = png.Encode(&buf, im)
		_ = os.WriteFile(filepath.Join(dir, n), buf.Bytes(), 0o644)
	}
	t.Errorf("golden %s: %d pixels differ by more than %d (worst %d); picture and diff in %s",
		name, bad, goldenTolerance, worst, dir)
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func mustRender(t testing.TB, s *Scene, o Options) *image.NRGBA {
	t.Helper()
	img, err := Render(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// goldenScenes are the small synthetic pictures checked on every run.
func goldenScenes() map[string]func() (*Scene, Options) {
	o := Options{Width: 64, Height: 64, Workers: 2}
	return map[string]func() (*Scene, Options){
		"checker_perspective": func() (*Scene, Options) { return checkerFloor(), o },
		"lit_sphere": func() (*Scene, Options) {
			m := opaque(1, 1, 1)
			m.BaseTexture = &Texture{Image: checker(16, 4, color.NRGBA{220, 80, 60, 255}, color.NRGBA{240, 230, 200, 255})}
			return scene(sphere(Vec3{}, 0.8, 16, 24, m)), o
		},
		"toon_sphere":    func() (*Scene, Options) { return toonSphere(0, 0), o },
		"rim_sphere":     func() (*Scene, Options) { return toonSphere(1, 0), o },
		"outline_sphere": func() (*Scene, Options) { return toonSphere(0, 0.04), o },
		"mask":           func() (*Scene, Options) { return maskScene(), o },
		"blend_order":    func() (*Scene, Options) { return blendScene(), o },
		"double_sided":   func() (*Scene, Options) { return doubleSidedScene(), o },
		"unlit":          func() (*Scene, Options) { return unlitScene(), o },
		"shadow":         func() (*Scene, Options) { return shadowScene(), o },
		"ssaa_edges": func() (*Scene, Options) {
			m := &Material{BaseColor: Vec4{0.1, 0.3, 0.9, 1}, Unlit: true}
			me := Mesh{Positions: []Vec3{{-0.9, -0.8, 0}, {0.9, -0.5, 0}, {-0.2, 0.9, 0}}, Indices: []uint32{0, 1, 2}, Material: m}
			return scene(me), o
		},
	}
}

func TestGolden(t *testing.T) {
	for name, mk := range goldenScenes() {
		t.Run(name, func(t *testing.T) {
			s, o := mk()
			checkGolden(t, name, mustRender(t, s, o))
		})
	}
}

// checkerFloor is a textured floor going away from the camera: the
// squares must shrink with distance and stay squares in perspective.
func checkerFloor() *Scene {
	m := &Material{BaseColor: Vec4{1, 1, 1, 1}, Unlit: true, UV: UVTransform{Scale: Vec2{4, 8}}}
	m.BaseTexture = &Texture{Image: checker(2, 1, color.NRGBA{20, 20, 20, 255}, color.NRGBA{240, 240, 240, 255}), Nearest: true}
	s := scene(quad([4]Vec3{{-1, -0.5, 1}, {1, -0.5, 1}, {1, -0.5, -7}, {-1, -0.5, -7}}, m))
	s.Camera.Eye = Vec3{0, 0.3, 2.2}
	s.Camera.Target = Vec3{0, -0.4, 0}
	return s
}

func toonSphere(rim, outline float32) *Scene {
	m := toonMat(Vec3{0.95, 0.55, 0.65}, Vec3{0.45, 0.2, 0.45})
	m.Toon.ShadingShift = -0.1
	if rim > 0 {
		m.Toon.RimColor = Vec3{0.3, 0.6, 1}
		m.Toon.RimFresnelPower = 3
		m.Toon.RimLift = 0.1
	}
	if outline > 0 {
		m.Toon.OutlineMode = OutlineWorld
		m.Toon.OutlineWidth = outline
		m.Toon.OutlineColor = Vec3{0.05, 0.02, 0.08}
	}
	s := scene(sphere(Vec3{}, 0.8, 16, 24, m))
	s.Light.Direction = Vec3{1, -0.3, -0.5}
	return s
}

// maskScene is a quad whose texture is see-through on its left half:
// masked, the left half is cut away.
func maskScene() *Scene {
	img := solidTex(8, 8, color.NRGBA{40, 160, 60, 255})
	for y := range 8 {
		for x := range 4 {
			img.SetNRGBA(x, y, color.NRGBA{200, 0, 0, 60})
		}
	}
	m := &Material{BaseColor: Vec4{1, 1, 1, 1}, BaseTexture: &Texture{Image: img, Nearest: true}, AlphaMode: AlphaMask, AlphaCutoff: 0.5, Unlit: true}
	return scene(square(0, 0, 0, 0.8, m))
}

// blendScene has two half-transparent squares given near first: drawn
// back to front, the near one's colour wins where they overlap.
func blendScene() *Scene {
	red := &Material{BaseColor: Vec4{1, 0, 0, 0.6}, AlphaMode: AlphaBlend, Unlit: true}
	blue := &Material{BaseColor: Vec4{0, 0, 1, 0.6}, AlphaMode: AlphaBlend, Unlit: true}
	return scene(square(0.25, 0.25, 0.5, 0.5, red), square(-0.25, -0.25, -0.5, 0.6, blue))
}

// doubleSidedScene shows two squares from behind: the left one
// double-sided (drawn, lit on its flipped normal), the right one not
// (culled).
func doubleSidedScene() *Scene {
	back := func(x float32, m *Material) Mesh {
		q := square(x, 0, 0, 0.4, m)
		q.Indices = []uint32{0, 2, 1, 0, 3, 2}
		for i := range q.Normals {
			q.Normals[i] = Vec3{0, 0, -1}
		}
		return q
	}
	ds := opaque(0.9, 0.8, 0.2)
	ds.DoubleSided = true
	s := scene(back(-0.5, ds), back(0.5, opaque(0.2, 0.8, 0.9)))
	s.Light.Direction = Vec3{0, 0, -1}
	return s
}

func unlitScene() *Scene {
	m := &Material{BaseColor: Vec4{0.2, 0.5, 0.1, 1}, Unlit: true}
	return scene(square(0, 0, 0, 0.7, m))
}

func shadowScene() *Scene {
	s := scene(sphere(Vec3{0, 0.1, 0}, 0.5, 12, 16, opaque(0.8, 0.8, 0.9)))
	s.Camera.Eye = Vec3{0, 1, 3}
	s.Camera.Target = Vec3{0, -0.2, 0}
	s.Shadow = &Shadow{Ground: -0.45, RadiusX: 0.9, RadiusZ: 0.5, Opacity: 0.5}
	return s
}
