package messagewindow

import (
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"yui/pet/transcript"
)

// conversation is the message window's scrolling history: one row per
// transcript entry. It is built once from the history and then changed
// one entry at a time: Added appends a row, Grown redraws that one row,
// Cleared empties it. Rows out of view are hidden so that a long history
// costs nothing to paint, and the view follows the newest entry while the
// user is at the bottom.
type conversation struct {
	widget.BaseWidget

	scroll      *container.Scroll
	box         *fyne.Container
	bg          *canvas.Rectangle
	placeholder *canvas.Text

	rows  []*messageRow
	bySeq map[int64]*messageRow
	// tops are the rows' y positions as last laid out.
	tops  []float32
	width float32
	// limit bounds the rows kept: the oldest go first.
	limit int
	// empty is the placeholder's text while there are no rows.
	empty string

	created int // rows made, for tests
}

// bottomSlack is how near the bottom counts as "at the bottom".
const bottomSlack = 24

func newConversation() *conversation {
	c := &conversation{bySeq: map[int64]*messageRow{}, limit: transcript.DefaultMax}
	c.box = &fyne.Container{Layout: rowsLayout{c}}
	c.scroll = container.NewVScroll(c.box)
	c.scroll.OnScrolled = func(fyne.Position) { c.cull() }
	c.bg = canvas.NewRectangle(colConversation)
	c.placeholder = canvas.NewText("", colMuted)
	c.placeholder.TextSize = msgTextSize
	c.placeholder.TextStyle.Italic = true
	c.placeholder.Alignment = fyne.TextAlignCenter
	c.ExtendBaseWidget(c)
	return c
}

// setEmpty sets the line shown while there are no rows.
func (c *conversation) setEmpty(text string) {
	c.empty = text
	c.placeholder.Text = text
	c.placeholder.Hidden = len(c.rows) > 0 || text == ""
	c.placeholder.Refresh()
}

// setHistory replaces every row with history (when the window attaches
// to a transcript) and shows the newest.
func (c *conversation) setHistory(history []transcript.Entry) {
	c.rows, c.bySeq = nil, map[int64]*messageRow{}
	c.limit = max(transcript.DefaultMax, len(history))
	objs := make([]fyne.CanvasObject, 0, len(history))
	for _, e := range history {
		r := c.newRow(e)
		c.rows = append(c.rows, r)
		objs = append(objs, r)
	}
	c.box.Objects = objs
	c.relayout(true)
}

// lastSeq is the newest entry shown, 0 with none.
func (c *conversation) lastSeq() int64 {
	if len(c.rows) == 0 {
		return 0
	}
	return c.rows[len(c.rows)-1].entry.Seq
}

// apply shows one transcript change.
func (c *conversation) apply(ch transcript.Change) {
	switch ch.Op {
	case transcript.Added:
		if ch.Entry.Seq <= c.lastSeq() {
			// Delivered after the history that already holds it.
			c.grow(ch.Entry)
			return
		}
		c.add(ch.Entry)
	case transcript.Grown:
		c.grow(ch.Entry)
	case transcript.Cleared:
		c.setHistory(nil)
	}
}

func (c *conversation) add(e transcript.Entry) {
	stick := c.atBottom()
	r := c.newRow(e)
	c.rows = append(c.rows, r)
	c.box.Objects = append(c.box.Objects, r)
	if n := len(c.rows) - c.limit; n > 0 {
		gone := float32(0)
		for _, old := range c.rows[:n] {
			delete(c.bySeq, old.entry.Seq)
			gone += old.heightAt(c.width)
		}
		c.rows = append(c.rows[:0:0], c.rows[n:]...)
		c.box.Objects = append(c.box.Objects[:0:0], c.box.Objects[n:]...)
		if !stick {
			c.scroll.Offset.Y = max(0, c.scroll.Offset.Y-gone)
		}
	}
	c.relayout(stick)
}

