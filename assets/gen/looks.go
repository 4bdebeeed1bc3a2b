package main

import "image/color"

// palette is Yui's colours.
type palette struct {
	outline, body, bodyShade, bodyLight, blush, blushLine color.NRGBA
	eye, eyeGlow, mouth, mouthFill, tongue                color.NRGBA
	leaf, leafDark, leafVein, tear, tearDark, anger, star color.NRGBA
	starDark, note, shadow, white                         color.NRGBA
}

func yuiPalette() palette {
	return palette{
		outline:   nrgba(180, 96, 108, 255),
		body:      nrgba(255, 221, 212, 255),
		bodyShade: nrgba(246, 178, 178, 255),
		bodyLight: nrgba(255, 247, 242, 255),
		blush:     nrgba(255, 132, 148, 255),
		blushLine: nrgba(226, 92, 116, 255),
		eye:       nrgba(64, 38, 58, 255),
		eyeGlow:   nrgba(150, 88, 132, 255),
		mouth:     nrgba(150, 62, 80, 255),
		mouthFill: nrgba(178, 66, 88, 255),
		tongue:    nrgba(255, 136, 148, 255),
		leaf:      nrgba(150, 218, 150, 255),
		leafDark:  nrgba(62, 140, 90, 255),
		leafVein:  nrgba(206, 242, 198, 255),
		tear:      nrgba(160, 218, 255, 255),
		tearDark:  nrgba(62, 128, 196, 255),
		anger:     nrgba(236, 72, 84, 255),
		star:      nrgba(255, 226, 120, 255),
		starDark:  nrgba(214, 150, 48, 255),
		note:      nrgba(120, 104, 170, 255),
		shadow:    nrgba(48, 26, 44, 255),
		white:     nrgba(255, 255, 255, 255),
	}
}

// look is what tells a built-in character apart at a glance: its colours
// and its silhouette (body size, a sprout or ears on top).
type look struct {
	pal   palette
	rx, h float64 // body half width and height
	ears  bool    // cat ears instead of the sprout
}

var yuiLook = look{pal: yuiPalette(), rx: bodyRX, h: bodyH}
