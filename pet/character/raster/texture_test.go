package raster

import (
	"image/color"
	"math"
	"testing"
)

func twoTexels(a, b color.NRGBA) *Texture {
	img := solidTex(2, 1, a)
	img.SetNRGBA(1, 0, b)
	return &Texture{Image: img}
}

func TestWrapModes(t *testing.T) {
	ct := newColorTables()
	red, blue := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}
	cases := []struct {
		mode Wrap
		want [4]bool // red at u = 0.25, 0.75, 1.25, 1.75
	}{
		{WrapRepeat, [4]bool{true, false, true, false}},
		{WrapClamp, [4]bool{true, false, false, false}},
		{WrapMirror, [4]bool{true, false, false, true}},
	}
	for _, c := range cases {
		tex := twoTexels(red, blue)
		tex.Nearest, tex.WrapS = true, c.mode
		s := newSampler(tex, &ct.toLinear)
		for i, u := range []float32{0.25, 0.75, 1.25, 1.75} {
			got := s.sample(u, 0.5)
			if isRed := got[0] > 0.9 && got[2] < 0.1; isRed != c.want[i] {
				t.Errorf("wrap %d at u=%v: %v, want red %v", c.mode, u, got, c.want[i])
			}
		}
	}
}

func TestBilinearInLinearLight(t *testing.T) {
	ct := newColorTables()
	s := newSampler(twoTexels(color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}), &ct.toLinear)
	s.wrapS = WrapClamp
	got := s.sample(0.5, 0.5)
	if d := got[0] - 0.5; d > 0.01 || d < -0.01 {
		t.Errorf("half way between red and blue: red %v, want 0.5 (linear)", got[0])
	}
	// A transparent texel lends no colour: half way from a transparent
	// red to blue is blue at half opacity.
	s = newSampler(twoTexels(color.NRGBA{255, 0, 0, 0}, color.NRGBA{0, 0, 255, 255}), &ct.toLinear)
	s.wrapS = WrapClamp
	got = s.sample(0.5, 0.5)
	if got[0] > 0.01 || got[2] < 0.99 || got[3] < 0.49 || got[3] > 0.51 {
		t.Errorf("half way from transparent red to blue: %v, want blue at alpha 0.5", got)
	}
}

func TestUVTransform(t *testing.T) {
	ct := newColorTables()
	tex := twoTexels(color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255})
	tex.Nearest = true
	m := prepareMaterial(&Material{BaseColor: Vec4{1, 1, 1, 1}, BaseTexture: tex, UV: UVTransform{Offset: Vec2{0.5, 0}}}, ct)
	if c := m.baseAt(Vec2{0.25, 0.5}, Vec4{1, 1, 1, 1}); c[2] < 0.9 {
		t.Errorf("offset by half: %v at u=0.25, want blue", c)
	}
	m = prepareMaterial(&Material{BaseColor: Vec4{1, 1, 1, 1}, BaseTexture: tex}, ct)
	if c := m.baseAt(Vec2{0.25, 0.5}, Vec4{1, 1, 1, 1}); c[0] < 0.9 {
		t.Errorf("identity: %v at u=0.25, want red", c)
	}
}

func TestOutlineScreenWidth(t *testing.T) {
	const h = 96
	s := toonSphere(0, 0)
	plain := mustRender(t, s, Options{Width: h, Height: h})
	s.Meshes[0].Material.Toon.OutlineMode = OutlineScreen
	s.Meshes[0].Material.Toon.OutlineWidth = 0.05
	s.Meshes[0].Material.Toon.OutlineColor = Vec3{0, 0, 0}
	out := mustRender(t, s, Options{Width: h, Height: h})
	ring := 0
	for x := range h / 2 {
		if at(plain, x, h/2).A < 128 && at(out, x, h/2).A >= 128 {
			ring++
		}
	}
	// 5% of 96 pixels is about 5 pixels.
	if ring < 4 || ring > 6 {
		t.Errorf("screen outline %d pixels wide on the middle row, want about 5", ring)
	}
}

func TestPowf(t *testing.T) {
	for _, p := range []float32{0, 1, 2.5, 3, 5, 16, 17.5} {
		for _, x := range []float32{0, 0.1, 0.5, 0.9, 1} {
			want := float32(math.Pow(float64(x), float64(p)))
			if got := powf(x, p); math.Abs(float64(got-want)) > 1e-5 {
				t.Errorf("powf(%v, %v) = %v, want %v", x, p, got, want)
			}
		}
	}
}
