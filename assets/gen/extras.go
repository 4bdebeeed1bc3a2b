package main

import (
	"image/color"
	"math"
)

// The extras a pose draws beside Yui (its bodyExtras and airExtras): tears,
// sweat, the anger mark, a question mark, sleep's Zs, sparkles, surprise
// and thinking dots.

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
