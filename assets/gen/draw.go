package main

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// pt is a point in character-local coordinates (2x pixels).
type pt struct{ X, Y float64 }

func (p pt) add(q pt) pt           { return pt{p.X + q.X, p.Y + q.Y} }
func (p pt) sub(q pt) pt           { return pt{p.X - q.X, p.Y - q.Y} }
func (p pt) mul(k float64) pt      { return pt{p.X * k, p.Y * k} }
func (p pt) len() float64          { return math.Hypot(p.X, p.Y) }
func lerpPt(a, b pt, t float64) pt { return pt{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t} }

// affine is the transform [a b c; d e f] mapping (x, y) to
// (a*x + b*y + c, d*x + e*y + f).
type affine [6]float64

var identity = affine{1, 0, 0, 0, 1, 0}

func (m affine) apply(p pt) pt {
	return pt{m[0]*p.X + m[1]*p.Y + m[2], m[3]*p.X + m[4]*p.Y + m[5]}
}

// then returns the transform applying m first and n second.
func (m affine) then(n affine) affine {
	return affine{
		n[0]*m[0] + n[1]*m[3], n[0]*m[1] + n[1]*m[4], n[0]*m[2] + n[1]*m[5] + n[2],
		n[3]*m[0] + n[4]*m[3], n[3]*m[1] + n[4]*m[4], n[3]*m[2] + n[4]*m[5] + n[5],
	}
}

func translate(dx, dy float64) affine { return affine{1, 0, dx, 0, 1, dy} }

// scaleAbout scales by (sx, sy) around c.
func scaleAbout(c pt, sx, sy float64) affine {
	return translate(-c.X, -c.Y).then(affine{sx, 0, 0, 0, sy, 0}).then(translate(c.X, c.Y))
}

// rotateAbout rotates by a radians (clockwise on screen) around c.
func rotateAbout(c pt, a float64) affine {
	s, k := math.Sin(a), math.Cos(a)
	return translate(-c.X, -c.Y).then(affine{k, -s, 0, s, k, 0}).then(translate(c.X, c.Y))
}

type cmdKind uint8

const (
	cmdMove cmdKind = iota
	cmdLine
	cmdCube
	cmdClose
)

type cmd struct {
	kind cmdKind
	p    [3]pt
}

// path is a list of closed or open subpaths; filling closes them.
type path struct{ cmds []cmd }

func (p *path) moveTo(a pt)       { p.cmds = append(p.cmds, cmd{kind: cmdMove, p: [3]pt{a}}) }
func (p *path) lineTo(a pt)       { p.cmds = append(p.cmds, cmd{kind: cmdLine, p: [3]pt{a}}) }
func (p *path) cubeTo(b, c, d pt) { p.cmds = append(p.cmds, cmd{kind: cmdCube, p: [3]pt{b, c, d}}) }
func (p *path) close()            { p.cmds = append(p.cmds, cmd{kind: cmdClose}) }

// transformed returns p mapped through m.
func (p *path) transformed(m affine) *path {
	q := &path{cmds: make([]cmd, len(p.cmds))}
	for i, c := range p.cmds {
		q.cmds[i].kind = c.kind
		for j := range c.p {
			q.cmds[i].p[j] = m.apply(c.p[j])
		}
	}
	return q
}

// kappa makes four cubic Béziers approximate a circle.
const kappa = 0.5522847498

func ellipse(c pt, rx, ry float64) *path {
	p := &path{}
	kx, ky := rx*kappa, ry*kappa
	p.moveTo(pt{c.X + rx, c.Y})
	p.cubeTo(pt{c.X + rx, c.Y + ky}, pt{c.X + kx, c.Y + ry}, pt{c.X, c.Y + ry})
	p.cubeTo(pt{c.X - kx, c.Y + ry}, pt{c.X - rx, c.Y + ky}, pt{c.X - rx, c.Y})
	p.cubeTo(pt{c.X - rx, c.Y - ky}, pt{c.X - kx, c.Y - ry}, pt{c.X, c.Y - ry})
	p.cubeTo(pt{c.X + kx, c.Y - ry}, pt{c.X + rx, c.Y - ky}, pt{c.X + rx, c.Y})
	p.close()
	return p
}

func circle(c pt, r float64) *path { return ellipse(c, r, r) }

func polygon(pts ...pt) *path {
	p := &path{}
	for i, q := range pts {
		if i == 0 {
			p.moveTo(q)
		} else {
			p.lineTo(q)
		}
	}
	p.close()
	return p
}

// cubicPts samples a cubic Bézier into n+1 points.
func cubicPts(a, b, c, d pt, n int) []pt {
	out := make([]pt, 0, n+1)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		u := 1 - t
		out = append(out, pt{
			u*u*u*a.X + 3*u*u*t*b.X + 3*u*t*t*c.X + t*t*t*d.X,
			u*u*u*a.Y + 3*u*u*t*b.Y + 3*u*t*t*c.Y + t*t*t*d.Y,
		})
	}
	return out
}

// quadPts samples a quadratic Bézier into n+1 points.
func quadPts(a, b, c pt, n int) []pt {
	out := make([]pt, 0, n+1)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		u := 1 - t
		out = append(out, pt{u*u*a.X + 2*u*t*b.X + t*t*c.X, u*u*a.Y + 2*u*t*b.Y + t*t*c.Y})
	}
	return out
}

