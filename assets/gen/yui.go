package main

import (
	"image"
	"math"
)

// Image size in pixels: the pack's logical size 192x256 at 2x.
const (
	imgW = 384
	imgH = 512
)

type eyeStyle int

const (
	eyeOpen   eyeStyle = iota
	eyeHappy           // ^ ^
	eyeClosed          // gentle closed arcs, blink and sleep
	eyeSquint          // > <
)

type mouthStyle int

const (
	mouthSmile mouthStyle = iota
	mouthGrin             // open D smile with tongue
	mouthFrown
	mouthO
	mouthTalk // open oval; open sets how far
	mouthWavy
	mouthFlat
	mouthPout // small tight frown for anger
	mouthCat  // ω
)

// brow is one eyebrow: tilt > 0 lowers the inner end (angry), tilt < 0
// raises it (worried); raise lifts the whole brow.
type brow struct {
	on          bool
	tilt, raise float64
}

type face struct {
	eyes eyeStyle
	// open is the visible part of each eye under its lid (1 = fully open),
	// lidTilt the lid's slope (> 0: inner end lower).
	openL, openR       float64
	lidTiltL, lidTiltR float64
	eyeScale           float64
	eyeScaleR          float64 // when not 0, the right eye's own scale
	lookX, lookY       float64
	browL, browR       brow
	mouth              mouthStyle
	mouthOpen          float64
	mouthDX            float64
	blush              float64
	blushLines         bool
}

func neutralFace() face {
	return face{eyes: eyeOpen, openL: 1, openR: 1, eyeScale: 1, mouth: mouthSmile, blush: 0.55}
}

// arm: angle is measured from straight down, turning outward; π/2 points
// sideways and π straight up.
type arm struct {
	angle float64
	lift  float64
	chin  bool // held in front of the body by the mouth
}

type pose struct {
	sx, sy float64 // squash and stretch around the bottom centre
	lift   float64 // hop height
	tilt   float64 // lean, radians
	flat   float64 // extra flattening of the base (sit)
	face   face
	armL   arm
	armR   arm
	sway   float64 // sprout sway, radians
	shadow float64 // shadow size, 0 for none
	dots   int
	// body extras are drawn with the body transform, air extras unsquashed.
	bodyExtras []func(*drawer)
	airExtras  []func(*drawer)
	// lk is the character drawn; nil is Yui.
	lk *look
}

func basePose() pose {
	return pose{sx: 1, sy: 1, face: neutralFace(), armL: arm{angle: restArm}, armR: arm{angle: restArm}, shadow: 1}
}

// Body geometry in local coordinates.
const (
	restArm   = 0.75
	faceScale = 1.1
	cx        = imgW / 2.0
	groundY   = 488.0
	bodyRX    = 147.0
	bodyH     = 288.0
	lineW     = 9.0
)

type drawer struct {
	c   *canvas
	pal palette
	p   pose
	lk  look
}

func (d *drawer) top() float64    { return groundY - d.lk.h }
func (d *drawer) eyeY() float64   { return groundY - d.lk.h*0.45 }
func (d *drawer) mouthY() float64 { return groundY - d.lk.h*0.285 }
func (d *drawer) eyeDX() float64  { return 54 }

// render draws one image of Yui in pose p.
func render(p pose) *image.RGBA {
	lk := yuiLook
	if p.lk != nil {
		lk = *p.lk
	}
	d := &drawer{c: newCanvas(imgW, imgH), pal: lk.pal, p: p, lk: lk}
	d.draw()
	return d.c.img
}

