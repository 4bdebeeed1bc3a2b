package character

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"io/fs"
	"runtime"
	"sync"
)

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// loadImages decodes every image the manifest names, each file once.
// The files are read and their sizes checked in order, then decoded on
// all cores at once (decodeAll): the built-in pack's 37 images took 700
// ms one after the other on a loaded 2-core machine, before the pet's
// first frame.
func (p *Pack) loadImages(fsys fs.FS, m *manifest) error {
	decoded := decodeAll(fsys, m.imageNames())
	cache := map[string]image.Image{}
	get := func(name string) (image.Image, error) {
		if img, ok := cache[name]; ok {
			return img, nil
		}
		if len(cache) >= MaxImages {
			return nil, fmt.Errorf("more than %d image files", MaxImages)
		}
		d, ok := decoded[name]
		if !ok {
			// Past the first failure nothing more was read.
			return nil, fmt.Errorf("image %s: not read", name)
		}
		if d.err != nil {
			return nil, d.err
		}
		img := d.img
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

// imageNames are the files the manifest names, each once, in the order
// loadImages asks for them.
func (m *manifest) imageNames() []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, id := range sortedKeys(m.Emotions) {
		add(m.Emotions[id])
	}
	for _, id := range sortedKeys(m.Motions) {
		for _, f := range m.Motions[id].Frames {
			add(f)
		}
	}
	for _, dir := range sortedKeys(m.Gaze) {
		add(m.Gaze[dir])
	}
	return names
}

// decoded is one file's image, or why it has none.
type decoded struct {
	img image.Image
	err error
}

// decodeAll reads names in order, checking each file's size and the
// pack's total before any is decoded, up to the first that fails and at
// most MaxImages of them; then decodes what was read on all cores.
func decodeAll(fsys fs.FS, names []string) map[string]decoded {
	out := map[string]decoded{}
	var total, bytesRead int64
	var data [][]byte
	var read []string
	for _, name := range names[:min(len(names), MaxImages)] {
		b, err := readPNG(fsys, name, &total)
		if err == nil && bytesRead+int64(len(b)) > MaxTotalBytes {
			err = fmt.Errorf("image files add up to more than %d MiB", MaxTotalBytes>>20)
		}
		if err != nil {
			out[name] = decoded{err: err}
			break
		}
		bytesRead += int64(len(b))
		data, read = append(data, b), append(read, name)
	}
	imgs := make([]decoded, len(read))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(read)) {
		wg.Go(func() {
			for i := range work {
				img, err := png.Decode(bytes.NewReader(data[i]))
				if err != nil {
					imgs[i] = decoded{err: fmt.Errorf("image %s: %w", read[i], err)}
					continue
				}
				imgs[i] = decoded{img: toNRGBA(img)}
			}
		})
	}
	for i := range read {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, name := range read {
		out[name] = imgs[i]
	}
	return out
}

// readPNG reads one image file, checking its size before it is decoded.
// total counts the pack's pixels across its files.
func readPNG(fsys fs.FS, name string, total *int64) ([]byte, error) {
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
	return data, nil
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
