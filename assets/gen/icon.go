package main

import (
	"image"
	"math"
)

// iconSize is the app icon's side in pixels.
const iconSize = 512

// windowIconSize is the side of the windows' icon: what a window manager
// shows in a task bar or a window switcher (up to 128 pixels), which each
// window decodes and sends to the X server when it is made; at 512 pixels
// that took 10-16 ms of every window's making, the pet's first frame's
// included.
const windowIconSize = 128

// iconMargin is the transparent room around the character in the icon at
// iconSize, and in proportion at other sizes.
const iconMargin = 24

// icon draws the app icon at size pixels a side: Yui's neutral face (no
// drop shadow) centred on a transparent square, as large as the margin
// allows, drawn at that size rather than scaled from the pack's images.
func icon(size int) *image.RGBA {
	p := basePose()
	p.shadow = 0
	b := alphaBounds(render(p))
	margin := float64(iconMargin * size / iconSize)
	k := math.Min((float64(size)-2*margin)/float64(b.Dx()), (float64(size)-2*margin)/float64(b.Dy()))
	c := pt{float64(b.Min.X+b.Max.X) / 2, float64(b.Min.Y+b.Max.Y) / 2}
	d := &drawer{c: newCanvas(size, size), pal: yuiPalette(), p: p, lk: yuiLook}
	d.c.view = translate(-c.X, -c.Y).then(affine{k, 0, 0, 0, k, 0}).then(translate(float64(size)/2, float64(size)/2))
	d.draw()
	return d.c.img
}

// alphaBounds is the bounding box of img's pixels that are not fully
// transparent.
func alphaBounds(img *image.RGBA) image.Rectangle {
	var r image.Rectangle
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.Pix[img.PixOffset(x, y)+3] != 0 {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}