func (d *drawer) draw() {
	p := d.p
	base := pt{cx, groundY}
	if p.shadow > 0 {
		k := p.shadow * (1 - math.Min(p.lift, 120)/260)
		d.c.xf = identity
		d.c.softEllipse(pt{cx, groundY + 2}, 128*p.sx*k, 17*k, d.pal.shadow, 0.42, 9, 0.4, nil)
	}
	body := scaleAbout(base, p.sx, p.sy).then(rotateAbout(base, p.tilt)).then(translate(0, -p.lift))
	d.c.xf = body
	if d.lk.ears {
		d.ears()
	} else {
		d.sprout()
	}
	d.arm(-1, p.armL, false)
	d.arm(1, p.armR, false)
	d.body()
	// The face is drawn a touch larger than its measurements so it reads
	// when the pet is small.
	d.c.xf = scaleAbout(pt{cx, d.eyeY()}, faceScale, faceScale).then(body)
	d.drawFace()
	d.c.xf = body
	d.arm(-1, p.armL, true)
	d.arm(1, p.armR, true)
	for _, f := range p.bodyExtras {
		d.c.xf = body
		f(d)
	}
	air := translate(0, -p.lift)
	for _, f := range p.airExtras {
		d.c.xf = air
		f(d)
	}
	if p.dots > 0 {
		d.c.xf = air
		d.thinkDots(p.dots)
	}
}

// bodyPts is the outline of the mochi: a soft gumdrop, widest low down,
// with a flattish base.
func bodyPts(rx, h, flat float64) []pt {
	by := groundY
	top := by - h
	side := by - h*0.40
	bc := 0.62 + 0.3*flat
	var pts []pt
	pts = append(pts, cubicPts(pt{cx, by}, pt{cx + rx*bc, by}, pt{cx + rx, by - h*(0.07-0.05*flat)}, pt{cx + rx, side}, 48)...)
	pts = append(pts, cubicPts(pt{cx + rx, side}, pt{cx + rx, by - h*0.80}, pt{cx + rx*0.58, top}, pt{cx, top}, 48)[1:]...)
	pts = append(pts, cubicPts(pt{cx, top}, pt{cx - rx*0.58, top}, pt{cx - rx, by - h*0.80}, pt{cx - rx, side}, 48)[1:]...)
	pts = append(pts, cubicPts(pt{cx - rx, side}, pt{cx - rx, by - h*(0.07-0.05*flat)}, pt{cx - rx*bc, by}, pt{cx, by}, 48)[1:]...)
	return pts
}

func closed(pts []pt) []pt { return append(append([]pt{}, pts...), pts[0], pts[1]) }

func (d *drawer) body() {
	pts := bodyPts(d.lk.rx, d.lk.h, d.p.flat)
	shape := polygon(pts...)
	m := d.c.mask(shape)
	d.c.paintMask(m, d.pal.body)
	// Soft shading: warm shade low and to the right, a glow up left.
	d.c.softEllipse(pt{cx + 30, groundY + 30}, d.lk.rx*1.25, d.lk.h*0.55, d.pal.bodyShade, 0.85, 10, 0.3, m)
	d.c.softEllipse(pt{cx - 34, groundY - d.lk.h*0.68}, d.lk.rx*0.85, d.lk.h*0.40, d.pal.bodyLight, 0.9, 10, 0.2, m)
	// Glossy highlight.
	gl := d.pal.white
	gl.A = 210
	d.c.fillClip(stroke(quadPts(pt{cx - 96, groundY - d.lk.h*0.52}, pt{cx - 94, groundY - d.lk.h*0.84}, pt{cx - 46, groundY - d.lk.h*0.93}, 16), taper(11, 3)), gl, m)
	d.c.fill(stroke(closed(pts), constWidth(lineW)), d.pal.outline)
}

// halfWidth is the body's half width at height y (local coordinates).
func halfWidth(pts []pt, y float64) float64 {
	best := 0.0
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if (a.Y-y)*(b.Y-y) <= 0 && a.X > cx && b.X > cx {
			t := 0.5
			if a.Y != b.Y {
				t = (y - a.Y) / (b.Y - a.Y)
			}
			best = math.Max(best, a.X+(b.X-a.X)*t-cx)
		}
	}
	return best
}

