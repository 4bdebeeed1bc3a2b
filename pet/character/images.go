package character

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"io/fs"
)

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// loadImages decodes every image the manifest names, each file once.
func (p *Pack) loadImages(fsys fs.FS, m *manifest) error {
	cache := map[string]image.Image{}
	var total int64
	get := func(name string) (image.Image, error) {
		if img, ok := cache[name]; ok {
			return img, nil
		}
		if len(cache) >= MaxImages {
			return nil, fmt.Errorf("more than %d image files", MaxImages)
		}
		img, err := decodePNG(fsys, name, &total)
		if err != nil {
			return nil, err
		}
		b := img.Bounds().Size()
		if len(cache) == 0 {
			p.ImageSize = b
		} else if b != p.ImageSize {
			return nil, fmt.Errorf("image %s is %dx%d, other images are %dx%d; all images must be the same size", name, b.X, b.Y, p.ImageSize.X, p.ImageSize.Y)
		}
		cache[name] = img
		return img, nil
	}
	// Sorted order makes the first error the same on every run.
	for _, id := range sortedKeys(m.Emotions) {
		img, err := get(m.Emotions[id])
		if err != nil {
			return fmt.Errorf("emotion %s: %w", id, err)
		}
		p.Emotions[id] = img
	}
	for _, id := range sortedKeys(m.Motions) {
		mo := m.Motions[id]
		out := Motion{FPS: *mo.FPS, Loop: mo.Loop, Frames: make([]image.Image, 0, len(mo.Frames)), Durations: mo.durations()}
		for i, f := range mo.Frames {
			img, err := get(f)
			if err != nil {
				return fmt.Errorf("motion %s frame %d: %w", id, i, err)
			}
			out.Frames = append(out.Frames, img)
		}
		p.Motions[id] = out
	}
	for _, dir := range sortedKeys(m.Gaze) {
		img, err := get(m.Gaze[dir])
		if err != nil {
			return fmt.Errorf("gaze %s: %w", dir, err)
		}
		if p.Gaze == nil {
			p.Gaze = map[string]image.Image{}
		}
		p.Gaze[dir] = img
	}
	p.makeMirror()
	return nil
}

// decodePNG reads one image, checking its size before decoding it. total
// counts decoded pixels across the pack.
func decodePNG(fsys fs.FS, name string, total *int64) (image.Image, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", name, unwrapPath(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("image %s is a folder", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read image %s: %w", name, unwrapPath(err))
	}
	if len(data) > MaxImageBytes {
		return nil, fmt.Errorf("image %s is larger than %d MiB", name, MaxImageBytes>>20)
	}
	if !bytes.HasPrefix(data, pngMagic) {
		return nil, fmt.Errorf("image %s is not a PNG file", name)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", name, err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return nil, fmt.Errorf("image %s is %dx%d; each side must be 1..%d pixels", name, cfg.Width, cfg.Height, MaxImageSide)
	}
	*total += int64(cfg.Width) * int64(cfg.Height)
	if *total > MaxTotalPixels {
		return nil, fmt.Errorf("images add up to more than %d million pixels", MaxTotalPixels>>20)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", name, err)
	}
	return toNRGBA(img), nil
}

// toNRGBA returns img as *image.NRGBA with its origin at (0, 0).
func toNRGBA(img image.Image) *image.NRGBA {
	if n, ok := img.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Rect, img, b.Min, draw.Src)
	return n
}