// stroke returns the filled outline of the polyline pts with round caps.
// width gives the stroke width at t in [0, 1] along the line, so strokes can
// taper.
func stroke(pts []pt, width func(t float64) float64) *path {
	n := len(pts)
	if n < 2 {
		return &path{}
	}
	normals := make([]pt, n)
	for i := range pts {
		var d pt
		switch {
		case i == 0:
			d = pts[1].sub(pts[0])
		case i == n-1:
			d = pts[n-1].sub(pts[n-2])
		default:
			d = pts[i+1].sub(pts[i-1])
		}
		l := d.len()
		if l == 0 {
			l = 1
		}
		normals[i] = pt{-d.Y / l, d.X / l}
	}
	half := func(i int) float64 { return width(float64(i)/float64(n-1)) / 2 }
	p := &path{}
	p.moveTo(pts[0].add(normals[0].mul(half(0))))
	for i := 1; i < n; i++ {
		p.lineTo(pts[i].add(normals[i].mul(half(i))))
	}
	arc(p, pts[n-1], normals[n-1], half(n-1))
	for i := n - 1; i >= 0; i-- {
		p.lineTo(pts[i].sub(normals[i].mul(half(i))))
	}
	arc(p, pts[0], normals[0].mul(-1), half(0))
	p.close()
	return p
}

// arc appends a half circle around c from c+n*r to c-n*r, turning away from
// the line's interior.
func arc(p *path, c, n pt, r float64) {
	a0 := math.Atan2(n.Y, n.X)
	const steps = 10
	for i := 1; i <= steps; i++ {
		a := a0 - math.Pi*float64(i)/steps
		p.lineTo(pt{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)})
	}
}

func constWidth(w float64) func(float64) float64 { return func(float64) float64 { return w } }

// taper is thick in the middle and thin at both ends.
func taper(w, end float64) func(float64) float64 {
	return func(t float64) float64 { return end + (w-end)*math.Sin(math.Pi*t) }
}

// canvas draws transformed paths onto an RGBA image.
type canvas struct {
	img *image.RGBA
	xf  affine
	// view maps the drawing's coordinates (a 384x512 image) onto img,
	// after xf: identity for the pack, a zoom for the app icon.
	view affine
	z    *vector.Rasterizer
}

func newCanvas(w, h int) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h)), xf: identity, view: identity, z: vector.NewRasterizer(w, h)}
}

func (c *canvas) raster(p *path) *vector.Rasterizer {
	b := c.img.Bounds()
	c.z.Reset(b.Dx(), b.Dy())
	open := false
	for _, k := range p.transformed(c.xf.then(c.view)).cmds {
		f := func(q pt) (float32, float32) { return float32(q.X), float32(q.Y) }
		switch k.kind {
		case cmdMove:
			if open {
				c.z.ClosePath()
			}
			x, y := f(k.p[0])
			c.z.MoveTo(x, y)
			open = true
		case cmdLine:
			x, y := f(k.p[0])
			c.z.LineTo(x, y)
		case cmdCube:
			x1, y1 := f(k.p[0])
			x2, y2 := f(k.p[1])
			x3, y3 := f(k.p[2])
			c.z.CubeTo(x1, y1, x2, y2, x3, y3)
		case cmdClose:
			c.z.ClosePath()
			open = false
		}
	}
	if open {
		c.z.ClosePath()
	}
	return c.z
}

// fill paints p in col (non-premultiplied) over the canvas.
func (c *canvas) fill(p *path, col color.NRGBA) {
	z := c.raster(p)
	z.DrawOp = draw.Over
	z.Draw(c.img, c.img.Bounds(), image.NewUniform(col), image.Point{})
}

// mask returns p's coverage.
func (c *canvas) mask(p *path) *image.Alpha {
	m := image.NewAlpha(c.img.Bounds())
	z := c.raster(p)
	z.DrawOp = draw.Src
	z.Draw(m, m.Bounds(), image.Opaque, image.Point{})
	return m
}

// fillClip paints p in col, limited to the coverage of clip.
func (c *canvas) fillClip(p *path, col color.NRGBA, clip *image.Alpha) {
	m := c.mask(p)
	intersect(m, clip)
	draw.DrawMask(c.img, c.img.Bounds(), image.NewUniform(col), image.Point{}, m, image.Point{}, draw.Over)
}

// intersect multiplies m by clip in place.
func intersect(m, clip *image.Alpha) {
	for i := range m.Pix {
		m.Pix[i] = uint8((uint32(m.Pix[i])*uint32(clip.Pix[i]) + 127) / 255)
	}
}

// subtract removes cut's coverage from m in place.
func subtract(m, cut *image.Alpha) {
	for i := range m.Pix {
		m.Pix[i] = uint8((uint32(m.Pix[i])*uint32(255-cut.Pix[i]) + 127) / 255)
	}
}

// paintMask paints col through m.
func (c *canvas) paintMask(m *image.Alpha, col color.NRGBA) {
	draw.DrawMask(c.img, c.img.Bounds(), image.NewUniform(col), image.Point{}, m, image.Point{}, draw.Over)
}

// softEllipse paints a blurred-looking ellipse as stacked translucent
// ellipses whose alpha adds up to peak at the centre.
func (c *canvas) softEllipse(ctr pt, rx, ry float64, col color.NRGBA, peak float64, steps int, inner float64, clip *image.Alpha) {
	// Each layer has alpha a; n layers stacked over each other give
	// 1-(1-a)^n at the centre.
	a := 1 - math.Pow(1-peak, 1/float64(steps))
	col.A = uint8(math.Round(a * 255))
	for i := 0; i < steps; i++ {
		k := 1 - (1-inner)*float64(i)/float64(steps-1)
		p := ellipse(ctr, rx*k, ry*k)
		if clip != nil {
			c.fillClip(p, col, clip)
		} else {
			c.fill(p, col)
		}
	}
}

func nrgba(r, g, b, a uint8) color.NRGBA { return color.NRGBA{r, g, b, a} }
