package petwindow

import (
	"image"
	"slices"

	"yui/windows/widgets"
)

// shaper keeps the window's shape to the parts drawn now. UI thread.
type shaper struct {
	w    *PetWindow
	sent sentShape
	menu image.Rectangle // the open popup menu, window pixels
}

// update sets the window shape to the parts drawn now: the
// character's opaque pixels and the rounded rectangles of the visible
// parts. It sends nothing when the shape did not change.
func (sh *shaper) update() { sh.set(sh.w.char.frame) }

// sentShape is the shape sent last, so that an unchanged one is not
// sent again.
type sentShape struct {
	bounds   []image.Rectangle // bounding shape
	parts    []image.Rectangle // parts besides the character in the input shape
	inputKey inputKey          // motion and body of the input shape
	// spare and partsBuf are reused by the next set: a breathing pet
	// works its shape out with each frame, a few times a second, and
	// sends it only when it changed.
	spare, partsBuf []image.Rectangle
}

// inputKey is what the input shape was made for besides the parts.
type inputKey struct {
	anim string          // the motion playing (player.key)
	body image.Rectangle // where the character is drawn
}

// set sets the window shape with frame as the character's image.
// The input shape covers every frame of the motion playing, so it changes
// only with the motion or the other parts (the X server keeps input
// within the drawn shape).
func (sh *shaper) set(frame image.Image) {
	w := sh.w
	if !w.shim.attached || !w.shim.shaped {
		return
	}
	body := w.geo.bodyRect(w.shim).Sub(image.Pt(0, w.top.rise)) // window pixels: the content rises (toproom.go)
	parts := sh.appendParts(sh.sent.partsBuf[:0])
	sh.sent.partsBuf = parts
	rs := append(sh.sent.spare[:0], parts...)
	if frame != nil {
		for _, r := range w.draw.masks.get(frame, body.Dx(), body.Dy()) {
			rs = append(rs, r.Add(body.Min))
		}
	}
	key := inputKey{w.play.key, body}
	var input []image.Rectangle
	if sh.sent.bounds == nil || key != sh.sent.inputKey || !slices.Equal(parts, sh.sent.parts) {
		input = slices.Clone(parts)
		seen := make(map[image.Image]bool)
		for _, f := range append(slices.Clone(w.play.frames), frame) {
			if f == nil || seen[f] {
				continue
			}
			seen[f] = true
			for _, r := range w.draw.masks.get(f, body.Dx(), body.Dy()) {
				input = append(input, r.Add(body.Min))
			}
		}
		sh.sent.inputKey, sh.sent.parts = key, slices.Clone(parts)
	} else if slices.Equal(rs, sh.sent.bounds) {
		sh.sent.spare = rs
		return
	}
	// The shape sent before becomes the next one's buffer: the native
	// shims copy what they are given.
	sh.sent.spare, sh.sent.bounds = sh.sent.bounds, rs
	if err := w.native.SetShape(rs, input); err != nil {
		w.log.Warn("pet_window_shape", "name", w.opts.Name, "err", err.Error())
		return
	}
}

// appendParts appends to rs the window-pixel rectangles of the parts
// showing besides the character.
func (sh *shaper) appendParts(rs []image.Rectangle) []image.Rectangle {
	w := sh.w
	start := len(rs)
	if w.bubble.Visible() {
		p, s := w.bubble.Position(), w.bubble.Size()
		bs := bubbleBody(s)
		if w.bubble.Below { // tail on top, pointing up (toproom.go)
			rs = appendRounded(rs, w.shim.rect(p.X, p.Y+tailH, bs.Width, bs.Height), int(bubbleRadius*w.shim.scale))
			rs = append(rs, upTriangleRects(w.shim.rect(p.X+(s.Width-tailW)/2, p.Y, tailW, tailH+1))...)
		} else {
			rs = appendRounded(rs, w.shim.rect(p.X, p.Y, bs.Width, bs.Height), int(bubbleRadius*w.shim.scale))
			rs = append(rs, triangleRects(w.shim.rect(p.X+(s.Width-tailW)/2, p.Y+bs.Height-1, tailW, tailH+1))...)
		}
	}
	for _, t := range []*widgets.Tag{w.status.badge, w.status.caption, w.status.plate, w.status.pill, w.status.chip, w.comp.errLine} {
		if t.Visible() {
			p, s := t.Position(), t.Size()
			rs = appendRounded(rs, w.shim.rect(p.X, p.Y, s.Width, s.Height), int(widgets.TagHeight/2*w.shim.scale))
		}
	}
	if w.status.eye.Visible() {
		p, s := w.status.eye.Position(), w.status.eye.Size()
		rs = appendRounded(rs, w.shim.rect(p.X, p.Y, s.Width, s.Height), int(widgets.TagHeight/2*w.shim.scale))
	}
	if w.comp.state.open {
		p, s := w.comp.bg.Position(), w.comp.bg.Size()
		rs = appendRounded(rs, w.shim.rect(p.X, p.Y, s.Width, s.Height), int(composerRad*w.shim.scale))
	}
	for i := start; i < len(rs); i++ { // the parts rise with the content; the menu is above it
		rs[i] = rs[i].Sub(image.Pt(0, w.top.rise))
	}
	if !sh.menu.Empty() {
		rs = append(rs, sh.menu)
	}
	return rs
}
