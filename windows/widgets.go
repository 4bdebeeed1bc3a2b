package windows

import (
	"image"
	"image/color"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
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

// lines is the text wrapped to MaxWidth.
func (t *tag) lines() []string {
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
	lines := t.lines()
	var w float32
	for _, l := range lines {
		w = max(w, fyne.MeasureText(l, tagTextSize, t.style()).Width)
	}
	h := float32(tagHeight) + float32(len(lines)-1)*tagLineHeight()
	return fyne.NewSize(float32(int(w+t.extra()+0.999)), float32(int(h+0.999)))
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
	return wrapText(b.Text, b.MaxWidth-2*bubblePad, bubbleTextSize, maxBubbleLines)
}

// MinSize is the wrapped text's size plus padding and the tail.
func (b *bubble) MinSize() fyne.Size {
	lines := b.lines()
	var w float32
	for _, l := range lines {
		w = max(w, fyne.MeasureText(l, bubbleTextSize, fyne.TextStyle{}).Width)
	}
	lh := lineHeight()
	return fyne.NewSize(float32(int(w+2*bubblePad+0.999)), float32(int(float32(len(lines))*lh+2*bubblePad+tailH+0.999)))
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
	// images holds one canvas.Image per frame image, so each frame's
	// texture is uploaded once and a frame change only flips visibility.
	images  map[image.Image]*canvas.Image
	order   []fyne.CanvasObject
	current *canvas.Image

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

func newBody() *body {
	c := &body{images: make(map[image.Image]*canvas.Image)}
	c.ExtendBaseWidget(c)
	return c
}

// show makes img the visible frame. It reports whether the frame changed.
func (c *body) show(img image.Image) bool {
	if img == nil {
		return false
	}
	ci, ok := c.images[img]
	if !ok {
		ci = canvas.NewImageFromImage(img)
		ci.FillMode = canvas.ImageFillStretch
		ci.ScaleMode = canvas.ImageScaleSmooth
		ci.Hidden = true
		ci.Resize(c.Size())
		c.images[img] = ci
		c.order = append(c.order, ci)
	}
	if ci == c.current {
		return false
	}
	// Hide repaints the canvas without dropping any texture; Refresh would
	// make the driver rasterise the frame again, which costs more than
	// the whole rest of a frame.
	prev := c.current
	ci.Hidden = false
	c.current = ci
	if prev != nil {
		prev.Hide()
	} else {
		c.Refresh()
	}
	return true
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
	c.order = nil
	c.current = nil
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
		o.Resize(size)
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
