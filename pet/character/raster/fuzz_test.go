package raster

import (
	"context"
	"image/color"
	"math"
	"testing"
)

// decodeScene turns fuzz bytes into a small scene: a picture size, a
// material's switches, up to 24 vertices (a coordinate byte of 0x80 is
// NaN, 0x7f infinite) and indices that may point past them.
func decodeScene(data []byte) (*Scene, Options) {
	get := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	o := Options{Width: 1 + int(get()%24), Height: 1 + int(get()%24), Supersample: int(get() % 4), Workers: 1 + int(get()%3)}
	flags := get()
	m := &Material{
		BaseColor: Vec4{0.8, 0.5, 0.3, float32(get()) / 255}, AlphaMode: AlphaMode(flags % 3),
		AlphaCutoff: 0.5, DoubleSided: flags&4 != 0, Unlit: flags&8 != 0,
	}
	if flags&16 != 0 {
		m.Toon = &Toon{ShadeColor: Vec3{0.2, 0.1, 0.3}, ShadingToony: float32(get()) / 255, RimColor: Vec3{1, 1, 1}, RimFresnelPower: float32(get()) / 32}
		if flags&32 != 0 {
			m.Toon.OutlineMode = OutlineMode(1 + get()%2)
			m.Toon.OutlineWidth = float32(get()) / 1000
		}
	}
	if flags&64 != 0 {
		m.BaseTexture = &Texture{Image: checker(4, 1, color.NRGBA{255, 0, 0, 0}, color.NRGBA{0, 255, 0, 255}), WrapS: Wrap(get() % 3), WrapT: Wrap(get() % 3)}
	}
	coord := func() float32 {
		switch b := get(); b {
		case 0x80:
			return float32(math.NaN())
		case 0x7f:
			return float32(math.Inf(1))
		default:
			return float32(int8(b)) / 40
		}
	}
	n := int(get() % 25)
	me := Mesh{Material: m}
	for range n {
		p := Vec3{coord(), coord(), coord()}
		me.Positions = append(me.Positions, p)
		me.UVs = append(me.UVs, Vec2{p[0] * 3, p[1] * 3})
	}
	if flags&128 != 0 {
		me.Normals = make([]Vec3, n)
		for i := range me.Normals {
			me.Normals[i] = Vec3{coord(), coord(), coord()}
		}
	}
	for len(data) >= 3 {
		me.Indices = append(me.Indices, uint32(get())%uint32(n+1), uint32(get())%uint32(n+1), uint32(get())%uint32(n+1))
	}
	s := scene(me)
	if flags&1 != 0 {
		s.Shadow = &Shadow{Ground: -0.5, RadiusX: 1, RadiusZ: 0.5, Opacity: 0.5}
	}
	return s, o
}

// FuzzRender draws whatever the bytes describe: an error or a picture of
// the asked size, never a panic or a hang.
func FuzzRender(f *testing.F) {
	f.Add([]byte{20, 20, 1, 1, 0x10, 200, 128, 10, 4, 0, 0, 40, 0, 0, 0, 40, 0, 0, 0, 0, 1, 2, 0, 2, 3})
	f.Add([]byte{8, 8, 0, 2, 0x5e, 100, 200, 40, 3, 1, 1, 5, 0x80, 0, 0, 40, 0, 0, 0, 40, 0, 0, 1, 2})
	f.Add([]byte{23, 5, 3, 0, 0xff, 255, 9, 9, 9, 9, 9, 9, 6, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, o := decodeScene(data)
		img, err := Render(context.Background(), s, o)
		if err != nil {
			if img != nil {
				t.Fatal("a picture with an error")
			}
			return
		}
		if b := img.Bounds(); b.Dx() != o.Width || b.Dy() != o.Height {
			t.Fatalf("picture %v for %d×%d", b, o.Width, o.Height)
		}
	})
}
