package vrmpack

import (
	"image"
	"image/color"
	"math"
)

// The pictures judged as a person would see them: by regions, not bytes.

// opaqueBox is the box of a picture's solid pixels (alpha over half: the
// figure, not its shadow).
func opaqueBox(img image.Image) image.Rectangle {
	b := img.Bounds()
	box := image.Rectangle{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a > 0x8000 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// diff is the mean difference of two pictures over a region, 0..255 per
// channel, alpha included.
func diff(a, b image.Image, r image.Rectangle) float64 {
	var sum float64
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ca := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			cb := color.NRGBAModel.Convert(b.At(x, y)).(color.NRGBA)
			sum += math.Abs(float64(ca.R)-float64(cb.R)) + math.Abs(float64(ca.G)-float64(cb.G)) +
				math.Abs(float64(ca.B)-float64(cb.B)) + math.Abs(float64(ca.A)-float64(cb.A))
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n) / 4
}

// hasColour reports whether at least min solid pixels of img are within
// tol (per channel) of c.
func hasColour(img image.Image, c color.NRGBA, tol uint8, min int) bool {
	b := img.Bounds()
	n := 0
	near := func(p, q uint8) bool { return absDiff(p, q) <= int(tol) }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			p := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if p.A > 200 && near(p.R, c.R) && near(p.G, c.G) && near(p.B, c.B) {
				n++
			}
		}
	}
	return n >= min
}

// changed counts the pixels of a region that differ by more than 32 in a
// channel: a mouth that opens changes a few pixels a lot, which a mean
// over the head hides.
func changed(a, b image.Image, r image.Rectangle) int {
	n := 0
	far := func(p, q uint8) bool { return absDiff(p, q) > 32 }
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ca := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			cb := color.NRGBAModel.Convert(b.At(x, y)).(color.NRGBA)
			if far(ca.R, cb.R) || far(ca.G, cb.G) || far(ca.B, cb.B) || far(ca.A, cb.A) {
				n++
			}
		}
	}
	return n
}

func absDiff(p, q uint8) int {
	if p > q {
		return int(p - q)
	}
	return int(q - p)
}
