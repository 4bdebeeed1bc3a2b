package windows

import (
	"image"
	"image/draw"
	"maps"

	xdraw "golang.org/x/image/draw"

	"yui/pet/character"
)

// ScaledPack returns a copy of p whose images are scaled down to w×h
// pixels (the size the pet window draws them at; CharacterPixels), for a
// pack drawn at 2x on a screen at scale 1. Images no larger than w×h are
// kept as they are. Once nothing else holds p, its full-size images are
// garbage: the default pack's 2x frames take about four times the memory
// of the scaled ones.
func ScaledPack(p *character.Pack, w, h int) *character.Pack {
	if p == nil || w <= 0 || h <= 0 {
		return p
	}
	done := make(map[image.Image]image.Image)
	scale := func(img image.Image) image.Image {
		if img == nil {
			return nil
		}
		if s, ok := done[img]; ok {
			return s
		}
		b := img.Bounds()
		s := img
		if b.Dx() > w || b.Dy() > h {
			// RGBA is what the GL driver uploads as is, with no converted copy.
			dst := image.NewRGBA(image.Rect(0, 0, w, h))
			// At 2:1 bilinear sampling averages each 2x2 block.
			xdraw.BiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
			s = dst
		}
		done[img] = s
		return s
	}
	q := *p
	q.Emotions = make(map[string]image.Image, len(p.Emotions))
	for id, img := range p.Emotions {
		q.Emotions[id] = scale(img)
	}
	q.Motions = make(map[string]character.Motion, len(p.Motions))
	for id, m := range p.Motions {
		frames := make([]image.Image, len(m.Frames))
		for i, f := range m.Frames {
			frames[i] = scale(f)
		}
		m.Frames = frames
		q.Motions[id] = m
	}
	q.EmotionTextMap = maps.Clone(p.EmotionTextMap)
	return &q
}

// CharacterPixels is the size in pixels the window draws the character
// at, known once the window is shown (before, scale 1 is assumed).
func (w *PetWindow) CharacterPixels() (int, int) {
	r := w.bodyRect()
	return r.Dx(), r.Dy()
}

// SetPack replaces the character the window draws (for example with
// ScaledPack's copy). The window drops every reference to the old pack's
// images.
func (w *PetWindow) SetPack(p *character.Pack) {
	w.opts.Pack = p
	w.char.reset()
	w.masks.reset()
	w.animKey, w.frames = "", nil
	w.lastShape = nil
	w.applyView(w.view)
}
