package windows

import (
	"image"
	"image/color"
	"slices"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Text sizes of the pet window.
const (
	bubbleTextSize = 14
	tagTextSize    = 12
	bubblePad      = 10
	bubbleRadius   = 12
	tailW, tailH   = 22, 12
	tagPadX        = 10
	tagHeight      = 22
	maxBubbleLines = 6
)

// tag is a small rounded label: the status pill, the message plate, the
// emotion-text badge, the caption, the delegations chip and the error line.
// Text longer than MaxWidth wraps onto up to MaxLines lines, the last one
// cut with an ellipsis. A tag with OnTapped set answers taps.
type tag struct {
	widget.BaseWidget
	Text   string
	FG, BG color.Color
	// Dot, when set, is a status dot drawn before the text.
	Dot    color.Color
	Italic bool
	// MaxWidth is the widest the tag grows (0: no limit); MaxLines the
	// most lines it wraps to (0 means 1).
	MaxWidth float32
	MaxLines int
	OnTapped func()

	// memo keeps the last wrap: the driver asks for the minimum size
	// before every repaint.
	memo     tagLayout
	memoSize fyne.Size
	memoLine []string
}

// tagLayout is what a tag's wrapped lines depend on.
type tagLayout struct {
	text     string
	maxWidth float32
	maxLines int
	italic   bool
	dot      bool
	valid    bool
}

func newTag(fg, bg color.Color) *tag {
	t := &tag{FG: fg, BG: bg}
	t.ExtendBaseWidget(t)
	return t
}

// Tapped runs OnTapped.
func (t *tag) Tapped(*fyne.PointEvent) {
	if t.OnTapped != nil {
		t.OnTapped()
	}
}

func (t *tag) style() fyne.TextStyle { return fyne.TextStyle{Italic: t.Italic} }

// extra is the horizontal room besides the text: padding and the dot.
func (t *tag) extra() float32 {
	if t.Dot != nil {
		return 2*tagPadX + 12
	}
	return 2 * tagPadX
}

// lines is the text wrapped to MaxWidth. An empty tag has no lines and
// measures nothing: a style's fonts load on first measure (several MiB
// each for the italic tags), so a tag that never shows text never loads
// them.
func (t *tag) lines() []string {
	t.layout()
	return t.memoLine
}

// layout wraps the text and sizes the tag unless nothing it depends on
// changed since the last call.
func (t *tag) layout() {
	k := tagLayout{t.Text, t.MaxWidth, t.MaxLines, t.Italic, t.Dot != nil, true}
	if k == t.memo {
		return
	}
	t.memo = k
	t.memoLine = t.wrap()
	var w float32
	for _, l := range t.memoLine {
		w = max(w, fyne.MeasureText(l, tagTextSize, t.style()).Width)
	}
	h := float32(tagHeight)
	if len(t.memoLine) > 1 {
		h += float32(len(t.memoLine)-1) * tagLineHeight()
	}
	t.memoSize = fyne.NewSize(float32(int(w+t.extra()+0.999)), float32(int(h+0.999)))
}

func (t *tag) wrap() []string {
	if t.Text == "" {
		return nil
	}
	if t.MaxWidth <= 0 {
		return []string{t.Text}
	}
	if t.MaxLines <= 1 {
		return []string{cutText(t.Text, t.MaxWidth-t.extra(), tagTextSize, t.style())}
	}
	return wrapText(t.Text, t.MaxWidth-t.extra(), tagTextSize, max(1, t.MaxLines))
}

// tagLineHeight is the height of one line of tag text.
func tagLineHeight() float32 { return fyne.MeasureText("Ag", tagTextSize, fyne.TextStyle{}).Height }

// MinSize is the text's size plus padding (and the dot); one line is
// tagHeight tall.
func (t *tag) MinSize() fyne.Size {
	t.layout()
	return t.memoSize
}

func (t *tag) CreateRenderer() fyne.WidgetRenderer {
	r := &tagRenderer{t: t, bg: canvas.NewRectangle(t.BG), dot: canvas.NewCircle(color.Transparent)}
	r.bg.CornerRadius = tagHeight / 2
	r.Refresh()
	return r
}

type tagRenderer struct {
	t     *tag
	bg    *canvas.Rectangle
	dot   *canvas.Circle
	texts []*canvas.Text
	objs  []fyne.CanvasObject
}

func (r *tagRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	x := float32(tagPadX)
	if r.t.Dot != nil {
		r.dot.Move(fyne.NewPos(x-2, (tagHeight-8)/2))
		r.dot.Resize(fyne.NewSize(8, 8))
		x += 12
	}
	lh := tagLineHeight()
	top := (tagHeight - lh) / 2
	for i, t := range r.texts {
		t.Move(fyne.NewPos(x, top+float32(i)*lh))
		t.Resize(fyne.NewSize(size.Width-x-tagPadX, lh))
	}
}

func (r *tagRenderer) MinSize() fyne.Size { return r.t.MinSize() }

func (r *tagRenderer) Refresh() {
	lines := r.t.lines()
	for len(r.texts) < len(lines) {
		t := canvas.NewText("", r.t.FG)
		t.TextSize = tagTextSize
		r.texts = append(r.texts, t)
	}
	for i, t := range r.texts {
		t.Hidden = i >= len(lines)
		if !t.Hidden {
			t.Text = lines[i]
		}
		t.Color = r.t.FG
		t.TextStyle = r.t.style()
	}
	r.bg.FillColor = r.t.BG
	r.dot.Hidden = r.t.Dot == nil
	if r.t.Dot != nil {
		r.dot.FillColor = r.t.Dot
	}
	r.objs = append(r.objs[:0], r.bg, r.dot)
	for _, t := range r.texts {
		r.objs = append(r.objs, t)
	}
	r.Layout(r.t.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

func (r *tagRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *tagRenderer) Destroy() {}

// bubble is the speech bubble: dark text wrapped on a white rounded
// rectangle with a tail under it pointing at the character.
type bubble struct {
	widget.BaseWidget
	Text string
	// MaxWidth is the widest the bubble grows, tail and border included.
	MaxWidth float32
	OnTapped func()

	memoText  string
	memoWidth float32
	memoLines []string
	memoSize  fyne.Size
}

func newBubble(maxWidth float32) *bubble {
	b := &bubble{MaxWidth: maxWidth}
	b.ExtendBaseWidget(b)
	return b
}

// Tapped runs OnTapped.
func (b *bubble) Tapped(*fyne.PointEvent) {
	if b.OnTapped != nil {
		b.OnTapped()
	}
}

// lines wraps the text to the bubble's width.
func (b *bubble) lines() []string {
	b.layout()
	return b.memoLines
}

// layout wraps the text and sizes the bubble unless the text or width
// changed since the last call (the driver asks for the minimum size
// before every repaint).
func (b *bubble) layout() {
	if b.memoLines != nil && b.memoText == b.Text && b.memoWidth == b.MaxWidth {
		return
	}
	b.memoText, b.memoWidth = b.Text, b.MaxWidth
	b.memoLines = wrapText(b.Text, b.MaxWidth-2*bubblePad, bubbleTextSize, maxBubbleLines)
	var w float32
	for _, l := range b.memoLines {
		w = max(w, fyne.MeasureText(l, bubbleTextSize, fyne.TextStyle{}).Width)
	}
	lh := lineHeight()
	b.memoSize = fyne.NewSize(float32(int(w+2*bubblePad+0.999)), float32(int(float32(len(b.memoLines))*lh+2*bubblePad+tailH+0.999)))
}

// MinSize is the wrapped text's size plus padding and the tail.
func (b *bubble) MinSize() fyne.Size {
	b.layout()
	return b.memoSize
}

// bodyRect is the rounded body of a bubble of size s (the tail is under it).
func bubbleBody(s fyne.Size) fyne.Size { return fyne.NewSize(s.Width, s.Height-tailH) }

func lineHeight() float32 { return fyne.MeasureText("Ag", bubbleTextSize, fyne.TextStyle{}).Height }

func (b *bubble) CreateRenderer() fyne.WidgetRenderer {
	r := &bubbleRenderer{b: b, body: canvas.NewRectangle(colBubble)}
	r.body.CornerRadius = bubbleRadius
	r.body.StrokeColor = colBubbleStroke
	r.body.StrokeWidth = 1
	r.tail = canvas.NewRasterWithPixels(func(x, y, w, h int) color.Color {
		// A downward triangle: full width at the top, a point at the bottom.
		half := float64(w) / 2 * float64(h-y) / float64(h)
		if d := float64(x) + 0.5 - float64(w)/2; d >= -half && d <= half {
			if d <= -half+1 || d >= half-1 {
				return colBubbleStroke
			}
			return colBubble
		}
		return color.Transparent
	})
	r.Refresh()
	return r
}

type bubbleRenderer struct {
	b     *bubble
	body  *canvas.Rectangle
	tail  *canvas.Raster
	texts []*canvas.Text
	objs  []fyne.CanvasObject
}

func (r *bubbleRenderer) Layout(size fyne.Size) {
	body := bubbleBody(size)
	r.body.Resize(body)
	r.tail.Move(fyne.NewPos((size.Width-tailW)/2, body.Height-1))
	r.tail.Resize(fyne.NewSize(tailW, tailH+1))
	lh := lineHeight()
	for i, t := range r.texts {
		t.Move(fyne.NewPos(bubblePad, bubblePad+float32(i)*lh))
		t.Resize(fyne.NewSize(body.Width-2*bubblePad, lh))
	}
}

func (r *bubbleRenderer) MinSize() fyne.Size { return r.b.MinSize() }

func (r *bubbleRenderer) Refresh() {
	lines := r.b.lines()
	for len(r.texts) < len(lines) {
		t := canvas.NewText("", colInk)
		t.TextSize = bubbleTextSize
		r.texts = append(r.texts, t)
	}
	for i, t := range r.texts {
		if i < len(lines) {
			t.Text = lines[i]
			t.Hidden = false
		} else {
			t.Hidden = true
		}
	}
	r.objs = append(r.objs[:0], r.tail, r.body)
	for _, t := range r.texts {
		r.objs = append(r.objs, t)
	}
	r.Layout(r.b.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

func (r *bubbleRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *bubbleRenderer) Destroy() {}

// wrapText breaks text into at most maxLines lines no wider than width,
// at spaces where it can and inside a word when it must. A text that needs
// more lines ends its last line with an ellipsis.
func wrapText(text string, width, size float32, maxLines int) []string {
	style := fyne.TextStyle{}
	fits := func(s string) bool { return fyne.MeasureText(s, size, style).Width <= width }
	var lines []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			cand := word
			if line != "" {
				cand = line + " " + word
			}
			if fits(cand) {
				line = cand
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			// Break a word wider than the bubble.
			for !fits(word) {
				n := 1
				for n < utf8.RuneCountInString(word) && fits(string([]rune(word)[:n+1])) {
					n++
				}
				lines = append(lines, string([]rune(word)[:n]))
				word = string([]rune(word)[n:])
			}
			line = word
		}
		if line != "" || len(lines) == 0 {
			lines = append(lines, line)
		}
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		last := []rune(lines[maxLines-1])
		for len(last) > 0 && !fits(string(last)+"…") {
			last = last[:len(last)-1]
		}
		lines[maxLines-1] = strings.TrimRight(string(last), " ") + "…"
	}
	return lines
}

// cutText cuts text to width, ending it with an ellipsis when cut.
func cutText(text string, width, size float32, style fyne.TextStyle) string {
	if fyne.MeasureText(text, size, style).Width <= width {
		return text
	}
	r := []rune(text)
	for len(r) > 0 && fyne.MeasureText(string(r)+"…", size, style).Width > width {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ") + "…"
}

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

	onTap       func()
	onDoubleTap func()
	onSecondary func(fyne.Position)
	onPress     func()
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
		d := p.decodeCrop(colBackdrop)
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

// keep drops the canvas images of every frame not in imgs (and not
// showing), so only the frames that may play soon hold pixels.
func (c *body) keep(imgs ...[]image.Image) {
	want := make(map[image.Image]bool)
	for _, l := range imgs {
		for _, img := range l {
			want[img] = true
		}
	}
	changed := false
	for img, ci := range c.images {
		if want[img] || ci == c.current {
			continue
		}
		delete(c.images, img)
		delete(c.crops, ci)
		c.order = slices.DeleteFunc(c.order, func(o fyne.CanvasObject) bool { return o == ci })
		changed = true
	}
	if changed {
		c.Refresh()
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
	if e.Button == desktop.MouseButtonPrimary && c.onPress != nil {
		c.onPress()
	}
}

// MouseUp is part of desktop.Mouseable; the drag end is DragEnd.
func (c *body) MouseUp(*desktop.MouseEvent) {}

func (c *body) Dragged(*fyne.DragEvent) {
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

// composerEntry is the composer's one-line entry; Escape closes the composer.
type composerEntry struct {
	widget.Entry
	onEscape func()
}

func newComposerEntry() *composerEntry {
	e := &composerEntry{}
	e.ExtendBaseWidget(e)
	e.PlaceHolder = "Say something…"
	return e
}

// TypedKey closes the composer on Escape and passes the rest on.
func (e *composerEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}

// iconButton is a round-cornered button showing only an icon: the
// composer's attach and send/stop buttons. Unlike widget.Button it measures
// no text, so the bold font faces (several MiB) are never loaded.
type iconButton struct {
	widget.BaseWidget
	Icon fyne.Resource
	// Importance picks the colours: widget.HighImportance (primary
	// colour), widget.DangerImportance (error colour) or
	// widget.LowImportance (no background until hovered).
	Importance widget.Importance
	OnTapped   func()

	hovered bool
}

var (
	_ fyne.Tappable     = (*iconButton)(nil)
	_ desktop.Hoverable = (*iconButton)(nil)
)

func newIconButton(icon fyne.Resource, imp widget.Importance, tapped func()) *iconButton {
	b := &iconButton{Icon: icon, Importance: imp, OnTapped: tapped}
	b.ExtendBaseWidget(b)
	return b
}

// Set changes the icon and colours, redrawing only when they changed.
func (b *iconButton) Set(icon fyne.Resource, imp widget.Importance) {
	if b.Icon == icon && b.Importance == imp {
		return
	}
	b.Icon, b.Importance = icon, imp
	b.Refresh()
}

func (b *iconButton) Tapped(*fyne.PointEvent) {
	if b.OnTapped != nil {
		b.OnTapped()
	}
}

func (b *iconButton) MouseIn(*desktop.MouseEvent) { b.hovered = true; b.Refresh() }

func (b *iconButton) MouseMoved(*desktop.MouseEvent) {}

func (b *iconButton) MouseOut() { b.hovered = false; b.Refresh() }

// Cursor is the hand pointer.
func (b *iconButton) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (b *iconButton) MinSize() fyne.Size { return fyne.NewSize(32, 32) }

func (b *iconButton) CreateRenderer() fyne.WidgetRenderer {
	r := &iconButtonRenderer{b: b, bg: canvas.NewRectangle(color.Transparent), icon: canvas.NewImageFromResource(nil)}
	r.bg.CornerRadius = 8
	r.icon.FillMode = canvas.ImageFillContain
	r.Refresh()
	return r
}

type iconButtonRenderer struct {
	b    *iconButton
	bg   *canvas.Rectangle
	icon *canvas.Image
	res  fyne.Resource // the coloured icon showing
}

func (r *iconButtonRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	const pad = 6
	r.icon.Move(fyne.NewPos(pad, pad))
	r.icon.Resize(fyne.NewSize(size.Width-2*pad, size.Height-2*pad))
}

func (r *iconButtonRenderer) MinSize() fyne.Size { return r.b.MinSize() }

func (r *iconButtonRenderer) Refresh() {
	th := r.b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	var bg color.Color = color.Transparent
	fg := theme.ColorNameForeground
	switch r.b.Importance {
	case widget.HighImportance:
		bg, fg = th.Color(theme.ColorNamePrimary, v), theme.ColorNameForegroundOnPrimary
	case widget.DangerImportance:
		bg, fg = th.Color(theme.ColorNameError, v), theme.ColorNameForegroundOnError
	}
	if r.b.hovered {
		if r.b.Importance == widget.LowImportance {
			bg = th.Color(theme.ColorNameHover, v)
		} else {
			bg = blend(bg, th.Color(theme.ColorNameHover, v))
		}
	}
	r.bg.FillColor = bg
	r.bg.Refresh()
	if r.b.Icon != nil {
		if res := theme.NewColoredResource(r.b.Icon, fg); r.res == nil || r.res.Name() != res.Name() {
			r.res = res
			r.icon.Resource = res
			r.icon.Refresh()
		}
	}
	r.Layout(r.b.Size())
}

func (r *iconButtonRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg, r.icon}
}

func (r *iconButtonRenderer) Destroy() {}

// blend lays over (with its alpha) on top of base.
func blend(base, over color.Color) color.Color {
	br, bg, bb, ba := base.RGBA()
	or, og, ob, oa := over.RGBA()
	mix := func(b, o uint32) uint8 { return uint8((o + b*(0xffff-oa)/0xffff) >> 8) }
	return color.NRGBA{mix(br, or), mix(bg, og), mix(bb, ob), uint8(max(ba, oa) >> 8)}
}
