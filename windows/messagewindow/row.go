package messagewindow

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"yui/pet/transcript"
)

// messageRow is one entry of the conversation. It draws from a layout
// computed once per width and entry version, so the conversation can ask
// every row its height cheaply; a row changes only when its own entry
// grows.
type messageRow struct {
	widget.BaseWidget
	entry   transcript.Entry
	version int
	// expanded is the user's choice for reasoning; nil follows Streaming
	// (all of it live while streaming, one line once done).
	expanded *bool
	// onResized tells the conversation this row's height changed.
	onResized func(*messageRow)

	wraps     wrapCache
	memo      rowLayout
	memoWidth float32
	memoVer   int
	memoExp   bool
	memoValid bool

	renders int // renderer refreshes, for tests
}

var (
	_ fyne.Tappable          = (*messageRow)(nil)
	_ fyne.SecondaryTappable = (*messageRow)(nil)
	_ desktop.Cursorable     = (*messageRow)(nil)
)

func newMessageRow(e transcript.Entry) *messageRow {
	r := &messageRow{entry: e}
	r.ExtendBaseWidget(r)
	return r
}

// setEntry shows the entry's new state (a growth) and redraws the row.
func (r *messageRow) setEntry(e transcript.Entry) {
	r.entry = e
	r.version++
	r.Refresh()
}

func (r *messageRow) isExpanded() bool {
	if r.expanded != nil {
		return *r.expanded
	}
	return r.entry.Streaming
}

// layoutAt is the row laid out at width (memoised).
func (r *messageRow) layoutAt(width float32) rowLayout {
	exp := r.isExpanded()
	if !r.memoValid || r.memoWidth != width || r.memoVer != r.version || r.memoExp != exp {
		r.memo = layoutEntry(r.entry, width, exp, &r.wraps)
		r.memoWidth, r.memoVer, r.memoExp, r.memoValid = width, r.version, exp, true
	}
	return r.memo
}

// heightAt is the row's height at width.
func (r *messageRow) heightAt(width float32) float32 { return r.layoutAt(width).height }

// MinSize is the height at the current width; the conversation sizes rows
// itself through heightAt.
func (r *messageRow) MinSize() fyne.Size {
	return fyne.NewSize(4*rowPadX, r.heightAt(max(r.Size().Width, 4*rowPadX)))
}

// Tapped flips a reasoning row between one line and all of it.
func (r *messageRow) Tapped(*fyne.PointEvent) {
	if r.entry.Kind != transcript.KindReasoning || !r.layoutAt(r.Size().Width).toggle {
		return
	}
	exp := !r.isExpanded()
	r.expanded = &exp
	r.Refresh()
	if r.onResized != nil {
		r.onResized(r)
	}
}

// TappedSecondary offers to copy the row's text: the rows are drawn
// text, not selectable labels.
func (r *messageRow) TappedSecondary(e *fyne.PointEvent) {
	menu := r.menu()
	c := fyne.CurrentApp().Driver().CanvasForObject(r)
	if menu == nil || c == nil {
		return
	}
	widget.ShowPopUpMenuAtPosition(menu, c, e.AbsolutePosition)
}

// menu is the row's right-click menu; nil when it has nothing to copy.
func (r *messageRow) menu() *fyne.Menu {
	text := entryCopyText(r.entry)
	if text == "" {
		return nil
	}
	return fyne.NewMenu("", fyne.NewMenuItem(lang.L("Copy"), func() {
		fyne.CurrentApp().Clipboard().SetContent(text)
	}))
}

// Cursor is a pointer over a reasoning row that can be toggled.
func (r *messageRow) Cursor() desktop.Cursor {
	if r.entry.Kind == transcript.KindReasoning && r.layoutAt(r.Size().Width).toggle {
		return desktop.PointerCursor
	}
	return desktop.DefaultCursor
}

func (r *messageRow) CreateRenderer() fyne.WidgetRenderer {
	return &messageRowRenderer{r: r}
}

// messageRowRenderer keeps pools of canvas objects and points them at
// the row's current layout.
type messageRowRenderer struct {
	r     *messageRow
	rects []*canvas.Rectangle
	texts []*canvas.Text
	lines []*canvas.Line
	dots  []*canvas.Circle
	objs  []fyne.CanvasObject
}

func (rr *messageRowRenderer) Layout(size fyne.Size) { rr.apply(rr.r.layoutAt(size.Width)) }

func (rr *messageRowRenderer) MinSize() fyne.Size { return rr.r.MinSize() }

func (rr *messageRowRenderer) Refresh() {
	rr.r.renders++
	rr.apply(rr.r.layoutAt(rr.r.Size().Width))
	for _, o := range rr.objs {
		o.Refresh()
	}
}

// apply places the pooled objects as l says.
func (rr *messageRowRenderer) apply(l rowLayout) {
	rr.objs = rr.objs[:0]
	var nr, nt, nl, nd int
	for _, p := range l.parts {
		var o fyne.CanvasObject
		switch p.kind {
		case partRect:
			if nr == len(rr.rects) {
				rr.rects = append(rr.rects, canvas.NewRectangle(nil))
			}
			c := rr.rects[nr]
			nr++
			c.FillColor, c.StrokeColor, c.CornerRadius = p.fill, p.stroke, p.radius
			c.StrokeWidth = 0
			if p.stroke != nil {
				c.StrokeWidth = 1
			}
			o = c
		case partText:
			if nt == len(rr.texts) {
				rr.texts = append(rr.texts, canvas.NewText("", nil))
			}
			t := rr.texts[nt]
			nt++
			t.Text, t.Color, t.TextSize = p.text, p.fill, p.tsize
			t.TextStyle = fyne.TextStyle{Italic: p.italic}
			o = t
		case partLine:
			if nl == len(rr.lines) {
				rr.lines = append(rr.lines, canvas.NewLine(nil))
			}
			ln := rr.lines[nl]
			nl++
			ln.StrokeColor, ln.StrokeWidth = p.fill, 1
			ln.Position1, ln.Position2 = p.pos, p.pos.AddXY(p.size.Width, 0)
			rr.objs = append(rr.objs, ln)
			continue
		case partDot:
			if nd == len(rr.dots) {
				rr.dots = append(rr.dots, canvas.NewCircle(nil))
			}
			d := rr.dots[nd]
			nd++
			d.FillColor = p.fill
			o = d
		}
		o.Move(p.pos)
		o.Resize(p.size)
		rr.objs = append(rr.objs, o)
	}
}

func (rr *messageRowRenderer) Objects() []fyne.CanvasObject { return rr.objs }

func (rr *messageRowRenderer) Destroy() {}
