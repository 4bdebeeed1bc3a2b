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
// all cores at once (imageFiles.decode): the built-in pack's 37 images
// took 700 ms one after the other on a loaded 2-core machine, before the
// pet's first frame.
func (p *Pack) loadImages(fsys fs.FS, m *manifest) error {
	names := m.imageNames()
	f := readImages(fsys, names)
	f.decode(names)
	return p.assign(m, f, nil)
}

// assign fills p's emotions, motions, gaze and mirror from f's images.
// A file read but not decoded yet shows stand (LoadQuick's first pack);
// with stand nil every file must be decoded. The size check uses each
// file's header, so both ways refuse the same packs for the same reason.
func (p *Pack) assign(m *manifest, f *imageFiles, stand image.Image) error {
	seen := map[string]bool{}
	get := func(name string) (image.Image, error) {
		if !seen[name] && len(seen) >= MaxImages {
			return nil, fmt.Errorf("more than %d image files", MaxImages)
		}
		size, err := f.size(name)
		if err != nil {
			return nil, err
		}
		if len(seen) == 0 {
			p.ImageSize = size
		} else if size != p.ImageSize {
			return nil, fmt.Errorf("image %s is %dx%d, other images are %dx%d; all images must be the same size", name, size.X, size.Y, p.ImageSize.X, p.ImageSize.Y)
		}
		seen[name] = true
		img, err := f.image(name)
		if err == nil && img == nil {
			if stand == nil {
				return nil, fmt.Errorf("image %s: not decoded", name)
			}
			img = stand
		}
		return img, err
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

// imageFiles are a pack's image files: read, their headers checked, and
// decoded when asked (decode). Not safe for concurrent use.
type imageFiles struct {
	errs  map[string]error       // files that failed, read or decode
	data  map[string][]byte      // read, not decoded yet
	sizes map[string]image.Point // every file read, from its header
	imgs  map[string]*image.NRGBA
}

// readImages reads names in order, checking each file's size and the
// pack's total, up to the first that fails and at most MaxImages of them.
// Nothing is decoded yet.
func readImages(fsys fs.FS, names []string) *imageFiles {
	f := &imageFiles{errs: map[string]error{}, data: map[string][]byte{}, sizes: map[string]image.Point{}, imgs: map[string]*image.NRGBA{}}
	var total, bytesRead int64
	for _, name := range names[:min(len(names), MaxImages)] {
		b, size, err := readPNG(fsys, name, &total)
		if err == nil && bytesRead+int64(len(b)) > MaxTotalBytes {
			err = fmt.Errorf("image files add up to more than %d MiB", MaxTotalBytes>>20)
		}
		if err != nil {
			f.errs[name] = err
			break
		}
		bytesRead += int64(len(b))
		f.data[name], f.sizes[name] = b, size
	}
	return f
}

// decode decodes the files of names read and not decoded yet, on all
// cores, and lets their compressed bytes go.
func (f *imageFiles) decode(names []string) {
	var todo []string
	queued := map[string]bool{}
	for _, n := range names {
		if _, ok := f.data[n]; ok && !queued[n] {
			queued[n] = true
			todo = append(todo, n)
		}
	}
	imgs := make([]*image.NRGBA, len(todo))
	errs := make([]error, len(todo))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for i := range work {
				img, err := png.Decode(bytes.NewReader(f.data[todo[i]]))
				if err != nil {
					errs[i] = fmt.Errorf("image %s: %w", todo[i], err)
					continue
				}
				imgs[i] = toNRGBA(img)
			}
		})
	}
	for i := range todo {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, n := range todo {
		delete(f.data, n)
		if errs[i] != nil {
			f.errs[n] = errs[i]
		} else {
			f.imgs[n] = imgs[i]
		}
	}
}

// size is a file's image size from its header, or why it has none.
func (f *imageFiles) size(name string) (image.Point, error) {
	if err := f.errs[name]; err != nil {
		return image.Point{}, err
	}
	if s, ok := f.sizes[name]; ok {
		return s, nil
	}
	// Past the first failure nothing more was read.
	return image.Point{}, fmt.Errorf("image %s: not read", name)
}

// image is a file's decoded image, nil when it is not decoded yet.
func (f *imageFiles) image(name string) (image.Image, error) {
	if err := f.errs[name]; err != nil {
		return nil, err
	}
	if img, ok := f.imgs[name]; ok {
		return img, nil
	}
	return nil, nil
}

// readPNG reads one image file, checking its size before it is decoded,
// and returns its bytes and the size its header gives. total counts the pack's pixels across its files.
func readPNG(fsys fs.FS, name string, total *int64) ([]byte, image.Point, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, image.Point{}, fmt.Errorf("image %s: %w", name, unwrapPath(err))
	}
	defer f.Close()
	// Read into a buffer of the file's size where it is known: io.ReadAll
	// grows its buffer from 512 bytes, copying a pack's 1.6 MB of images
	// about a dozen times over while the pet's first frame waits.
	buf := bytes.NewBuffer(nil)
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			return nil, image.Point{}, fmt.Errorf("image %s is a folder", name)
		}
		if st.Size() > 0 {
			buf.Grow(int(min(st.Size(), MaxImageBytes+1)) + bytes.MinRead)
		}
	}
	_, err = buf.ReadFrom(io.LimitReader(f, MaxImageBytes+1))
	data := buf.Bytes()
	if err != nil {
		return nil, image.Point{}, fmt.Errorf("read image %s: %w", name, unwrapPath(err))
	}
	if len(data) > MaxImageBytes {
		return nil, image.Point{}, fmt.Errorf("image %s is larger than %d MiB", name, MaxImageBytes>>20)
	}
	if !bytes.HasPrefix(data, pngMagic) {
		return nil, image.Point{}, fmt.Errorf("image %s is not a PNG file", name)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, image.Point{}, fmt.Errorf("image %s: %w", name, err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return nil, image.Point{}, fmt.Errorf("image %s is %dx%d; each side must be 1..%d pixels", name, cfg.Width, cfg.Height, MaxImageSide)
	}
	*total += int64(cfg.Width) * int64(cfg.Height)
	if *total > MaxTotalPixels {
		return nil, image.Point{}, fmt.Errorf("images add up to more than %d million pixels", MaxTotalPixels>>20)
	}
	return data, image.Pt(cfg.Width, cfg.Height), nil
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
