package raster

import (
	"math"
)

// colorTables holds the fixed conversions between sRGB bytes and linear
// light. They are computed once per Render (a few microseconds) rather
// than kept in package state.
type colorTables struct {
	toLinear [256]float32 // sRGB byte → linear 0..1
	byteLin  [256]float32 // byte → byte/255, for data textures
	// toSRGB maps linear 0..1 in srgbSteps steps to an sRGB byte.
	toSRGB [srgbSteps + 1]uint8
}

const srgbSteps = 4096

func newColorTables() *colorTables {
	t := new(colorTables)
	for i := range 256 {
		c := float64(i) / 255
		if c <= 0.04045 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		t.toLinear[i] = float32(c)
		t.byteLin[i] = float32(i) / 255
	}
	for i := range srgbSteps + 1 {
		l := float64(i) / srgbSteps
		var c float64
		if l <= 0.0031308 {
			c = l * 12.92
		} else {
			c = 1.055*math.Pow(l, 1/2.4) - 0.055
		}
		t.toSRGB[i] = uint8(math.Round(c * 255))
	}
	return t
}

// encode maps a linear value to an sRGB byte, clamped.
func (t *colorTables) encode(l float32) uint8 {
	if !(l > 0) {
		return 0
	}
	if l >= 1 {
		return 255
	}
	return t.toSRGB[int(l*srgbSteps+0.5)]
}

// sampler reads one texture. It is made per material at setup so that a
// sample needs no nil checks beyond the one on the sampler itself.
type sampler struct {
	pix          []uint8
	stride       int
	w, h         int
	wrapS, wrapT Wrap
	nearest      bool
	lut          *[256]float32
}

func newSampler(t *Texture, lut *[256]float32) *sampler {
	if t == nil || t.Image == nil {
		return nil
	}
	b := t.Image.Bounds()
	if b.Dx() <= 0 || b.Dy() <= 0 {
		return nil
	}
	return &sampler{
		pix: t.Image.Pix[t.Image.PixOffset(b.Min.X, b.Min.Y):], stride: t.Image.Stride,
		w: b.Dx(), h: b.Dy(), wrapS: t.WrapS, wrapT: t.WrapT, nearest: t.Nearest, lut: lut,
	}
}

// wrap maps a texel index into 0..n-1 by the wrap mode.
func wrap(i, n int, m Wrap) int {
	if uint(i) < uint(n) {
		return i
	}
	switch m {
	case WrapClamp:
		if i < 0 {
			return 0
		}
		if i >= n {
			return n - 1
		}
		return i
	case WrapMirror:
		p := 2 * n
		i %= p
		if i < 0 {
			i += p
		}
		if i >= n {
			i = p - 1 - i
		}
		return i
	default:
		i %= n
		if i < 0 {
			i += n
		}
		return i
	}
}

// texel returns one texel, colour premultiplied, in the sampler's space.
func (s *sampler) texel(x, y int) Vec4 {
	return s.at(wrap(x, s.w, s.wrapS), wrap(y, s.h, s.wrapT))
}

// at is texel for coordinates already wrapped.
func (s *sampler) at(x, y int) Vec4 {
	o := y*s.stride + x*4
	p := s.pix[o : o+4 : o+4]
	a := float32(p[3]) / 255
	return Vec4{s.lut[p[0]] * a, s.lut[p[1]] * a, s.lut[p[2]] * a, a}
}

// sample filters the texture at (u, v), glTF's convention (v down the
// image), and returns a non-premultiplied colour. Filtering is done on
// premultiplied texels so that transparent texels bleed no colour.
func (s *sampler) sample(u, v float32) Vec4 {
	if !(u == u) || !(v == v) || u > 1e6 || u < -1e6 || v > 1e6 || v < -1e6 {
		u, v = 0, 0
	}
	fx := u*float32(s.w) - 0.5
	fy := v*float32(s.h) - 0.5
	var c Vec4
	if s.nearest {
		c = s.texel(int(floor32(fx+0.5)), int(floor32(fy+0.5)))
	} else {
		x0, y0 := floor32(fx), floor32(fy)
		tx, ty := fx-x0, fy-y0
		ix, iy := int(x0), int(y0)
		x0w, x1w := wrap(ix, s.w, s.wrapS), wrap(ix+1, s.w, s.wrapS)
		y0w, y1w := wrap(iy, s.h, s.wrapT), wrap(iy+1, s.h, s.wrapT)
		c00, c10 := s.at(x0w, y0w), s.at(x1w, y0w)
		c01, c11 := s.at(x0w, y1w), s.at(x1w, y1w)
		for k := range 4 {
			top := c00[k] + (c10[k]-c00[k])*tx
			bot := c01[k] + (c11[k]-c01[k])*tx
			c[k] = top + (bot-top)*ty
		}
	}
	if c[3] > 0 {
		inv := 1 / c[3]
		c[0], c[1], c[2] = c[0]*inv, c[1]*inv, c[2]*inv
	} else {
		c = Vec4{}
	}
	return c
}

func floor32(f float32) float32 { return float32(math.Floor(float64(f))) }
