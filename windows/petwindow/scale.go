package petwindow

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"maps"
	"sync"

	xdraw "golang.org/x/image/draw"

	"yui/pet/character"
	"yui/windows/widgets"
)

// ScaledPack returns a copy of p made for drawing at w×h pixels (the size
// the pet window draws the character at; CharacterPixels), for a pack
// drawn at 2x on a screen at scale 1:
//
//   - each image is scaled down to w×h (images no larger are kept at
//     their size);
//   - pixel-identical images are stored once (the default pack's neutral
//     emotion is also its first talk frame);
//   - each image is kept PNG-encoded, with the rectangles of its drawn
//     pixels (the window's shape) worked out once. The window decodes only
//     the frames it is playing and the idle motion's: the others cost a
//     few kilobytes each instead of w×h×4 bytes.
//
// Once nothing else holds p, its full-size images are garbage. The
// images of the copy are image.Image values whose At decodes the PNG; the
// pet window never calls it.
func ScaledPack(p *character.Pack, w, h int) *character.Pack {
	if p == nil || w <= 0 || h <= 0 {
		return p
	}
	k := newPacker(w, h)
	q := *p
	q.Emotions, q.Motions = k.packAll(p.Emotions, p.Motions)
	if p.Mirror != nil {
		q.Mirror = &character.Mirror{}
		q.Mirror.Emotions, q.Mirror.Motions = k.packAll(p.Mirror.Emotions, p.Mirror.Motions)
	}
	if p.Gaze != nil {
		q.Gaze = make(map[string]image.Image, len(p.Gaze))
		for dir, img := range p.Gaze {
			q.Gaze[dir] = k.pack(img)
		}
	}
	q.EmotionTextMap = maps.Clone(p.EmotionTextMap)
	q.ImageSize = image.Pt(w, h)
	return &q
}

// packer makes the images of one ScaledPack: it remembers what it made
// of each image, and each distinct PNG once.
type packer struct {
	w, h int
	done map[image.Image]image.Image
	same map[string]*packedImage // PNG bytes → image
	enc  png.Encoder
	buf  bytes.Buffer
}

func newPacker(w, h int) *packer {
	return &packer{
		w: w, h: h,
		done: make(map[image.Image]image.Image),
		same: make(map[string]*packedImage),
		enc:  png.Encoder{CompressionLevel: png.BestSpeed},
	}
}

// packAll packs the images of a pack's emotions and motions.
func (k *packer) packAll(emotions map[string]image.Image, motions map[string]character.Motion) (map[string]image.Image, map[string]character.Motion) {
	es := make(map[string]image.Image, len(emotions))
	for id, img := range emotions {
		es[id] = k.pack(img)
	}
	ms := make(map[string]character.Motion, len(motions))
	for id, m := range motions {
		frames := make([]image.Image, len(m.Frames))
		for i, f := range m.Frames {
			frames[i] = k.pack(f)
		}
		m.Frames = frames
		ms[id] = m
	}
	return es, ms
}

// pack returns img scaled to the packer's size (no larger), cropped to
// its drawn pixels and PNG-encoded.
func (k *packer) pack(img image.Image) image.Image {
	if img == nil {
		return nil
	}
	if s, ok := k.done[img]; ok {
		return s
	}
	dst := k.scale(img)
	sw, sh := dst.Rect.Dx(), dst.Rect.Dy()
	// Only the drawn pixels are kept: the window shows no other.
	mask := maskRects(dst, sw, sh)
	crop := image.Rectangle{}
	for _, r := range mask {
		crop = crop.Union(r)
	}
	if crop.Empty() {
		crop = image.Rect(0, 0, 1, 1)
	}
	k.buf.Reset()
	if err := k.enc.Encode(&k.buf, dst.SubImage(crop)); err != nil {
		// Encoding an in-memory RGBA image does not fail; keep the
		// pixels if it ever does.
		k.done[img] = dst
		return dst
	}
	key := k.buf.String()
	s, ok := k.same[key]
	if !ok || s.crop != crop {
		s = &packedImage{data: []byte(key), rect: dst.Rect, crop: crop, mask: mask}
		k.same[key] = s
	}
	k.done[img] = s
	return s
}

