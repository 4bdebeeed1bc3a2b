package raster

import (
	"image"
	"math"
)

// maxBandRows is a band's height in output pixels: a band is the unit of
// work one goroutine draws from start to end. Very wide pictures get
// lower bands (bandRowsFor), so that a worker's scratch stays near
// maxBandSamples whatever the size.
const (
	maxBandRows    = 8
	maxBandSamples = 1 << 20
)

func bandRowsFor(sw, ss int) int {
	return max(1, min(maxBandRows, maxBandSamples/(sw*ss)))
}

// bandBuf is a worker's scratch for one band, reused band after band: the
// visibility of the opaque pass (depth as 1/w, larger is nearer; the
// triangle and the perspective-correct weights of its vertices 1 and 2)
// and the premultiplied linear colour.
type bandBuf struct {
	depth  []float32
	id     []int32
	q1, q2 []float32
	col    []Vec4
}

func newBandBuf(n int) *bandBuf {
	return &bandBuf{
		depth: make([]float32, n), id: make([]int32, n),
		q1: make([]float32, n), q2: make([]float32, n), col: make([]Vec4, n),
	}
}

// renderer holds everything the bands share; none of it changes while
// they are drawn.
type renderer struct {
	set    settings
	v      view // in samples
	pv     view // in pixels, for the shadow
	verts  []svert
	tris   []tri
	mats   []*pmat
	light  lightRig
	eye    Vec3
	ct     *colorTables
	shadow *Shadow
	shCol  Vec3 // the shadow's colour, linear
	sw, sh int  // picture in samples
	// bandRows is the height of a band in pixels.
	bandRows int
	// bins list, per band, the triangles touching it: opaque in scene
	// order, blended in drawing order.
	opaqueBins, blendBins [][]int32
	minIW                 float32 // 1/far: samples farther are dropped
}

// drawBand draws band bi into out's rows.
func (r *renderer) drawBand(bi int, buf *bandBuf, out *image.NRGBA) {
	ss := r.set.ss
	sy0 := bi * r.bandRows * ss
	sy1 := min(sy0+r.bandRows*ss, r.sh)
	n := (sy1 - sy0) * r.sw
	for i := range n {
		buf.depth[i] = 0
		buf.id[i] = -1
		buf.col[i] = Vec4{}
	}
	for _, ti := range r.opaqueBins[bi] {
		r.rasterOpaque(ti, sy0, sy1, buf)
	}
	r.shadeOpaque(buf, n)
	for _, ti := range r.blendBins[bi] {
		r.rasterBlend(ti, sy0, sy1, buf)
	}
	r.resolve(bi, sy0, sy1, buf, out)
}

// cover walks the samples of triangle t inside rows [sy0, sy1) and calls
// fn with the sample's index in the band and its barycentric weights.
func (r *renderer) cover(t *tri, sy0, sy1 int, fn func(i int, b0, b1, b2 float64)) {
	ys, ye := max(int(t.y0), sy0), min(int(t.y1), sy1-1)
	tl := [3]bool{t.flags&flagTopLeft0 != 0, t.flags&flagTopLeft1 != 0, t.flags&flagTopLeft2 != 0}
	for y := ys; y <= ye; y++ {
		fy := float64(y) + 0.5
		r0 := t.eb[0]*fy + t.ec[0]
		r1 := t.eb[1]*fy + t.ec[1]
		r2 := t.eb[2]*fy + t.ec[2]
		row := (y - sy0) * r.sw
		lo, hi := rowSpan(t, r0, r1, r2)
		for x := lo; x <= hi; x++ {
			fx := float64(x) + 0.5
			b0 := t.ea[0]*fx + r0
			if b0 < 0 || (b0 == 0 && !tl[0]) {
				continue
			}
			b1 := t.ea[1]*fx + r1
			if b1 < 0 || (b1 == 0 && !tl[1]) {
				continue
			}
			b2 := t.ea[2]*fx + r2
			if b2 < 0 || (b2 == 0 && !tl[2]) {
				continue
			}
			fn(row+x, b0, b1, b2)
		}
	}
}

