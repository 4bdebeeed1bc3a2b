package petwindow

import (
	"image"
	"slices"
	"time"
	"yui/windows/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// body is the pet's body: it shows the current frame and takes the
// pointer: click (poke), double click (composer), right click (menu) and
// drag (move the window).
type body struct {
	widget.BaseWidget
	// images holds one canvas.Image per frame image the window may show
	// soon (the motion playing and the idle motion), so each frame's
	// texture is uploaded once and a frame change only flips visibility.
	// Frames of other motions are dropped (keep), with their decoded
	// pixels and textures.
	images  map[image.Image]*canvas.Image
	order   []fyne.CanvasObject
	current *canvas.Image
	frame   image.Image // the pack image current shows
	// crops places the canvas image of a packed frame, which holds only
	// the frame's drawn pixels: its rectangle in the frame, and the
	// frame's size, in pixels.
	crops map[*canvas.Image]frameCrop
	// opaque is set when the frame showing is composited over the
	// backdrop colour already (a ScaledPack image): nothing needs to be
	// drawn under it.
	opaque bool
	// free releases what the driver keeps for a canvas image no longer
	// shown: the pet window's canvas Refresh, after which the driver
	// frees the image's texture at the next frame (and does not upload it
	// again, as it is no longer drawn). Without it the driver keeps the
	// texture and the image's pixels until a minute after their last use,
	// so a pet whose emotion changes on every turn holds a minute of
	// decoded frames: hundreds of MB after a burst of turns, most of
	// which the process never gives back. nil frees nothing (tests).
	free func(fyne.CanvasObject)

	onTap       func()
	onDoubleTap func()
	onSecondary func(fyne.Position)
	onPress     func()
	onHold      func() // a press held on the head and let go without a drag (pat.go)
	press       holdState
	onDrag      func()
	onDragEnd   func()
}

var (
	_ fyne.Tappable          = (*body)(nil)
	_ fyne.DoubleTappable    = (*body)(nil)
	_ fyne.SecondaryTappable = (*body)(nil)
	_ fyne.Draggable         = (*body)(nil)
	_ desktop.Cursorable     = (*body)(nil)
	_ desktop.Mouseable      = (*body)(nil)
)

// frameCrop is where a cropped frame image sits in its frame.
type frameCrop struct {
	crop image.Rectangle
	size image.Point
}

func newBody() *body {
	c := &body{images: make(map[image.Image]*canvas.Image), crops: make(map[*canvas.Image]frameCrop)}
	c.ExtendBaseWidget(c)
	return c
}

// show makes img the visible frame. It reports whether the frame changed.
func (c *body) show(img image.Image) bool {
	if img == nil {
		return false
	}
	ci := c.image(img)
	if ci == nil || ci == c.current {
		return false
	}
	// Hide repaints the canvas without dropping any texture; Refresh would
	// make the driver upload the frame again.
	prev := c.current
	ci.Hidden = false
	c.current, c.frame = ci, img
	_, c.opaque = img.(*packedImage)
	if prev != nil {
		prev.Hide()
	} else {
		c.Refresh()
	}
	return true
}

// image returns the canvas image of img, decoding a packed image.
func (c *body) image(img image.Image) *canvas.Image {
	if ci, ok := c.images[img]; ok {
		return ci
	}
	var ci *canvas.Image
	if p, ok := img.(*packedImage); ok {
		// Composited over the backdrop and cropped to the drawn pixels:
		// the driver shades fewer pixels, and nothing under them.
		d := p.decodeCrop(widgets.ColBackdrop)
		if d == nil {
			return nil
		}
		ci = canvas.NewImageFromImage(d)
		// The frame is drawn at its own pixel size: no filtering needed.
		ci.ScaleMode = canvas.ImageScalePixels
		c.crops[ci] = frameCrop{crop: p.crop, size: p.rect.Size()}
	} else {
		ci = canvas.NewImageFromImage(img)
		ci.ScaleMode = canvas.ImageScaleSmooth
	}
	ci.FillMode = canvas.ImageFillStretch
	ci.Hidden = true
	c.place(ci, c.Size())
	c.images[img] = ci
	c.order = append(c.order, ci)
	return ci
}

// place lays a frame's canvas image out in a body of the given size.
func (c *body) place(ci *canvas.Image, size fyne.Size) {
	fc, ok := c.crops[ci]
	if !ok || fc.size.X <= 0 || fc.size.Y <= 0 {
		ci.Move(fyne.NewPos(0, 0))
		ci.Resize(size)
		return
	}
	sx, sy := size.Width/float32(fc.size.X), size.Height/float32(fc.size.Y)
	ci.Move(fyne.NewPos(float32(fc.crop.Min.X)*sx, float32(fc.crop.Min.Y)*sy))
	ci.Resize(fyne.NewSize(float32(fc.crop.Dx())*sx, float32(fc.crop.Dy())*sy))
}

// shownStills returns the images of stills that have a canvas image now:
// the emotions shown since the pack was set, which keep then keeps.
func (c *body) shownStills(stills map[string]image.Image) []image.Image {
	var out []image.Image
	for _, img := range stills {
		if _, ok := c.images[img]; ok {
			out = append(out, img)
		}
	}
	return out
}

// keep drops the canvas images of every frame not in imgs (and not
// showing), so only the frames that may play soon hold pixels.
func (c *body) keep(imgs ...[]image.Image) {
	want := make(map[image.Image]bool)
	for _, l := range imgs {
		for _, img := range l {
			want[img] = true
		}
	}
	var dropped []fyne.CanvasObject
	for img, ci := range c.images {
		if want[img] || ci == c.current {
			continue
		}
		delete(c.images, img)
		delete(c.crops, ci)
		c.order = slices.DeleteFunc(c.order, func(o fyne.CanvasObject) bool { return o == ci })
		dropped = append(dropped, ci)
	}
	if len(dropped) > 0 {
		c.Refresh()
		c.release(dropped)
	}
}

// release lets go of canvas images the body no longer holds: their
// pixels at once (the driver's caches keep the object itself for a
// minute), and their textures through free.
func (c *body) release(objs []fyne.CanvasObject) {
	for _, o := range objs {
		if ci, ok := o.(*canvas.Image); ok {
			ci.Image = nil
		}
		if c.free != nil {
			c.free(o)
		}
	}
}

func (c *body) Tapped(*fyne.PointEvent) {
	if c.onTap != nil {
		c.onTap()
	}
}

func (c *body) DoubleTapped(*fyne.PointEvent) {
	if c.onDoubleTap != nil {
		c.onDoubleTap()
	}
}

func (c *body) TappedSecondary(e *fyne.PointEvent) {
	if c.onSecondary != nil {
		c.onSecondary(e.AbsolutePosition)
	}
}

// reset drops every frame image, so the next show starts afresh.
func (c *body) reset() {
	c.release(c.order)
	c.images = make(map[image.Image]*canvas.Image)
	c.crops = make(map[*canvas.Image]frameCrop)
	c.order = nil
	c.current, c.frame = nil, nil
	c.opaque = false
	c.Refresh()
}

// MouseDown notes where a drag may start: the drag then follows the
// pointer from the press, not from where the driver's drag threshold was
// crossed.
func (c *body) MouseDown(e *desktop.MouseEvent) {
	if e.Button != desktop.MouseButtonPrimary {
		return
	}
	c.press.down(e.Position, c.Size(), time.Now())
	if c.onPress != nil {
		c.onPress()
	}
}

// MouseUp ends a press: one held on the head is a pat. The drag end is DragEnd.
func (c *body) MouseUp(e *desktop.MouseEvent) {
	if e.Button == desktop.MouseButtonPrimary && c.press.up(time.Now()) && c.onHold != nil {
		c.onHold()
	}
}

func (c *body) Dragged(*fyne.DragEvent) {
	c.press.dragged = true
	if c.onDrag != nil {
		c.onDrag()
	}
}

func (c *body) DragEnd() {
	if c.onDragEnd != nil {
		c.onDragEnd()
	}
}

// Cursor is the hand pointer: the pet can be grabbed.
func (c *body) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (c *body) CreateRenderer() fyne.WidgetRenderer { return &bodyRenderer{c: c} }

type bodyRenderer struct{ c *body }

func (r *bodyRenderer) Layout(size fyne.Size) {
	for _, o := range r.c.order {
		r.c.place(o.(*canvas.Image), size)
	}
}

func (r *bodyRenderer) MinSize() fyne.Size { return fyne.NewSize(1, 1) }

func (r *bodyRenderer) Refresh() { r.Layout(r.c.Size()) }

func (r *bodyRenderer) Objects() []fyne.CanvasObject { return r.c.order }

func (r *bodyRenderer) Destroy() {}
