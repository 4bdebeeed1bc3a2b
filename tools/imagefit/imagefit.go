// Package imagefit is the JPEG fitter of docs/protocol/client-tools.md: it fits images
// into a frame's byte budget for turn.images and image tool results.
package imagefit

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // decoders for attachments
	"image/jpeg"
	_ "image/png"
	"math"
	"net/http"

	"github.com/disintegration/imaging"
	_ "golang.org/x/image/webp"

	"yui/transport"
	"yui/transport/dataurl"
)

// Qualities are the JPEG quality steps tried, best first, before the
// dimensions shrink (at the last step).
var qualities = [...]int{85, 70, 55, 40}

const (
	// minJPEG is the smallest budget worth trying: below it even a tiny
	// thumbnail is mostly headers.
	minJPEG = 1024
	// sampleAbove is the pixel count above which sizes are estimated on a
	// sample before the full image is encoded: a full encode of a 4K
	// screenshot costs tens of milliseconds, a sample a fraction of that.
	sampleAbove = 1 << 20
	// maxPixels bounds the images decoded (a 16K display is 150 Mpx).
	maxPixels = 160 << 20
	// maxShrinks bounds the dimension search.
	maxShrinks = 16
)

// Fit implements transport.ImageFitter: it returns data URLs whose
// JSON-encoded array takes at most room bytes, keeping images that fit
// their equal share as they are and re-encoding the others as JPEG (lower
// quality first, then smaller dimensions). ok is false when nothing fits.
// Deterministic.
//
// Room one kept image leaves unused goes to the images that are
// re-encoded. An image that cannot be decoded, or does not fit even as a
// small thumbnail, is left out; the others keep their order. No images
// give an empty list, ok when "[]" fits.
func Fit(images []transport.Image, room int) (urls []string, ok bool) {
	n := len(images)
	if n == 0 {
		return []string{}, room >= 2
	}
	// The array's own bytes: brackets, commas and each URL's two quotes.
	// Data URLs need no JSON escaping: the MIME type and base64 are plain ASCII.
	avail := room - 2 - (n - 1) - 2*n
	if avail <= 0 {
		return nil, false
	}
	share := avail / n
	out := make([]string, n)
	var redo []int
	left := avail
	for i, im := range images {
		if u, ok := dataURL(im); ok && len(u) <= share {
			out[i] = u
			left -= len(u)
		} else {
			redo = append(redo, i)
		}
	}
	for k, i := range redo {
		budget := left / (len(redo) - k)
		if u, ok := fitJPEG(images[i].Data, budget); ok {
			out[i] = u
			left -= len(u)
		}
	}
	urls = out[:0]
	for _, u := range out {
		if u != "" {
			urls = append(urls, u)
		}
	}
	if len(urls) == 0 {
		return nil, false
	}
	return urls, true
}

var _ transport.ImageFitter = Fit

// dataURL returns the image as it is, as a data URL; ok is false when its
// type is not an image type.
func dataURL(im transport.Image) (string, bool) {
	mime := im.MIME
	if mime == "" {
		mime = http.DetectContentType(im.Data)
	}
	if !dataurl.PlainImage(mime) {
		return "", false
	}
	return dataurl.Encode(mime, im.Data), true
}

// jpegURL returns the data URL of JPEG bytes.
func jpegURL(b []byte) string { return dataurl.Encode("image/jpeg", b) }

// fitJPEG re-encodes data as a JPEG whose data URL is at most maxURL bytes.
func fitJPEG(data []byte, maxURL int) (string, bool) {
	// base64 turns each 3 bytes (or part) into 4 characters.
	budget := (maxURL - dataurl.Len("image/jpeg", 0)) / 4 * 3
	if budget < minJPEG {
		return "", false
	}
	// A small file can claim huge dimensions; refuse before allocating.
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxPixels {
		return "", false
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return "", false
	}
	img := opaqueRGBA(src)
	var buf bytes.Buffer

	// Quality steps at full size. A sample predicts each step's size, so
	// that only steps likely to fit are encoded in full; when even the
	// lowest step is predicted too big, no full-size encode is tried.
	q := qualities[len(qualities)-1]
	est := estimator(img)
	size := 0
	if est != nil {
		size = est(q)
	}
	if size <= budget {
		size = 0
		for _, tryQ := range qualities {
			if est != nil && tryQ != q && est(tryQ) > budget {
				continue
			}
			b := encode(&buf, img, tryQ)
			if len(b) <= budget {
				return jpegURL(b), true
			}
			size = len(b)
		}
	}

	// Dimensions shrink at the lowest quality. JPEG size goes roughly with
	// the pixel count, so the scale is the square root of the overshoot,
	// a little under to land below the budget in one step most times.
	b := img.Bounds()
	scale := 1.0
	for range maxShrinks {
		scale *= min(0.95, math.Sqrt(float64(budget)/float64(size))*0.95)
		w := int(math.Round(float64(b.Dx()) * scale))
		h := int(math.Round(float64(b.Dy()) * scale))
		if w < 1 || h < 1 {
			return "", false
		}
		small := asRGBA(imaging.Resize(img, w, h, imaging.Box))
		enc := encode(&buf, small, q)
		if len(enc) <= budget {
			return jpegURL(enc), true
		}
		// The next step scales from this one by its own overshoot.
		size = len(enc)
	}
	return "", false
}

// encode returns img as JPEG at quality q; the bytes alias buf.
func encode(buf *bytes.Buffer, img image.Image, q int) []byte {
	buf.Reset()
	// Encoding into memory cannot fail for an in-memory image.
	_ = jpeg.Encode(buf, img, &jpeg.Options{Quality: q})
	return buf.Bytes()
}

// opaqueRGBA returns src as an *image.RGBA over white: JPEG has no alpha,
// and the encoder has a fast path for *image.RGBA.
func opaqueRGBA(src image.Image) *image.RGBA {
	if m, ok := src.(*image.RGBA); ok && m.Opaque() {
		return m // what the PNG decoder gives for a screenshot: use it as is
	}
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Over)
	return dst
}

// asRGBA reinterprets an opaque NRGBA image (what imaging returns) as RGBA:
// with every alpha at 255 the two layouts hold the same bytes.
func asRGBA(m *image.NRGBA) *image.RGBA {
	return &image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
}

// estimator returns a function predicting the JPEG size of img at a
// quality, from evenly spaced full-width strips covering about a sixteenth
// of it; nil when img is small enough to encode outright.
func estimator(img *image.RGBA) func(q int) int {
	b := img.Bounds()
	if b.Dx()*b.Dy() <= sampleAbove {
		return nil
	}
	const strip = 32 // a multiple of the 16-pixel MCU, so blocks match the full encode
	strips := max(1, b.Dy()/strip/16)
	step := b.Dy() / strips
	sample := image.NewRGBA(image.Rect(0, 0, b.Dx(), strips*strip))
	for i := range strips {
		y := i*step + (step-strip)/2
		draw.Draw(sample, image.Rect(0, i*strip, b.Dx(), (i+1)*strip), img, image.Pt(b.Min.X, b.Min.Y+y), draw.Src)
	}
	ratio := float64(b.Dy()) / float64(strips*strip)
	var buf bytes.Buffer
	return func(q int) int {
		// The header (quantisation and Huffman tables) is not per pixel.
		const header = 600
		n := len(encode(&buf, sample, q)) - header
		return header + int(float64(n)*ratio)
	}
}