// arm draws a tiny stubby arm on side s (-1 left, +1 right). The back pass
// (front=false) draws its outline behind the body so the arm seems to grow
// out of it; the front pass fills it and outlines the part outside the body.
func (d *drawer) arm(s float64, a arm, front bool) {
	pts := bodyPts(d.lk.rx, d.lk.h, d.p.flat)
	var c pt
	var rot float64
	if a.chin {
		// A paw held up in front of the body, by the mouth.
		c = pt{cx + s*50, d.mouthY() + 20}
		rot = s * -0.7
	} else {
		up := math.Min(math.Max(a.angle/math.Pi, 0), 1)
		sy := groundY - d.lk.h*(0.25+0.16*up) - a.lift
		sh := pt{cx + s*(halfWidth(pts, sy)-10), sy}
		dir := pt{s * math.Sin(a.angle), math.Cos(a.angle)}
		c = sh.add(dir.mul(24))
		rot = math.Atan2(dir.Y, dir.X) - math.Pi/2
	}
	save := d.c.xf
	defer func() { d.c.xf = save }()
	const rx, ry = 15.5, 25.0
	if !front {
		if !a.chin {
			d.c.xf = rotateAbout(c, rot).then(save)
			d.c.fill(ellipse(c, rx+lineW/2, ry+lineW/2), d.pal.outline)
		}
		return
	}
	bm := image.NewAlpha(d.c.img.Bounds())
	if !a.chin {
		bm = d.c.mask(polygon(bodyPts(d.lk.rx-lineW/2, d.lk.h-lineW/2, d.p.flat)...))
	}
	d.c.xf = rotateAbout(c, rot).then(save)
	outer := d.c.mask(ellipse(c, rx+lineW/2, ry+lineW/2))
	inner := d.c.mask(ellipse(c, rx-lineW/2, ry-lineW/2))
	ring := cloneAlpha(outer)
	subtract(ring, inner)
	subtract(ring, bm)
	d.c.paintMask(inner, d.pal.body)
	// A little shade on the arm tip.
	sh2 := d.pal.bodyShade
	sh2.A = 150
	d.c.fillClip(ellipse(c.add(pt{0, ry * 0.55}), rx, ry*0.55), sh2, inner)
	d.c.paintMask(ring, d.pal.outline)
}

func cloneAlpha(m *image.Alpha) *image.Alpha {
	n := image.NewAlpha(m.Bounds())
	copy(n.Pix, m.Pix)
	return n
}

// leafPts is a leaf from base b pointing at angle a (radians from up,
// clockwise), length l, width w.
func leafPts(b pt, a, l, w float64) []pt {
	dir := pt{math.Sin(a), -math.Cos(a)}
	nrm := pt{-dir.Y, dir.X}
	tip := b.add(dir.mul(l))
	c1 := b.add(dir.mul(l * 0.25)).add(nrm.mul(w))
	c2 := b.add(dir.mul(l * 0.75)).add(nrm.mul(w * 0.9))
	c3 := b.add(dir.mul(l * 0.75)).sub(nrm.mul(w * 0.9))
	c4 := b.add(dir.mul(l * 0.25)).sub(nrm.mul(w))
	pts := cubicPts(b, c1, c2, tip, 32)
	return append(pts, cubicPts(tip, c3, c4, b, 32)[1:]...)
}

func (d *drawer) sprout() {
	base := pt{cx + 4, d.top() + 10}
	save := d.c.xf
	d.c.xf = rotateAbout(base, d.p.sway).then(save)
	defer func() { d.c.xf = save }()
	tipS := pt{cx + 10, d.top() - 34}
	stem := quadPts(base, pt{cx - 6, d.top() - 12}, tipS, 16)
	d.c.fill(stroke(stem, constWidth(9+lineW)), d.pal.leafDark)
	d.c.fill(stroke(stem, constWidth(9)), d.pal.leaf)
	for _, lf := range []struct{ a, l, w float64 }{{1.05, 66, 20}, {-1.0, 48, 15}} {
		pts := leafPts(tipS, lf.a, lf.l, lf.w)
		d.c.fill(polygon(pts...), d.pal.leaf)
		dir := pt{math.Sin(lf.a), -math.Cos(lf.a)}
		vein := []pt{tipS.add(dir.mul(lf.l * 0.18)), tipS.add(dir.mul(lf.l * 0.68))}
		d.c.fill(stroke(vein, taper(5, 2)), d.pal.leafVein)
		d.c.fill(stroke(closed(pts), constWidth(lineW-1)), d.pal.leafDark)
	}
	d.c.fill(circle(tipS, 7), d.pal.leafDark)
}
