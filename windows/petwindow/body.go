package petwindow

import (
	"image"
	"time"

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
	// pic is the one canvas image the body draws. Each pet window has its
	// own GL context, and a texture per frame in every window cost a pet
	// about a megabyte (docs/performance.md): a frame change sets pic's
	// pixels and refreshes it instead, and the driver swaps the texture at
	// the repaint the frame change costs anyway (a copy of the crop, tens
	// of kilobytes).
	pic *canvas.Image
	// held are the pixels of the frames that may show soon (the motion
	// playing, the idle motion, the stills shown since the pack was set),
	// so a frame change decodes nothing. A packed frame's pixels are
	// shared by every pet showing it (packedImage.pixels); held frames
	// are let go by keep and reset.
	held  map[image.Image]image.Image
	frame image.Image // the pack image pic shows
	// crop places pic when it holds a packed frame, which has only the
	// frame's drawn pixels: their rectangle in the frame, and the frame's
	// size, in pixels. Zero for a whole image.
	crop frameCrop
	// opaque is set when the frame showing is composited over the
	// backdrop colour already (a ScaledPack image): nothing needs to be
	// drawn under it.
	opaque bool

	on    bodyHandler // nil ignores the pointer
	press holdState
}

// bodyHandler is what the pet window does with the pointer on the body
// (handle.go). UI thread.
type bodyHandler interface {
	tapped()
	doubleTapped()
	secondaryTapped(at fyne.Position)
	// pressed is a primary press at in the window; held is a press held
	// on the head and let go without a drag (pat.go).
	pressed(at fyne.Position)
	held()
	dragged()
	dragEnded()
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

func newBody(on bodyHandler) *body {
	pic := canvas.NewImageFromImage(nil)
	pic.FillMode = canvas.ImageFillStretch
	pic.Hidden = true
	c := &body{pic: pic, held: make(map[image.Image]image.Image), on: on}
	c.ExtendBaseWidget(c)
	return c
}

// show makes img the visible frame. It reports whether the frame changed.
func (c *body) show(img image.Image) bool {
	if img == nil || img == c.frame {
		return false
	}
	px := c.hold(img)
	if px == nil {
		return false
	}
	p, packed := img.(*packedImage)
	c.frame, c.opaque = img, packed
	c.crop = frameCrop{}
	// A packed frame is drawn at its own pixel size: no filtering needed.
	// A pack's full-size image (the first frames, until the session has
	// scaled the pack to the window: app/session.go's scalePack) is
	// filtered by the GL driver: Fyne's smooth mode would scale it on the
	// CPU first, 16 ms of the pet's first frame for the built-in pack's
	// 2x image, for frames that show for a fraction of a second.
	c.pic.ScaleMode = canvas.ImageScaleFastest
	if packed {
		c.crop = frameCrop{crop: p.crop, size: p.rect.Size()}
		c.pic.ScaleMode = canvas.ImageScalePixels
	}
	c.pic.Image = px
	c.pic.Hidden = false
	c.place(c.Size())
	// Refresh makes the driver drop pic's texture and upload the new
	// pixels at the next repaint.
	c.pic.Refresh()
	return true
}

// hold returns the pixels of img, holding them until keep or reset lets
// them go: a packed image's decoded crop, shared with the other pets, or
// img itself.
func (c *body) hold(img image.Image) image.Image {
	if px, ok := c.held[img]; ok {
		return px
	}
	var px image.Image = img
	if p, ok := img.(*packedImage); ok {
		d := p.pixels()
		if d == nil {
			return nil
		}
		px = d
	}
	c.held[img] = px
	return px
}

// place lays pic out in a body of the given size.
func (c *body) place(size fyne.Size) {
	fc := c.crop
	if fc.size.X <= 0 || fc.size.Y <= 0 {
		c.pic.Move(fyne.NewPos(0, 0))
		c.pic.Resize(size)
		return
	}
	sx, sy := size.Width/float32(fc.size.X), size.Height/float32(fc.size.Y)
	c.pic.Move(fyne.NewPos(float32(fc.crop.Min.X)*sx, float32(fc.crop.Min.Y)*sy))
	c.pic.Resize(fyne.NewSize(float32(fc.crop.Dx())*sx, float32(fc.crop.Dy())*sy))
}

// shownStills returns the images of stills the body holds now: the
// emotions shown since the pack was set, which keep then keeps.
func (c *body) shownStills(stills map[string]image.Image) []image.Image {
	var out []image.Image
	for _, img := range stills {
		if _, ok := c.held[img]; ok {
			out = append(out, img)
		}
	}
	return out
}

// keep lets go of the pixels of every frame not in imgs (and not
// showing), so only the frames that may play soon hold pixels.
func (c *body) keep(imgs ...[]image.Image) {
	want := make(map[image.Image]bool)
	for _, l := range imgs {
		for _, img := range l {
			want[img] = true
		}
	}
	for img := range c.held {
		if !want[img] && img != c.frame {
			c.letGo(img)
		}
	}
}

// letGoAll stops holding every frame's pixels, leaving the canvas image
// alone: a closed window's frames shared with other pets go with the
// last of those.
func (c *body) letGoAll() {
	for img := range c.held {
		c.letGo(img)
	}
}

// letGo stops holding img's pixels.
func (c *body) letGo(img image.Image) {
	delete(c.held, img)
	if p, ok := img.(*packedImage); ok {
		p.drop()
	}
}

func (c *body) Tapped(*fyne.PointEvent) {
	if c.on != nil {
		c.on.tapped()
	}
}

func (c *body) DoubleTapped(*fyne.PointEvent) {
	if c.on != nil {
		c.on.doubleTapped()
	}
}

func (c *body) TappedSecondary(e *fyne.PointEvent) {
	if c.on != nil {
		c.on.secondaryTapped(e.AbsolutePosition)
	}
}

// reset lets go of every frame, so the next show starts afresh.
func (c *body) reset() {
	c.letGoAll()
	c.frame, c.crop, c.opaque = nil, frameCrop{}, false
	c.pic.Image = nil
	c.pic.Hidden = true
	c.pic.Refresh()
}

// MouseDown notes where a drag may start: the drag then follows the
// pointer from the press, not from where the driver's drag threshold was
// crossed.
func (c *body) MouseDown(e *desktop.MouseEvent) {
	if e.Button != desktop.MouseButtonPrimary {
		return
	}
	c.press.down(e.Position, c.Size(), time.Now())
	if c.on != nil {
		c.on.pressed(e.AbsolutePosition)
	}
}

// MouseUp ends a press: one held on the head is a pat. The drag end is DragEnd.
func (c *body) MouseUp(e *desktop.MouseEvent) {
	if e.Button == desktop.MouseButtonPrimary && c.press.up(time.Now()) && c.on != nil {
		c.on.held()
	}
}

func (c *body) Dragged(*fyne.DragEvent) {
	c.press.dragged = true
	if c.on != nil {
		c.on.dragged()
	}
}

func (c *body) DragEnd() {
	if c.on != nil {
		c.on.dragEnded()
	}
}

// Cursor is the hand pointer: the pet can be grabbed.
func (c *body) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (c *body) CreateRenderer() fyne.WidgetRenderer {
	return &bodyRenderer{c: c, objs: []fyne.CanvasObject{c.pic}}
}

type bodyRenderer struct {
	c    *body
	objs []fyne.CanvasObject
}

func (r *bodyRenderer) Layout(size fyne.Size) { r.c.place(size) }

func (r *bodyRenderer) MinSize() fyne.Size { return fyne.NewSize(1, 1) }

func (r *bodyRenderer) Refresh() { r.Layout(r.c.Size()) }

func (r *bodyRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *bodyRenderer) Destroy() {}