// rowSpan narrows the samples of a row worth testing to those near the
// part of the row inside all three edges; a margin of one sample on each
// side leaves the exact decision, and the fill rule, to the edge tests.
func rowSpan(t *tri, r0, r1, r2 float64) (lo, hi int) {
	l, h := float64(t.x0), float64(t.x1)
	for k, rk := range [3]float64{r0, r1, r2} {
		a := t.ea[k]
		if a == 0 {
			if rk < 0 {
				return 1, 0
			}
			continue
		}
		xb := -rk/a - 0.5 // the sample index where edge k crosses
		if !finite(xb) {
			continue
		}
		if a > 0 {
			l = math.Max(l, math.Ceil(xb)-1)
		} else {
			h = math.Min(h, math.Floor(xb)+1)
		}
	}
	if !(l <= h) {
		return 1, 0
	}
	return int(l), int(h)
}

// weights turns screen-space barycentrics into 1/w and the
// perspective-correct weights.
func (t *tri) weights(b0, b1, b2 float64) (iw, q0, q1, q2 float32) {
	w0, w1, w2 := b0*float64(t.iw[0]), b1*float64(t.iw[1]), b2*float64(t.iw[2])
	s := w0 + w1 + w2
	if !(s > 0) {
		return 0, 0, 0, 0
	}
	return float32(s), float32(w0 / s), float32(w1 / s), float32(w2 / s)
}

func (r *renderer) rasterOpaque(ti int32, sy0, sy1 int, buf *bandBuf) {
	t := &r.tris[ti]
	pm := r.mats[t.mat]
	mask := pm.alpha == AlphaMask
	r.cover(t, sy0, sy1, func(i int, b0, b1, b2 float64) {
		iw, q0, q1, q2 := t.weights(b0, b1, b2)
		if iw <= buf.depth[i] || iw < r.minIW {
			return
		}
		if mask {
			uv, col := r.uvCol(t, q0, q1, q2)
			if pm.baseAt(uv, col)[3] < pm.cutoff {
				return
			}
		}
		buf.depth[i], buf.id[i], buf.q1[i], buf.q2[i] = iw, ti, q1, q2
	})
}

func (r *renderer) uvCol(t *tri, q0, q1, q2 float32) (Vec2, Vec4) {
	a, b, c := &r.verts[t.v[0]], &r.verts[t.v[1]], &r.verts[t.v[2]]
	uv := Vec2{a.uv[0]*q0 + b.uv[0]*q1 + c.uv[0]*q2, a.uv[1]*q0 + b.uv[1]*q1 + c.uv[1]*q2}
	var col Vec4
	for k := range 4 {
		col[k] = a.col[k]*q0 + b.col[k]*q1 + c.col[k]*q2
	}
	return uv, col
}

// fragment interpolates a triangle's attributes at a sample.
func (r *renderer) fragment(t *tri, q0, q1, q2 float32) frag {
	a, b, c := &r.verts[t.v[0]], &r.verts[t.v[1]], &r.verts[t.v[2]]
	var f frag
	f.uv, f.col = r.uvCol(t, q0, q1, q2)
	var n Vec3
	for k := range 3 {
		n[k] = a.n[k]*q0 + b.n[k]*q1 + c.n[k]*q2
	}
	f.n = norm3(n)
	if t.flags&flagFlip != 0 {
		f.n = Vec3{-f.n[0], -f.n[1], -f.n[2]}
	}
	if r.mats[t.mat].needView {
		for k := range 3 {
			f.pos[k] = a.pos[k]*q0 + b.pos[k]*q1 + c.pos[k]*q2
		}
		f.viewDir = norm3(Vec3{r.eye[0] - f.pos[0], r.eye[1] - f.pos[1], r.eye[2] - f.pos[2]})
	}
	f.outline = t.flags&flagOutline != 0
	return f
}

// shadeOpaque shades each sample the opaque pass left visible, once.
// Colours are clamped to 0..1 per sample, as a display's framebuffer
// would, so that an over-lit surface does not bleed past its edges when
// the samples are averaged.
func (r *renderer) shadeOpaque(buf *bandBuf, n int) {
	for i := range n {
		ti := buf.id[i]
		if ti < 0 {
			continue
		}
		t := &r.tris[ti]
		q1, q2 := buf.q1[i], buf.q2[i]
		f := r.fragment(t, 1-q1-q2, q1, q2)
		c := r.mats[t.mat].shade(&f, &r.light)
		buf.col[i] = Vec4{clamp01(c[0]), clamp01(c[1]), clamp01(c[2]), 1}
	}
}

