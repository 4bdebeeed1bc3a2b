package petwindow

import (
	"image"
	"image/draw"
	"math"
	"sync"
)

// alphaThreshold is the alpha (0-255) above which a character pixel counts
// as drawn: the window's shape keeps it, and clicks on it reach the pet.
const alphaThreshold = 128

// maskRects returns the rectangles covering the pixels of img whose alpha is
// above alphaThreshold, after scaling img to w×h pixels. Each scaled pixel
// takes the mean alpha of the source pixels it covers. The rectangles are
// relative to the scaled image's top-left corner; rows with identical runs
// are merged into taller rectangles, so a typical character takes a few
// hundred rectangles.
func maskRects(img image.Image, w, h int) []image.Rectangle {
	if img == nil || w <= 0 || h <= 0 {
		return nil
	}
	b := img.Bounds()
	if b.Empty() {
		return nil
	}
	alpha := alphaOf(img)
	sw, sh := b.Dx(), b.Dy()

	var rects []image.Rectangle
	var prev, cur []int // runs of the previous and current row: x0, x1 pairs
	open := []int{}     // index in rects of the rectangle each prev run extends
	for ty := 0; ty < h; ty++ {
		sy0, sy1 := span(ty, h, sh)
		cur = cur[:0]
		inRun := false
		for tx := 0; tx < w; tx++ {
			sx0, sx1 := span(tx, w, sw)
			sum, n := 0, 0
			for sy := sy0; sy < sy1; sy++ {
				row := alpha.Pix[sy*alpha.Stride:]
				for sx := sx0; sx < sx1; sx++ {
					sum += int(row[sx])
					n++
				}
			}
			on := n > 0 && sum > alphaThreshold*n
			switch {
			case on && !inRun:
				cur = append(cur, tx)
				inRun = true
			case !on && inRun:
				cur = append(cur, tx)
				inRun = false
			}
		}
		if inRun {
			cur = append(cur, w)
		}
		if equalInts(cur, prev) {
			for _, i := range open {
				rects[i].Max.Y = ty + 1
			}
			continue
		}
		open = open[:0]
		for i := 0; i < len(cur); i += 2 {
			open = append(open, len(rects))
			rects = append(rects, image.Rect(cur[i], ty, cur[i+1], ty+1))
		}
		prev = append(prev[:0], cur...)
	}
	return rects
}

// alphaOf returns img's alpha channel, its top-left corner at 0, 0. A
// pack's images are *image.NRGBA (pet/character): their alpha is copied
// byte by byte, where image/draw, which has no fast path from NRGBA to
// Alpha, goes through each pixel's colour (about 20 ms for one 384x512
// frame, spent on the UI goroutine before the pet's first frame).
func alphaOf(img image.Image) *image.Alpha {
	b := img.Bounds()
	alpha := image.NewAlpha(image.Rect(0, 0, b.Dx(), b.Dy()))
	var pix []byte
	var stride int
	switch m := img.(type) {
	case *image.NRGBA:
		pix, stride = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride
	case *image.RGBA: // premultiplied, but its alpha is the same byte
		pix, stride = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride
	default:
		draw.Draw(alpha, alpha.Bounds(), img, b.Min, draw.Src)
		return alpha
	}
	for y := range b.Dy() {
		src, dst := pix[y*stride:], alpha.Pix[y*alpha.Stride:]
		for x := range b.Dx() {
			dst[x] = src[4*x+3]
		}
	}
	return alpha
}

// span maps target index t of n onto the source range [a, b) of m.
func span(t, n, m int) (a, b int) {
	a = t * m / n
	b = (t + 1) * m / n
	if b <= a {
		b = a + 1
	}
	if b > m {
		b = m
	}
	return a, b
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// roundedRects approximates a rounded rectangle with corner radius r by
// horizontal strips: one per pixel row inside the corners, one for the body.
func roundedRects(r image.Rectangle, radius int) []image.Rectangle {
	return appendRounded(nil, r, radius)
}

// appendRounded is roundedRects appending to out: a shape computed a few
// times a second reuses its buffer.
func appendRounded(out []image.Rectangle, r image.Rectangle, radius int) []image.Rectangle {
	if r.Empty() {
		return out
	}
	if max := min(r.Dx(), r.Dy()) / 2; radius > max {
		radius = max
	}
	if radius <= 0 {
		return append(out, r)
	}
	inset := func(row int) int { // row 0 is the outermost
		dy := float64(radius) - float64(row) - 0.5
		return radius - int(math.Round(math.Sqrt(float64(radius*radius)-dy*dy)))
	}
	for i := 0; i < radius; i++ {
		in := inset(i)
		out = append(out, image.Rect(r.Min.X+in, r.Min.Y+i, r.Max.X-in, r.Min.Y+i+1))
	}
	out = append(out, image.Rect(r.Min.X, r.Min.Y+radius, r.Max.X, r.Max.Y-radius))
	for i := radius - 1; i >= 0; i-- {
		in := inset(i)
		out = append(out, image.Rect(r.Min.X+in, r.Max.Y-i-1, r.Max.X-in, r.Max.Y-i))
	}
	return out
}

// triangleRects approximates a downward-pointing triangle whose top edge is
// r's top edge and whose apex is at the bottom centre of r.
func triangleRects(r image.Rectangle) []image.Rectangle {
	h := r.Dy()
	if h <= 0 || r.Dx() <= 0 {
		return nil
	}
	out := make([]image.Rectangle, 0, h)
	for i := 0; i < h; i++ {
		half := float64(r.Dx()) / 2 * float64(h-i) / float64(h)
		cx := float64(r.Min.X) + float64(r.Dx())/2
		x0, x1 := int(math.Floor(cx-half)), int(math.Ceil(cx+half))
		if x1 > x0 {
			out = append(out, image.Rect(x0, r.Min.Y+i, x1, r.Min.Y+i+1))
		}
	}
	return out
}

// upTriangleRects is triangleRects upside down: the apex at r's top
// centre, the base on r's bottom edge.
func upTriangleRects(r image.Rectangle) []image.Rectangle {
	rs := triangleRects(r)
	for i, q := range rs {
		y := r.Max.Y - 1 - (q.Min.Y - r.Min.Y)
		rs[i] = image.Rect(q.Min.X, y, q.Max.X, y+1)
	}
	return rs
}

// maskCache remembers the mask of each frame image at each drawn size, so a
// looping animation computes every frame's mask once.
type maskCache struct {
	mu sync.Mutex
	m  map[maskKey][]image.Rectangle
}

type maskKey struct {
	img  image.Image
	w, h int
}

// reset forgets every mask.
func (c *maskCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}

// get returns the cached mask of img drawn at w×h pixels, computing it once.
func (c *maskCache) get(img image.Image, w, h int) []image.Rectangle {
	if p, ok := img.(*packedImage); ok && p.rect.Dx() == w && p.rect.Dy() == h {
		return p.mask
	}
	k := maskKey{img, w, h}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.m[k]; ok {
		return r
	}
	if c.m == nil {
		c.m = make(map[maskKey][]image.Rectangle)
	}
	r := maskRects(img, w, h)
	c.m[k] = r
	return r
}
