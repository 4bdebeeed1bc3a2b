package raster

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"math"
	"runtime"
	"sync/atomic"
	"testing"
)

// These tests judge the pictures as a person would: the object's colour
// where it should be, a clear background, the outline a darker ring.

func at(img *image.NRGBA, x, y int) color.NRGBA { return img.NRGBAAt(x, y) }

func near8(a, b uint8, tol int) bool { return absDiff(a, b) <= tol }

func TestBackgroundIsTransparent(t *testing.T) {
	img := mustRender(t, toonSphere(1, 0.04), Options{Width: 64, Height: 64})
	for _, p := range []image.Point{{0, 0}, {63, 0}, {0, 63}, {63, 63}} {
		if a := at(img, p.X, p.Y).A; a != 0 {
			t.Errorf("corner %v alpha %d, want 0", p, a)
		}
	}
	if a := at(img, 32, 32).A; a != 255 {
		t.Errorf("centre alpha %d, want 255", a)
	}
}

func TestUnlitIsItsColour(t *testing.T) {
	img := mustRender(t, unlitScene(), Options{Width: 64, Height: 64})
	ct := newColorTables()
	want := color.NRGBA{ct.encode(0.2), ct.encode(0.5), ct.encode(0.1), 255}
	if got := at(img, 32, 32); got != want {
		t.Errorf("unlit centre %v, want %v (linear base colour in sRGB)", got, want)
	}
}

func TestToonStep(t *testing.T) {
	img := mustRender(t, toonSphere(0, 0), Options{Width: 64, Height: 64})
	ct := newColorTables()
	lit, shade := at(img, 20, 32), at(img, 52, 32)
	// The light comes from the left: the left is the lit colour (with
	// ambient), the right the shade colour.
	if lit.R < 240 || lit.G <= lit.B-40 {
		t.Errorf("lit side %v, want a light pink", lit)
	}
	wantShade := color.NRGBA{ct.encode(0.45 + 0.2*0.95), ct.encode(0.2 + 0.2*0.55), ct.encode(0.45 + 0.2*0.65), 255}
	if !near8(shade.R, wantShade.R, 6) || !near8(shade.G, wantShade.G, 6) || !near8(shade.B, wantShade.B, 6) {
		t.Errorf("shade side %v, want about %v (shade colour plus ambient)", shade, wantShade)
	}
}

func TestRimBrightensTheEdge(t *testing.T) {
	plain := mustRender(t, toonSphere(0, 0), Options{Width: 64, Height: 64})
	rim := mustRender(t, toonSphere(1, 0), Options{Width: 64, Height: 64})
	// Near the silhouette, the rim adds blue; in the middle, nearly nothing.
	e0, e1 := at(plain, 32, 7), at(rim, 32, 7)
	if int(e1.B) < int(e0.B)+20 {
		t.Errorf("edge blue %d with rim, %d without: want it clearly brighter", e1.B, e0.B)
	}
	c0, c1 := at(plain, 32, 32), at(rim, 32, 32)
	if absDiff(c0.B, c1.B) > 8 {
		t.Errorf("centre blue %d with rim, %d without: want about the same", c1.B, c0.B)
	}
}

func TestOutlineIsADarkRing(t *testing.T) {
	plain := mustRender(t, toonSphere(0, 0), Options{Width: 64, Height: 64})
	out := mustRender(t, toonSphere(0, 0.04), Options{Width: 64, Height: 64})
	ring := 0
	for x := range 64 {
		p, o := at(plain, x, 32), at(out, x, 32)
		if p.A == 0 && o.A > 128 {
			if o.R > 80 || o.G > 80 || o.B > 80 {
				t.Errorf("outline pixel %d is %v, want dark", x, o)
			}
			ring++
		}
	}
	if ring < 2 {
		t.Errorf("%d outline pixels beside the silhouette on the middle row, want a ring", ring)
	}
	if c := at(out, 32, 32); c != at(plain, 32, 32) {
		t.Errorf("the outline changed the middle: %v", c)
	}
}

