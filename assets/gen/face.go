package main

import "math"

// Yui's face: her eyes, brows and mouth as the pose's face sets them.

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