// scale draws img at the packer's size, or at its own when it is no
// larger, in a new image.
func (k *packer) scale(img image.Image) *image.RGBA {
	b := img.Bounds()
	sw, sh := min(b.Dx(), k.w), min(b.Dy(), k.h)
	if b.Dx() > k.w || b.Dy() > k.h {
		sw, sh = k.w, k.h
	}
	// Premultiplied RGBA is what the GL driver uploads as is.
	dst := image.NewRGBA(image.Rect(0, 0, sw, sh))
	if sw == b.Dx() && sh == b.Dy() {
		draw.Draw(dst, dst.Rect, img, b.Min, draw.Src)
	} else {
		// At 2:1 bilinear sampling averages each 2x2 block.
		xdraw.BiLinear.Scale(dst, dst.Rect, img, b, draw.Src, nil)
	}
	return dst
}

// packedImage is a character image kept PNG-encoded (ScaledPack), with
// the rectangles of its drawn pixels. Only crop, the bounds of the drawn
// pixels, is kept: the pixels around it are transparent.
type packedImage struct {
	data []byte // PNG of the crop
	rect image.Rectangle
	crop image.Rectangle   // within rect
	mask []image.Rectangle // relative to rect.Min, at rect's size

	once sync.Once
	img  *image.RGBA // decoded by At only

	// shared is the crop composited over the backdrop, as the pet window
	// draws it, while any window holds it (pixels, drop).
	mu     sync.Mutex
	shared *image.RGBA
	users  int
}

var _ image.Image = (*packedImage)(nil)

func (p *packedImage) ColorModel() color.Model { return color.RGBAModel }

func (p *packedImage) Bounds() image.Rectangle { return p.rect }

// At decodes the image on first use and keeps it: it is there to make
// packedImage a complete image.Image. The pet window uses decode, which
// keeps nothing.
func (p *packedImage) At(x, y int) color.Color {
	p.once.Do(func() { p.img = p.decode() })
	if p.img == nil {
		return color.RGBA{}
	}
	return p.img.At(x, y)
}

// decode returns the image's pixels, premultiplied, in a new image.
func (p *packedImage) decode() *image.RGBA {
	img, err := png.Decode(bytes.NewReader(p.data))
	if err != nil {
		return nil
	}
	r := image.NewRGBA(p.rect)
	draw.Draw(r, p.crop, img, img.Bounds().Min, draw.Src)
	return r
}

// pixels returns the crop composited over the pet window's backdrop
// colour, decoding it when no window holds it yet. Pets of one character
// at one size show the same scaled pack (the app shares it), so a frame is
// decoded once however many pets show it. Each pixels call is matched by a
// drop; the last drop lets the pixels go. nil when the image does not
// decode.
func (p *packedImage) pixels() *image.RGBA {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.users == 0 {
		p.shared = p.decodeCrop(widgets.ColBackdrop)
		if p.shared == nil {
			return nil
		}
	}
	p.users++
	return p.shared
}

// drop lets go of pixels a window held.
func (p *packedImage) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.users == 0 {
		return
	}
	p.users--
	if p.users == 0 {
		p.shared = nil
	}
}

// decodeCrop returns the crop's pixels composited over the opaque bg, in
// a new image whose origin is the crop's top-left corner.
func (p *packedImage) decodeCrop(bg color.Color) *image.RGBA {
	img, err := png.Decode(bytes.NewReader(p.data))
	if err != nil {
		return nil
	}
	r := image.NewRGBA(image.Rect(0, 0, p.crop.Dx(), p.crop.Dy()))
	draw.Draw(r, r.Rect, image.NewUniform(bg), image.Point{}, draw.Src)
	draw.Draw(r, r.Rect, img, img.Bounds().Min, draw.Over)
	return r
}

// CharacterPixels is the size in pixels the window draws the character
// at, known once the window is shown (before, scale 1 is assumed).
func (w *PetWindow) CharacterPixels() (int, int) {
	r := w.geo.bodyRect(w.shim)
	return r.Dx(), r.Dy()
}

// SetPack replaces the character the window draws (for example with
// ScaledPack's copy). The window drops every reference to the old pack's
// images.
func (w *PetWindow) SetPack(p *character.Pack) {
	w.opts.Pack = p
	w.char.reset()
	w.draw.masks.reset()
	w.play.key, w.play.frames = "", nil
	w.shape.sent = sentShape{}
	w.applyView(w.view)
}
