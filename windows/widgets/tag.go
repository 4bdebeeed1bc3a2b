package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// Sizes of a tag.
const (
	tagTextSize = 12
	tagPadX     = 10
	TagHeight   = 22
)

// Tag is a small rounded label: the status pill, the message plate, the
// emotion-text badge, the caption, the delegations chip and the error line.
// Text longer than MaxWidth wraps onto up to MaxLines lines, the last one
// cut with an ellipsis. A tag with OnTapped set answers taps.
type Tag struct {
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

func NewTag(fg, bg color.Color) *Tag {
	t := &Tag{FG: fg, BG: bg}
	t.ExtendBaseWidget(t)
	return t
}

// Tapped runs OnTapped.
func (t *Tag) Tapped(*fyne.PointEvent) {
	if t.OnTapped != nil {
		t.OnTapped()
	}
}

func (t *Tag) style() fyne.TextStyle { return fyne.TextStyle{Italic: t.Italic} }

// extra is the horizontal room besides the text: padding and the dot.
func (t *Tag) extra() float32 {
	if t.Dot != nil {
		return 2*tagPadX + 12
	}
	return 2 * tagPadX
}

// lines is the text wrapped to MaxWidth. An empty tag has no lines and
// measures nothing: a style's fonts load on first measure (several MiB
// each for the italic tags), so a tag that never shows text never loads
// them.
func (t *Tag) lines() []string {
	t.layout()
	return t.memoLine
}

// layout wraps the text and sizes the tag unless nothing it depends on
// changed since the last call.
func (t *Tag) layout() {
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
	h := float32(TagHeight)
	if len(t.memoLine) > 1 {
		h += float32(len(t.memoLine)-1) * TagLineHeight()
	}
	t.memoSize = fyne.NewSize(float32(int(w+t.extra()+0.999)), float32(int(h+0.999)))
}

func (t *Tag) wrap() []string {
	if t.Text == "" {
		return nil
	}
	if t.MaxWidth <= 0 {
		return []string{t.Text}
	}
	if t.MaxLines <= 1 {
		return []string{CutText(t.Text, t.MaxWidth-t.extra(), tagTextSize, t.style())}
	}
	return WrapText(t.Text, t.MaxWidth-t.extra(), tagTextSize, max(1, t.MaxLines))
}

// TagLineHeight is the height of one line of tag text.
func TagLineHeight() float32 {
	return fyne.MeasureText("Ag", tagTextSize, fyne.TextStyle{}).Height
}

// MinSize is the text's size plus padding (and the dot); one line is
// TagHeight tall.
func (t *Tag) MinSize() fyne.Size {
	t.layout()
	return t.memoSize
}

func (t *Tag) CreateRenderer() fyne.WidgetRenderer {
	r := &tagRenderer{t: t, bg: canvas.NewRectangle(t.BG), dot: canvas.NewCircle(color.Transparent)}
	r.bg.CornerRadius = TagHeight / 2
	r.Refresh()
	return r
}

type tagRenderer struct {
	t     *Tag
	bg    *canvas.Rectangle
	dot   *canvas.Circle
	lines TextLines
}

func (r *tagRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	x := float32(tagPadX)
	if r.t.Dot != nil {
		r.dot.Move(fyne.NewPos(x-2, (TagHeight-8)/2))
		r.dot.Resize(fyne.NewSize(8, 8))
		x += 12
	}
	lh := TagLineHeight()
	top := (TagHeight - lh) / 2
	for i, t := range r.lines.Texts() {
		t.Move(fyne.NewPos(x, top+float32(i)*lh))
		t.Resize(fyne.NewSize(size.Width-x-tagPadX, lh))
	}
}

func (r *tagRenderer) MinSize() fyne.Size { return r.t.MinSize() }

func (r *tagRenderer) Refresh() {
	r.bg.FillColor = r.t.BG
	r.dot.Hidden = r.t.Dot == nil
	if r.t.Dot != nil {
		r.dot.FillColor = r.t.Dot
	}
	r.lines.Set(r.t.lines(), r.t.FG, tagTextSize, r.t.style(), r.bg, r.dot)
	r.Layout(r.t.Size())
	r.lines.Refresh()
}

func (r *tagRenderer) Objects() []fyne.CanvasObject { return r.lines.Objs }

func (r *tagRenderer) Destroy() {}