func (c *conversation) grow(e transcript.Entry) {
	r, ok := c.bySeq[e.Seq]
	if !ok {
		return
	}
	stick := c.atBottom()
	h := r.heightAt(c.width)
	r.setEntry(e)
	if r.heightAt(c.width) != h {
		c.relayout(stick)
	}
}

func (c *conversation) newRow(e transcript.Entry) *messageRow {
	c.created++
	r := newMessageRow(e)
	r.onResized = func(*messageRow) { c.relayout(false) }
	c.bySeq[e.Seq] = r
	return r
}

// atBottom reports whether the view shows the end of the history.
func (c *conversation) atBottom() bool {
	content := c.box.Size().Height
	return c.scroll.Offset.Y+c.scroll.Size().Height >= content-bottomSlack
}

// relayout places the rows after a change of their number or heights,
// without redrawing the rows that did not change, and scrolls to the
// newest when stick is set.
func (c *conversation) relayout(stick bool) {
	c.placeholder.Hidden = len(c.rows) > 0 || c.empty == ""
	c.placeholder.Refresh()
	size := c.box.MinSize().Max(c.scroll.Size())
	if c.box.Size() == size {
		c.box.Layout.Layout(c.box.Objects, size)
	} else {
		c.box.Resize(size) // lays out
	}
	if stick {
		c.scroll.ScrollToBottom()
	}
	// Let the scroller take the new content size (its bars and offset)
	// without refreshing every row as Scroll.Refresh would.
	c.scroll.Base.Refresh()
	c.cull()
	canvas.Refresh(c.box)
}

// cull hides the rows well out of view and shows the rest.
func (c *conversation) cull() {
	if len(c.tops) != len(c.rows) {
		return
	}
	viewH := c.scroll.Size().Height
	if viewH <= 0 {
		return
	}
	top, bottom := c.scroll.Offset.Y-viewH, c.scroll.Offset.Y+2*viewH
	// The first row that ends below top.
	i := sort.Search(len(c.rows), func(i int) bool {
		return c.tops[i]+c.rows[i].heightAt(c.width) >= top
	})
	for j, r := range c.rows {
		in := j >= i && c.tops[j] <= bottom
		if in && !r.Visible() {
			r.Show()
		} else if !in && r.Visible() {
			r.Hide()
		}
	}
}

// rowsLayout stacks the rows at the conversation's width, each as tall as
// its layout says.
type rowsLayout struct{ c *conversation }

func (l rowsLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, r := range l.c.rows {
		h += r.heightAt(l.c.width)
	}
	return fyne.NewSize(4*rowPadX, h+rowPadY)
}

func (l rowsLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	c := l.c
	c.tops = c.tops[:0]
	y := float32(rowPadY)
	for _, r := range c.rows {
		h := r.heightAt(c.width)
		c.tops = append(c.tops, y)
		r.Move(fyne.NewPos(0, y))
		r.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
	c.cull()
}

func (c *conversation) CreateRenderer() fyne.WidgetRenderer {
	return &conversationRenderer{c: c}
}

type conversationRenderer struct{ c *conversation }

// Layout sets the width the rows wrap to before the scroller sizes its
// content: a row's height depends on it.
func (r *conversationRenderer) Layout(size fyne.Size) {
	c := r.c
	stick := c.atBottom()
	c.bg.Resize(size)
	if c.width != size.Width {
		c.width = size.Width
		c.box.Resize(fyne.Size{}) // force a layout at the new width
	}
	c.scroll.Resize(size)
	c.placeholder.Move(fyne.NewPos(0, 24))
	c.placeholder.Resize(fyne.NewSize(size.Width, textLineHeight(msgTextSize)))
	c.relayout(stick)
}

func (r *conversationRenderer) MinSize() fyne.Size { return fyne.NewSize(120, 120) }

func (r *conversationRenderer) Refresh() {
	r.c.bg.Refresh()
	r.c.placeholder.Refresh()
}

func (r *conversationRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.c.bg, r.c.scroll, r.c.placeholder}
}

func (r *conversationRenderer) Destroy() {}