// rasterBlend draws a blended triangle over what is there: tested against
// the opaque depth, not writing it, composited with the over operator on
// premultiplied colour.
func (r *renderer) rasterBlend(ti int32, sy0, sy1 int, buf *bandBuf) {
	t := &r.tris[ti]
	pm := r.mats[t.mat]
	r.cover(t, sy0, sy1, func(i int, b0, b1, b2 float64) {
		iw, q0, q1, q2 := t.weights(b0, b1, b2)
		if iw <= buf.depth[i] || iw < r.minIW {
			return
		}
		f := r.fragment(t, q0, q1, q2)
		c := pm.shade(&f, &r.light)
		a := clamp01(c[3])
		if a == 0 {
			return
		}
		d := &buf.col[i]
		k := 1 - a
		d[0] = clamp01(c[0])*a + d[0]*k
		d[1] = clamp01(c[1])*a + d[1]*k
		d[2] = clamp01(c[2])*a + d[2]*k
		d[3] = a + d[3]*k
	})
}

// resolve box-filters the band's samples into pixels (premultiplied, so
// edges keep their colour), puts the shadow under them and writes sRGB.
func (r *renderer) resolve(bi, sy0, sy1 int, buf *bandBuf, out *image.NRGBA) {
	ss := r.set.ss
	inv := 1 / float32(ss*ss)
	for py := sy0 / ss; py < sy1/ss; py++ {
		o := out.PixOffset(0, py)
		for px := 0; px < r.set.w; px++ {
			var acc Vec4
			for sy := range ss {
				row := (py*ss + sy - sy0) * r.sw
				for sx := range ss {
					c := buf.col[row+px*ss+sx]
					acc[0] += c[0]
					acc[1] += c[1]
					acc[2] += c[2]
					acc[3] += c[3]
				}
			}
			for k := range 4 {
				acc[k] *= inv
			}
			if r.shadow != nil && acc[3] < 1 {
				if sa := r.shadowAt(px, py); sa > 0 {
					k := (1 - acc[3]) * sa
					acc[0] += r.shCol[0] * k
					acc[1] += r.shCol[1] * k
					acc[2] += r.shCol[2] * k
					acc[3] += k
				}
			}
			p := out.Pix[o+px*4 : o+px*4+4 : o+px*4+4]
			if !(acc[3] > 0) {
				p[0], p[1], p[2], p[3] = 0, 0, 0, 0
				continue
			}
			a := min(acc[3], 1)
			ia := 1 / acc[3]
			p[0] = r.ct.encode(acc[0] * ia)
			p[1] = r.ct.encode(acc[1] * ia)
			p[2] = r.ct.encode(acc[2] * ia)
			p[3] = uint8(a*255 + 0.5)
		}
	}
}

// shadowAt is the drop shadow's opacity at a pixel: the ray through the
// pixel's centre meets the ground plane at a point of the ellipse.
func (r *renderer) shadowAt(px, py int) float32 {
	s := r.shadow
	v := &r.pv
	nx := (float64(px)+0.5)/v.w*2 - 1
	ny := 1 - (float64(py)+0.5)/v.h*2
	d := v.forward.add(v.right.scale(nx * v.tanX)).add(v.up.scale(ny * v.tanY))
	if d[1] == 0 {
		return 0
	}
	t := (float64(s.Ground) - v.eye[1]) / d[1]
	if !(t > 0) {
		return 0
	}
	p := v.eye.add(d.scale(t))
	ex := (p[0] - float64(s.Center[0])) / float64(s.RadiusX)
	ez := (p[2] - float64(s.Center[1])) / float64(s.RadiusZ)
	e := math.Sqrt(ex*ex + ez*ez)
	return float32(float64(clamp01(s.Opacity)) * shadowFalloff(e))
}

// shadowFalloff is the shadow's profile over the ellipse's radius: full
// inside 40% of it, smoothly to nothing at the rim. The built-in
// characters draw theirs the same way, as stacked ellipses shrinking to
// 40% (assets/gen/draw.go, softEllipse; assets/gen/yui.go).
func shadowFalloff(e float64) float64 {
	const inner = 0.4
	if !(e < 1) {
		return 0
	}
	if e <= inner {
		return 1
	}
	x := (1 - e) / (1 - inner)
	return x * x * (3 - 2*x)
}