func TestMaskCutsAway(t *testing.T) {
	img := mustRender(t, maskScene(), Options{Width: 64, Height: 64})
	if a := at(img, 24, 32).A; a != 0 {
		t.Errorf("masked left half alpha %d, want 0", a)
	}
	if c := at(img, 40, 32); c.A != 255 || c.G < c.R {
		t.Errorf("kept right half %v, want opaque green", c)
	}
}

func TestBlendBackToFront(t *testing.T) {
	img := mustRender(t, blendScene(), Options{Width: 64, Height: 64})
	// Where the near red square lies over the far blue one.
	c := at(img, 29, 35)
	if c.R < c.B+40 {
		t.Errorf("overlap %v: the near red square should dominate", c)
	}
	if c.A < 210 {
		t.Errorf("overlap alpha %d, want 1-(0.4×0.4) ≈ 214", c.A)
	}
	// Only the far square: blue at 0.6.
	b := at(img, 14, 50)
	if b.B < 200 || b.R > 30 || !near8(b.A, 153, 3) {
		t.Errorf("blue alone %v, want blue at alpha 153", b)
	}
}

func TestDoubleSided(t *testing.T) {
	img := mustRender(t, doubleSidedScene(), Options{Width: 64, Height: 64})
	if c := at(img, 16, 32); c.A != 255 || c.R < 200 {
		t.Errorf("double-sided back face %v, want drawn and lit (its normal flipped)", c)
	}
	if a := at(img, 48, 32).A; a != 0 {
		t.Errorf("single-sided back face alpha %d, want culled", a)
	}
}

func TestShadowUnderTheFigure(t *testing.T) {
	s := shadowScene()
	img := mustRender(t, s, Options{Width: 64, Height: 64})
	x, y, ok := Project(s.Camera, Options{Width: 64, Height: 64}, Vec3{0.6, s.Shadow.Ground, 0})
	if !ok {
		t.Fatal("the ground is behind the camera")
	}
	c := at(img, int(x), int(y))
	if c.A == 0 || c.A > 140 || c.R > 80 {
		t.Errorf("shadow beside the figure %v, want dark and half transparent", c)
	}
	x, y, _ = Project(s.Camera, Options{Width: 64, Height: 64}, Vec3{1.2, s.Shadow.Ground, 0})
	if a := at(img, int(x), int(y)).A; a != 0 {
		t.Errorf("past the shadow's rim alpha %d, want 0", a)
	}
	s.Shadow = nil
	if a := at(mustRender(t, s, Options{Width: 64, Height: 64}), int(x), int(y)).A; a != 0 {
		t.Errorf("without a shadow alpha %d", a)
	}
}

// TestPerspectiveCorrect: a floor whose far half is red and near half
// blue changes colour where the floor's middle projects, not half way
// down its picture (where affine interpolation would put it).
func TestPerspectiveCorrect(t *testing.T) {
	img := solidTex(2, 2, color.NRGBA{0, 0, 255, 255})
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	img.SetNRGBA(1, 0, color.NRGBA{255, 0, 0, 255})
	m := &Material{BaseColor: Vec4{1, 1, 1, 1}, Unlit: true, BaseTexture: &Texture{Image: img, Nearest: true}}
	s := scene(quad([4]Vec3{{-1, -0.5, 1}, {1, -0.5, 1}, {1, -0.5, -5}, {-1, -0.5, -5}}, m))
	s.Camera.Eye = Vec3{0, 0.3, 2.2}
	o := Options{Width: 64, Height: 96}
	out := mustRender(t, s, o)
	_, yMid, _ := Project(s.Camera, o, Vec3{0, -0.5, -2})
	_, yNear, _ := Project(s.Camera, o, Vec3{0, -0.5, 1})
	_, yFar, _ := Project(s.Camera, o, Vec3{0, -0.5, -5})
	if math.Abs(float64(yMid-(yNear+yFar)/2)) < 6 {
		t.Fatalf("scene too flat to tell: mid %v, near %v, far %v", yMid, yNear, yFar)
	}
	above, below := at(out, 32, int(yMid)-2), at(out, 32, int(yMid)+2)
	if above.R < 200 || below.B < 200 {
		t.Errorf("colour change not at the floor's middle (row %.1f): above %v, below %v", yMid, above, below)
	}
}

