package main

// Mint, the second built-in character: a tall, slim, mint-green cat-eared
// mochi, told from Yui (round, peach, a leaf sprout) at a glance.

func mintPalette() palette {
	p := yuiPalette()
	p.outline = nrgba(46, 112, 118, 255)
	p.body = nrgba(196, 240, 228, 255)
	p.bodyShade = nrgba(132, 206, 200, 255)
	p.bodyLight = nrgba(238, 255, 250, 255)
	p.blush = nrgba(255, 160, 176, 255)
	p.blushLine = nrgba(224, 104, 130, 255)
	p.eye = nrgba(30, 52, 74, 255)
	p.eyeGlow = nrgba(70, 130, 170, 255)
	p.mouth = nrgba(60, 90, 110, 255)
	p.mouthFill = nrgba(84, 110, 140, 255)
	p.leaf = nrgba(255, 196, 210, 255) // the inner ear
	p.leafDark = p.outline
	return p
}

var mintLook = look{pal: mintPalette(), rx: 118, h: 322, ears: true}

// ears draws two cat ears on the top of the head, behind the body's
// outline.
func (d *drawer) ears() {
	top := d.top()
	for _, s := range []float64{-1, 1} {
		base := []pt{{cx + s*34, top + 26}, {cx + s*100, top + 70}}
		tip := pt{cx + s*88, top - 46}
		outer := []pt{base[0], tip, base[1]}
		d.c.fill(polygon(outer...), d.pal.body)
		d.c.fill(stroke(closed(outer), constWidth(lineW)), d.pal.outline)
		inner := []pt{{cx + s*50, top + 30}, {cx + s*84, top - 22}, {cx + s*90, top + 44}}
		d.c.fill(polygon(inner...), d.pal.leaf)
	}
}
