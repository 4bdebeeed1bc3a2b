package main

import (
	"image"
	"image/color"
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

func (d *drawer) drawFace() {
	f := d.p.face
	ey := d.eyeY()
	// Cheeks first so the eyes sit on top.
	if f.blush > 0 {
		b := d.pal.blush
		for _, s := range []float64{-1, 1} {
			c := pt{cx + s*94, ey + 34}
			d.c.softEllipse(c, 27, 15, b, math.Min(0.95, f.blush), 6, 0.55, nil)
			if f.blushLines {
				for i := -1; i <= 1; i++ {
					x := c.X + float64(i)*12
					d.c.fill(stroke([]pt{{x + 5, c.Y - 9}, {x - 5, c.Y + 8}}, constWidth(4.5)), d.pal.blushLine)
				}
			}
		}
	}
	for _, s := range []float64{-1, 1} {
		e := pt{cx + s*d.eyeDX() + f.lookX, ey + f.lookY}
		open, tilt, br := f.openL, f.lidTiltL, f.browL
		if s > 0 {
			open, tilt, br = f.openR, f.lidTiltR, f.browR
		}
		switch f.eyes {
		case eyeOpen:
			sc := f.eyeScale
			if s > 0 && f.eyeScaleR != 0 {
				sc = f.eyeScaleR
			}
			d.eye(e, s, open, tilt, sc)
		case eyeHappy:
			d.c.fill(stroke(quadPts(pt{e.X - 21, e.Y + 8}, pt{e.X, e.Y - 26}, pt{e.X + 21, e.Y + 8}, 20), constWidth(10)), d.pal.eye)
		case eyeClosed:
			d.c.fill(stroke(quadPts(pt{e.X - 21, e.Y + 2}, pt{e.X, e.Y + 20}, pt{e.X + 21, e.Y + 2}, 20), constWidth(9)), d.pal.eye)
			// A little lash at the outer corner.
			o := pt{e.X - s*-21, e.Y + 2}
			d.c.fill(stroke([]pt{o, o.add(pt{s * 7, -6})}, constWidth(6)), d.pal.eye)
		case eyeSquint:
			// ">" on the left, "<" on the right.
			tip := pt{e.X + s*-14, e.Y}
			for _, dy := range []float64{-15, 15} {
				d.c.fill(stroke([]pt{{e.X + s*16, e.Y + dy}, tip}, constWidth(10)), d.pal.eye)
			}
		}
		if br.on {
			d.brow(e, s, br)
		}
	}
	d.mouthShape()
}

// eye draws an open eye: a tall dark oval with a warm glow low down and two
// highlights, cut by a lid from the top when open < 1.
func (d *drawer) eye(e pt, s, open, tilt, scale float64) {
	rx, ry := 23*scale, 31*scale
	m := d.c.mask(ellipse(e, rx, ry))
	if open < 1 {
		y0 := e.Y - ry + (1-open)*2*ry
		// Inner end is toward the centre: x-cx has the opposite sign of s.
		t := math.Tan(tilt) * -s
		lid := polygon(pt{e.X - 60, e.Y - 200}, pt{e.X + 60, e.Y - 200}, pt{e.X + 60, y0 + 60*t}, pt{e.X - 60, y0 - 60*t})
		subtract(m, d.c.mask(lid))
		d.c.paintMask(m, d.pal.eye)
		d.c.fill(stroke([]pt{{e.X - rx - 4, y0 - (rx+4)*t}, {e.X + rx + 4, y0 + (rx+4)*t}}, constWidth(7)), d.pal.eye)
	} else {
		d.c.paintMask(m, d.pal.eye)
	}
	d.c.softEllipse(pt{e.X, e.Y + ry*0.75}, rx*0.85, ry*0.55, d.pal.eyeGlow, 0.9, 5, 0.5, m)
	d.c.fillClip(circle(pt{e.X + 7*scale, e.Y - 11*scale}, 9.5*scale), d.pal.white, m)
	d.c.fillClip(circle(pt{e.X - 8*scale, e.Y + 12*scale}, 4.5*scale), d.pal.white, m)
}

func (d *drawer) brow(e pt, s float64, b brow) {
	y := e.Y - 50 - b.raise
	t := math.Tan(b.tilt) * 17
	inner := pt{e.X - s*18, y + t}
	outer := pt{e.X + s*18, y - t}
	mid := lerpPt(inner, outer, 0.5).add(pt{0, -6})
	d.c.fill(stroke(quadPts(outer, mid, inner, 16), taper(9, 5)), d.pal.eye)
}

func (d *drawer) mouthShape() {
	f := d.p.face
	m := pt{cx + f.mouthDX, d.mouthY()}
	ink := d.pal.mouth
	switch f.mouth {
	case mouthSmile:
		d.c.fill(stroke(quadPts(pt{m.X - 15, m.Y - 3}, pt{m.X, m.Y + 12}, pt{m.X + 15, m.Y - 3}, 16), constWidth(7)), ink)
	case mouthCat:
		d.c.fill(stroke(quadPts(pt{m.X - 20, m.Y - 3}, pt{m.X - 10, m.Y + 14}, pt{m.X, m.Y}, 12), constWidth(7)), ink)
		d.c.fill(stroke(quadPts(pt{m.X, m.Y}, pt{m.X + 10, m.Y + 14}, pt{m.X + 20, m.Y - 3}, 12), constWidth(7)), ink)
	case mouthFrown:
		d.c.fill(stroke(quadPts(pt{m.X - 15, m.Y + 7}, pt{m.X, m.Y - 8}, pt{m.X + 15, m.Y + 7}, 16), constWidth(7)), ink)
	case mouthPout:
		d.c.fill(stroke(quadPts(pt{m.X - 13, m.Y + 8}, pt{m.X, m.Y - 6}, pt{m.X + 13, m.Y + 8}, 16), constWidth(7)), ink)
	case mouthFlat:
		d.c.fill(stroke([]pt{{m.X - 11, m.Y + 3}, {m.X + 11, m.Y}}, constWidth(7)), ink)
	case mouthWavy:
		var pts []pt
		for i := 0; i <= 24; i++ {
			t := float64(i) / 24
			pts = append(pts, pt{m.X - 22 + 44*t, m.Y + 2 + 4*math.Sin(t*3*math.Pi)})
		}
		d.c.fill(stroke(pts, constWidth(6.5)), ink)
	case mouthO:
		rx, ry := 10+4*f.mouthOpen, 9+9*f.mouthOpen
		d.openMouth(ellipsePts(pt{m.X, m.Y + ry*0.4}, rx, ry), pt{m.X, m.Y + ry*1.2}, rx)
	case mouthTalk:
		if f.mouthOpen <= 0 {
			d.c.fill(stroke(quadPts(pt{m.X - 15, m.Y - 3}, pt{m.X, m.Y + 12}, pt{m.X + 15, m.Y - 3}, 16), constWidth(7)), ink)
			return
		}
		h := 6 + 26*f.mouthOpen
		w := 17 + 3*f.mouthOpen
		pts := cubicPts(pt{m.X - w, m.Y - 2}, pt{m.X - w*0.5, m.Y + 2}, pt{m.X + w*0.5, m.Y + 2}, pt{m.X + w, m.Y - 2}, 20)
		pts = append(pts, cubicPts(pt{m.X + w, m.Y - 2}, pt{m.X + w, m.Y + h*0.9}, pt{m.X - w, m.Y + h*0.9}, pt{m.X - w, m.Y - 2}, 24)[1:]...)
		d.openMouth(pts, pt{m.X, m.Y + h*0.75}, w*0.7)
	case mouthGrin:
		w, h := 27.0, 30.0
		pts := cubicPts(pt{m.X - w, m.Y - 6}, pt{m.X - w*0.5, m.Y - 1}, pt{m.X + w*0.5, m.Y - 1}, pt{m.X + w, m.Y - 6}, 20)
		pts = append(pts, cubicPts(pt{m.X + w, m.Y - 6}, pt{m.X + w, m.Y + h}, pt{m.X - w, m.Y + h}, pt{m.X - w, m.Y - 6}, 24)[1:]...)
		d.openMouth(pts, pt{m.X, m.Y + h*0.72}, w*0.62)
	}
}

func ellipsePts(c pt, rx, ry float64) []pt {
	var pts []pt
	for i := 0; i < 48; i++ {
		a := 2 * math.Pi * float64(i) / 48
		pts = append(pts, pt{c.X + rx*math.Cos(a), c.Y + ry*math.Sin(a)})
	}
	return pts
}

// openMouth fills the mouth outline pts, puts a tongue at t and outlines it.
func (d *drawer) openMouth(pts []pt, t pt, tw float64) {
	shape := polygon(pts...)
	m := d.c.mask(shape)
	d.c.paintMask(m, d.pal.mouthFill)
	d.c.fillClip(ellipse(t, tw, tw*0.62), d.pal.tongue, m)
	d.c.fill(stroke(closed(pts), constWidth(6)), d.pal.mouth)
}

// --- extras ---

// dropPts is a teardrop with its round end at c, radius r, pointing at angle
// a (radians from up).
func dropPts(c pt, r, a float64) []pt {
	dir := pt{math.Sin(a), -math.Cos(a)}
	nrm := pt{-dir.Y, dir.X}
	tip := c.add(dir.mul(r * 2.3))
	var pts []pt
	for i := 0; i <= 32; i++ {
		th := math.Pi * float64(i) / 32
		pts = append(pts, c.add(nrm.mul(r*math.Cos(th))).add(dir.mul(-r*math.Sin(th))))
	}
	// From -nrm side back up to the tip and around.
	pts = append(pts, cubicPts(c.sub(nrm.mul(r)), c.sub(nrm.mul(r)).add(dir.mul(r*0.9)), tip.sub(nrm.mul(r*0.15)), tip, 12)[1:]...)
	pts = append(pts, cubicPts(tip, tip.add(nrm.mul(r*0.15)), c.add(nrm.mul(r)).add(dir.mul(r*0.9)), c.add(nrm.mul(r)), 12)[1:]...)
	return pts
}

func (d *drawer) drop(c pt, r, a float64) {
	pts := dropPts(c, r, a)
	d.c.fill(polygon(pts...), d.pal.tear)
	d.c.fill(circle(c.add(pt{-r * 0.3, -r * 0.1}), r*0.3), d.pal.white)
	d.c.fill(stroke(closed(pts), constWidth(6)), d.pal.tearDark)
}

func tearExtra(d *drawer) {
	d.drop(pt{cx + d.eyeDX() + 20, d.eyeY() + 44}, 11, 0)
}

func sweatExtra(d *drawer) {
	d.drop(pt{cx + 108, d.top() + 72}, 12, 0)
}

// angerExtra is the cross-popping vein mark.
func angerExtra(d *drawer) {
	c := pt{cx + 92, d.top() + 58}
	for i := 0; i < 4; i++ {
		a := float64(i)*math.Pi/2 + math.Pi/4
		dir := pt{math.Cos(a), math.Sin(a)}
		nrm := pt{-dir.Y, dir.X}
		mid := c.add(dir.mul(15))
		p0 := mid.add(nrm.mul(13)).add(dir.mul(6))
		p1 := mid.sub(nrm.mul(13)).add(dir.mul(6))
		d.c.fill(stroke(quadPts(p0, mid.sub(dir.mul(4)), p1, 12), constWidth(8)), d.pal.anger)
	}
}

// question draws a "?" at c with height h.
func (d *drawer) question(c pt, h float64, col color.NRGBA) {
	r := h * 0.28
	hook := []pt{}
	for i := 0; i <= 20; i++ {
		a := math.Pi*1.1 - math.Pi*1.6*float64(i)/20
		hook = append(hook, pt{c.X + r*math.Cos(a), c.Y - h*0.5 + r - r*math.Sin(a)})
	}
	last := hook[len(hook)-1]
	hook = append(hook, cubicPts(last, last.add(pt{-r * 0.5, r * 0.4}), pt{c.X, c.Y - h*0.02}, pt{c.X, c.Y + h*0.15}, 10)[1:]...)
	d.c.fill(stroke(hook, constWidth(h*0.16+lineW)), d.pal.white)
	d.c.fill(circle(pt{c.X, c.Y + h*0.42}, h*0.08+lineW/2), d.pal.white)
	d.c.fill(stroke(hook, constWidth(h*0.16)), col)
	d.c.fill(circle(pt{c.X, c.Y + h*0.42}, h*0.08), col)
}

func questionExtra(d *drawer) { d.question(pt{cx + 124, d.top() + 10}, 62, d.pal.note) }

// zzz draws sleepy Z letters.
func zzzExtra(d *drawer) {
	for _, z := range []struct{ x, y, s float64 }{{cx + 98, d.top() + 28, 22}, {cx + 136, d.top() - 22, 32}} {
		pts := []pt{{z.x - z.s/2, z.y - z.s/2}, {z.x + z.s/2, z.y - z.s/2}, {z.x - z.s/2, z.y + z.s/2}, {z.x + z.s/2, z.y + z.s/2}}
		for i := 0; i < 3; i++ {
			d.c.fill(stroke([]pt{pts[i], pts[i+1]}, constWidth(7+6)), d.pal.white)
		}
		for i := 0; i < 3; i++ {
			d.c.fill(stroke([]pt{pts[i], pts[i+1]}, constWidth(7)), d.pal.note)
		}
	}
}

// star draws a four-pointed sparkle.
func (d *drawer) star(c pt, r float64) {
	var pts []pt
	for i := 0; i < 8; i++ {
		a := float64(i) * math.Pi / 4
		rr := r
		if i%2 == 1 {
			rr = r * 0.34
		}
		pts = append(pts, pt{c.X + rr*math.Sin(a), c.Y - rr*math.Cos(a)})
	}
	d.c.fill(stroke(closed(pts), constWidth(6)), d.pal.starDark)
	d.c.fill(polygon(pts...), d.pal.star)
}

func sparkleExtra(d *drawer) {
	d.star(pt{cx - 128, d.top() + 20}, 20)
	d.star(pt{cx + 132, d.top() + 48}, 14)
}

// surpriseExtra is three little lines popping off each side of the head.
func surpriseExtra(d *drawer) {
	for _, s := range []float64{-1, 1} {
		for i := -1; i <= 1; i++ {
			a := float64(i)*0.42 + s*0.95
			dir := pt{math.Sin(a), -math.Cos(a)}
			c := pt{cx + s*62, d.top() + 70}
			d.c.fill(stroke([]pt{c.add(dir.mul(92)), c.add(dir.mul(112))}, constWidth(7)), d.pal.outline)
		}
	}
}

func (d *drawer) thinkDots(n int) {
	for i := 0; i < n; i++ {
		c := pt{cx + 96 + float64(i)*34, d.top() + 6 - float64(i)*30}
		r := 9 + float64(i)*3
		d.c.fill(circle(c, r+lineW/2), d.pal.outline)
		d.c.fill(circle(c, r-lineW/2+1), d.pal.white)
	}
}