func TestSupersampleSmoothsEdges(t *testing.T) {
	s, _ := goldenScenes()["ssaa_edges"]()
	partial := func(img *image.NRGBA) int {
		n := 0
		for i := 3; i < len(img.Pix); i += 4 {
			if a := img.Pix[i]; a > 0 && a < 255 {
				n++
			}
		}
		return n
	}
	if n := partial(mustRender(t, s, Options{Width: 64, Height: 64, Supersample: 1})); n != 0 {
		t.Errorf("without supersampling %d pixels half covered, want 0", n)
	}
	if n := partial(mustRender(t, s, Options{Width: 64, Height: 64})); n < 60 {
		t.Errorf("with supersampling %d pixels half covered, want the edges smoothed", n)
	}
}

func TestWorkersGiveTheSamePixels(t *testing.T) {
	s := toonSphere(1, 0.03)
	s.Meshes = append(s.Meshes, blendScene().Meshes...)
	s.Shadow = &Shadow{Ground: -0.8, RadiusX: 1, RadiusZ: 0.5, Opacity: 0.5}
	a := mustRender(t, s, Options{Width: 80, Height: 100, Workers: 1})
	b := mustRender(t, s, Options{Width: 80, Height: 100, Workers: 4})
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Error("1 worker and 4 workers drew different pixels")
	}
}

func TestProject(t *testing.T) {
	c := testCamera()
	o := Options{Width: 100, Height: 50}
	x, y, ok := Project(c, o, Vec3{0, 0, 0})
	if !ok || x != 50 || y != 25 {
		t.Errorf("target at (%v, %v, %v), want the middle", x, y, ok)
	}
	x, y, _ = Project(c, o, Vec3{0, 0.5, 0})
	if y >= 25 {
		t.Errorf("a point above the target projects to row %v, want above the middle", y)
	}
	_, _, ok = Project(c, o, Vec3{0, 0, 5})
	if ok {
		t.Error("a point behind the camera reported in front")
	}
}

func TestNearPlaneClipping(t *testing.T) {
	// A floor running from behind the camera into the distance: clipped,
	// it fills the bottom of the picture without stray triangles.
	m := &Material{BaseColor: Vec4{0.5, 0.5, 0.5, 1}, Unlit: true}
	s := scene(quad([4]Vec3{{-5, -0.5, 10}, {5, -0.5, 10}, {5, -0.5, -10}, {-5, -0.5, -10}}, m))
	img := mustRender(t, s, Options{Width: 32, Height: 32})
	if a := at(img, 16, 31).A; a != 255 {
		t.Errorf("bottom alpha %d, want the floor", a)
	}
	if a := at(img, 16, 2).A; a != 0 {
		t.Errorf("top alpha %d, want sky", a)
	}
}

func TestRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	good := func() *Scene { return unlitScene() }
	o := Options{Width: 16, Height: 16}
	cases := map[string]func() (*Scene, Options){
		"index past the vertices": func() (*Scene, Options) { s := good(); s.Meshes[0].Indices[2] = 9; return s, o },
		"normals":                 func() (*Scene, Options) { s := good(); s.Meshes[0].Normals = s.Meshes[0].Normals[:2]; return s, o },
		"uvs":                     func() (*Scene, Options) { s := good(); s.Meshes[0].UVs = s.Meshes[0].UVs[:1]; return s, o },
		"colours":                 func() (*Scene, Options) { s := good(); s.Meshes[0].Colors = []Vec4{{}}; return s, o },
		"partial triangle":        func() (*Scene, Options) { s := good(); s.Meshes[0].Indices = s.Meshes[0].Indices[:4]; return s, o },
		"zero size":               func() (*Scene, Options) { return good(), Options{} },
		"too wide":                func() (*Scene, Options) { return good(), Options{Width: MaxSide + 1, Height: 1} },
		"supersample":             func() (*Scene, Options) { return good(), Options{Width: 4, Height: 4, Supersample: 99} },
		"workers":                 func() (*Scene, Options) { return good(), Options{Width: 4, Height: 4, Workers: -1} },
		"no scene":                func() (*Scene, Options) { return nil, o },
		"short texture": func() (*Scene, Options) {
			s := good()
			img := solidTex(4, 4, color.NRGBA{1, 2, 3, 255})
			img.Pix = img.Pix[:20]
			s.Meshes[0].Material.BaseTexture = &Texture{Image: img}
			return s, o
		},
		"camera": func() (*Scene, Options) { s := good(); s.Camera.Target = s.Camera.Eye; return s, o },
		"near":   func() (*Scene, Options) { s := good(); s.Camera.Near = 0; return s, o },
		"too many triangles": func() (*Scene, Options) {
			idx := make([]uint32, 3*(MaxTriangles/4+1))
			m := Mesh{Positions: []Vec3{{}}, Indices: idx}
			s := good()
			s.Meshes = []Mesh{m, m, m, m}
			return s, o
		},
	}
	for name, mk := range cases {
		s, o := mk()
		img, err := Render(ctx, s, o)
		if err == nil || img != nil {
			t.Errorf("%s: got %v, want an error and no picture", name, err)
		}
	}
}

func TestSkipsNonFinitePositions(t *testing.T) {
	s := unlitScene()
	nan := float32(math.NaN())
	s.Meshes[0].Positions[1] = Vec3{nan, 0, float32(math.Inf(1))}
	img, err := Render(context.Background(), s, Options{Width: 16, Height: 16})
	if err != nil {
		t.Fatal(err)
	}
	// One of the two triangles is left: the picture is half drawn.
	n := 0
	for i := 3; i < len(img.Pix); i += 4 {
		if img.Pix[i] != 0 {
			n++
		}
	}
	if n == 0 || n == 16*16 {
		t.Errorf("%d pixels drawn, want the good triangle only", n)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Render(ctx, toonSphere(0, 0), Options{Width: 32, Height: 32}); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestBlendOrderBeforeDistance(t *testing.T) {
	s := blendScene()
	// The far blue square now sorts after the near red one by its
	// material's Order, so it is drawn last and wins the overlap.
	s.Meshes[1].Material.Order = 1
	img := mustRender(t, s, Options{Width: 64, Height: 64})
	if c := at(img, 29, 35); c.B < c.R+40 {
		t.Errorf("overlap %v: the blue square, drawn last by its Order, should dominate", c)
	}
}

func TestMemoryBounded(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("draws 100,000 triangles")
	}
	m := toonMat(Vec3{1, 1, 1}, Vec3{0.5, 0.4, 0.6})
	m.Toon.OutlineMode, m.Toon.OutlineWidth = OutlineWorld, 0.01
	s := scene(sphere(Vec3{}, 1, 224, 224, m))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	mustRender(t, s, Options{Width: 384, Height: 512})
	runtime.ReadMemStats(&after)
	// The picture is 0.8 MB; the projected faces, their outline hull and
	// the per-worker bands a few tens more.
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d MB allocated", got>>20)
	if got > 80<<20 {
		t.Errorf("drawing 100,000 triangles with an outline allocated %d MB, want under 80", got>>20)
	}
}

// countdownCtx ends after its Err has been asked n times: a cancellation
// that lands in the middle of a picture, with no clock involved.
type countdownCtx struct {
	context.Context
	n atomic.Int32
}

func (c *countdownCtx) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func TestCancelledWhileDrawing(t *testing.T) {
	for _, n := range []int32{1, 3, 6, 20} {
		ctx := &countdownCtx{Context: context.Background()}
		ctx.n.Store(n)
		img, err := Render(ctx, toonSphere(0, 0.03), Options{Width: 64, Height: 256, Workers: 2})
		if !errors.Is(err, context.Canceled) || img != nil {
			t.Errorf("cancelled after %d checks: %v, want context.Canceled and no picture", n, err)
		}
	}
}
