package messagewindow

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"yui/pet/transcript"
	"yui/transport"
	"yui/transport/textcut"
	"yui/windows/widgets"
)

// Colours and sizes of the message window's conversation. Like the pet's
// bubble they do not follow the theme: the rows read dark on light.
var (
	colUserBubble   = color.NRGBA{0xdc, 0xea, 0xff, 0xff}
	colMuted        = color.NRGBA{0x6b, 0x71, 0x80, 0xff}
	colErrorBG      = color.NRGBA{0xfd, 0xec, 0xea, 0xff}
	colErrorStroke  = color.NRGBA{0xf0, 0xb0, 0xaa, 0xff}
	colReasoningBG  = color.NRGBA{0xf2, 0xf3, 0xf6, 0xff}
	colToolBG       = color.NRGBA{0xec, 0xee, 0xf2, 0xff}
	colMotionChip   = color.NRGBA{0xe4, 0xdc, 0xfa, 0xff}
	colEmotionChip  = color.NRGBA{0xff, 0xe3, 0x9c, 0xff}
	colToggle       = color.NRGBA{0x1f, 0x5f, 0xc8, 0xff}
	colRule         = color.NRGBA{0xc8, 0xcc, 0xd6, 0xff}
	colConversation = color.NRGBA{0xfa, 0xfa, 0xfc, 0xff}
)

const (
	msgTextSize   = 14
	chipTextSize  = 12
	rowPadX       = 12
	rowPadY       = 5
	rowGapY       = 4 // between a row's chip line and its bubble
	msgBubblePadX = 10
	msgBubblePadY = 7
	msgRadius     = 10
	chipHeight    = 20
	chipPadX      = 8
	chipGap       = 4
	// minRowWidth is the narrowest a row is laid out: narrower, a
	// bubble could be thinner than one glyph, which wrapText cannot
	// break. A narrower window clips the rows instead.
	minRowWidth = 200
	// maxRowWidth bounds a row's width (and so a line's length, which
	// wrapping measures whole for each word it adds).
	maxRowWidth = 8192
	// maxRowRunes is how much of an entry's text a row wraps: wrapping
	// measures every word, and a runaway text must not freeze the window.
	// Copy still gives all of it.
	maxRowRunes = 12000
	// maxChipRunes is the most of a chip's text measured: a chip is a
	// word or a short phrase.
	maxChipRunes = 80
	// maxWrapLines bounds the lines of one entry (a transcript entry is
	// bounded, but a row must not grow without end either).
	maxWrapLines = 2000
)

// resetText is what a reset marker reads.
const resetText = "new conversation"

// partKind says what a laid-out part of a row is.
type partKind int

const (
	partRect partKind = iota // a rounded rectangle: bubble, box or chip
	partText                 // one line of text
	partLine                 // a horizontal rule
	partDot                  // a status dot
)

// rowPart is one drawn part of a row, placed in row coordinates.
type rowPart struct {
	kind   partKind
	pos    fyne.Position
	size   fyne.Size
	fill   color.Color
	stroke color.Color
	radius float32
	text   string
	tsize  float32
	italic bool
}

// rowLayout is a row laid out at one width.
type rowLayout struct {
	parts  []rowPart
	height float32
	// toggle is true when the row is reasoning that differs collapsed and
	// expanded: a tap on the row flips it.
	toggle bool
}

// rowBuilder collects parts while a row is laid out.
type rowBuilder struct {
	width float32
	wc    *wrapCache // nil wraps afresh
	l     rowLayout
}

func (b *rowBuilder) rect(pos fyne.Position, size fyne.Size, fill, stroke color.Color, radius float32) {
	b.l.parts = append(b.l.parts, rowPart{kind: partRect, pos: pos, size: size, fill: fill, stroke: stroke, radius: radius})
}

func (b *rowBuilder) text(s string, pos fyne.Position, size float32, c color.Color, italic bool) {
	h := textLineHeight(size)
	b.l.parts = append(b.l.parts, rowPart{kind: partText, pos: pos, size: fyne.NewSize(textWidth(s, size, italic), h), fill: c, text: s, tsize: size, italic: italic})
}

// lines draws wrapped lines from pos down and returns the height used.
func (b *rowBuilder) lines(ls []string, pos fyne.Position, size float32, c color.Color) float32 {
	h := textLineHeight(size)
	for i, s := range ls {
		b.text(s, fyne.NewPos(pos.X, pos.Y+float32(i)*h), size, c, false)
	}
	return float32(len(ls)) * h
}

// chip is one small rounded label of a chip line.
type chip struct {
	text   string
	fg, bg color.Color
	dot    color.Color
	italic bool
}

func (c chip) width() float32 {
	w := textWidth(c.text, chipTextSize, c.italic) + 2*chipPadX
	if c.dot != nil {
		w += 12
	}
	return w
}

// chips lays chips out left to right from x (right-aligned to the right
// edge when right is set), wrapping onto new lines within the row, and
// returns the height used. A chip wider than the row is cut.
func (b *rowBuilder) chips(cs []chip, y float32, right bool) float32 {
	if len(cs) == 0 {
		return 0
	}
	avail := b.width - 2*rowPadX
	type placed struct {
		c chip
		w float32
	}
	var rows [][]placed
	var cur []placed
	used := float32(0)
	for _, c := range cs {
		c.text = textcut.Mark(c.text, maxChipRunes, "…") // cutText measures rune by rune
		if c.width() > avail {
			c.text = widgets.CutText(c.text, avail-(c.width()-textWidth(c.text, chipTextSize, c.italic)), chipTextSize, fyne.TextStyle{Italic: c.italic})
		}
		w := c.width()
		if len(cur) > 0 && used+chipGap+w > avail {
			rows = append(rows, cur)
			cur, used = nil, 0
		}
		if len(cur) > 0 {
			used += chipGap
		}
		cur = append(cur, placed{c, w})
		used += w
	}
	rows = append(rows, cur)
	for i, r := range rows {
		total := float32(0)
		for j, p := range r {
			if j > 0 {
				total += chipGap
			}
			total += p.w
		}
		x := float32(rowPadX)
		if right {
			x = b.width - rowPadX - total
		}
		cy := y + float32(i)*(chipHeight+chipGap)
		for _, p := range r {
			b.rect(fyne.NewPos(x, cy), fyne.NewSize(p.w, chipHeight), p.c.bg, nil, chipHeight/2)
			tx := x + chipPadX
			if p.c.dot != nil {
				b.l.parts = append(b.l.parts, rowPart{kind: partDot, pos: fyne.NewPos(tx, cy+(chipHeight-8)/2), size: fyne.NewSize(8, 8), fill: p.c.dot})
				tx += 12
			}
			b.text(p.c.text, fyne.NewPos(tx, cy+(chipHeight-textLineHeight(chipTextSize))/2), chipTextSize, p.c.fg, p.c.italic)
			x += p.w + chipGap
		}
	}
	return float32(len(rows))*(chipHeight+chipGap) - chipGap
}

// layoutEntry lays entry e out at width; expanded says whether reasoning
// shows all its lines.
func layoutEntry(e transcript.Entry, width float32, expanded bool, wc *wrapCache) rowLayout {
	if !(width >= minRowWidth) { // NaN too
		width = minRowWidth
	}
	width = min(width, maxRowWidth)
	b := &rowBuilder{width: width, wc: wc}
	e.Text = textcut.Mark(e.Text, maxRowRunes, lang.L(" … (cut: Copy gives all of it)"))
	y := float32(rowPadY)
	switch e.Kind {
	case transcript.KindUser:
		y = b.user(e, y)
	case transcript.KindReply:
		y = b.reply(e, y)
	case transcript.KindTool:
		st := e.State
		if st == "" {
			st = "?"
		}
		if e.MS > 0 && e.State != toolRunning {
			st += fmt.Sprintf(" · %d ms", e.MS)
		}
		y += b.chips([]chip{{text: e.Tool + " " + st, fg: widgets.ColInk, bg: colToolBG, dot: toolStateColor(e.State)}}, y, false)
	case transcript.KindError:
		y = b.box(e.Text, y, widgets.ColError, colErrorBG, colErrorStroke)
	case transcript.KindReasoning:
		y = b.reasoning(e, y, expanded)
	case transcript.KindReset:
		y = b.reset(y)
	default:
		y = b.box(e.Text, y, colMuted, colReasoningBG, nil)
	}
	b.l.height = float32(int(y + rowPadY + 0.999))
	return b.l
}

func (b *rowBuilder) user(e transcript.Entry, y float32) float32 {
	var cs []chip
	if t := triggerLabel(e.Trigger); t != "" {
		cs = append(cs, chip{text: t, fg: widgets.ColInk, bg: colToolBG, italic: true})
	}
	if !e.Time.IsZero() {
		cs = append(cs, chip{text: e.Time.Local().Format("15:04"), fg: colMuted, bg: color.Transparent})
	}
	y += b.chips(cs, y, true)
	if strings.TrimSpace(e.Text) == "" {
		return y
	}
	y += rowGapY
	return b.bubble(e.Text, y, true, colUserBubble, nil)
}

func (b *rowBuilder) reply(e transcript.Entry, y float32) float32 {
	cs := cueChips(e.Cues)
	if !e.Time.IsZero() {
		cs = append(cs, chip{text: e.Time.Local().Format("15:04"), fg: colMuted, bg: color.Transparent})
	}
	y += b.chips(cs, y, false)
	text := e.Text
	if transport.IsSilent(text) {
		if len(e.Cues) > 0 && text == "" {
			return y // cues only, so far
		}
		text = "…"
	}
	y += rowGapY
	return b.bubble(text, y, false, widgets.ColBubble, widgets.ColBubbleStroke)
}

// cueChips are a reply's cue chips in order, each distinct chip once:
// emotion, motion, emotion_text badge and caption.
func cueChips(cues []transport.Cue) []chip {
	var cs []chip
	seen := map[string]bool{}
	add := func(key string, c chip) {
		if c.text == "" || seen[key+c.text] {
			return
		}
		seen[key+c.text] = true
		cs = append(cs, c)
	}
	for _, c := range cues {
		add("e", chip{text: c.EmotionID, fg: widgets.ColInk, bg: colEmotionChip})
		add("m", chip{text: c.MotionID, fg: widgets.ColInk, bg: colMotionChip, italic: true})
		add("t", chip{text: c.EmotionText, fg: widgets.ColInk, bg: widgets.ColBadge})
		add("c", chip{text: c.Caption, fg: widgets.ColPillText, bg: widgets.ColPill, italic: true})
	}
	return cs
}

// bubble draws text wrapped in a rounded bubble on the left or right.
func (b *rowBuilder) bubble(text string, y float32, right bool, fill, stroke color.Color) float32 {
	maxW := (b.width - 2*rowPadX) * 0.82
	ls := b.wc.wrap(text, maxW-2*msgBubblePadX, msgTextSize)
	w := float32(0)
	for _, l := range ls {
		w = max(w, textWidth(l, msgTextSize, false))
	}
	w = min(float32(int(w+0.999))+2*msgBubblePadX, maxW)
	h := float32(len(ls))*textLineHeight(msgTextSize) + 2*msgBubblePadY
	x := float32(rowPadX)
	if right {
		x = b.width - rowPadX - w
	}
	b.rect(fyne.NewPos(x, y), fyne.NewSize(w, h), fill, stroke, msgRadius)
	b.lines(ls, fyne.NewPos(x+msgBubblePadX, y+msgBubblePadY), msgTextSize, widgets.ColInk)
	return y + h
}

// box draws text wrapped in a full-width box (error lines).
func (b *rowBuilder) box(text string, y float32, fg, fill, stroke color.Color) float32 {
	w := b.width - 2*rowPadX
	ls := b.wc.wrap(text, w-2*msgBubblePadX, msgTextSize)
	h := float32(len(ls))*textLineHeight(msgTextSize) + 2*msgBubblePadY
	b.rect(fyne.NewPos(rowPadX, y), fyne.NewSize(w, h), fill, stroke, 6)
	b.lines(ls, fyne.NewPos(rowPadX+msgBubblePadX, y+msgBubblePadY), msgTextSize, fg)
	return y + h
}

// Reasoning's header and its toggle.
const (
	reasoningTitle     = "Reasoning"
	reasoningStreaming = "Reasoning · thinking…"
	toggleShow         = "show all"
	toggleHide         = "hide"
)

// reasoning draws the reasoning box: a header with its toggle, then one
// line (collapsed) or every line (expanded).
func (b *rowBuilder) reasoning(e transcript.Entry, y float32, expanded bool) float32 {
	const size = 13
	w := b.width - 2*rowPadX
	inner := w - 2*msgBubblePadX
	all := b.wc.wrap(e.Text, inner, size)
	ls := all
	if !expanded && len(all) > 1 {
		// The first line, and enough of the next to be cut with an
		// ellipsis: cutting the whole text would measure it rune by rune.
		next := []rune(all[1])
		more := all[0] + " " + string(next[:min(len(next), 3)])
		line := widgets.CutText(more, inner, size, fyne.TextStyle{})
		if line == more || !strings.HasSuffix(line, "…") {
			line = all[0] + " …" // the next line is blank: mark that more follows
		}
		ls = []string{line}
	}
	b.l.toggle = len(all) > 1
	lh := textLineHeight(size)
	hh := textLineHeight(chipTextSize)
	h := 2*msgBubblePadY + hh + 2 + float32(len(ls))*lh
	if strings.TrimSpace(e.Text) == "" {
		h = 2*msgBubblePadY + hh
	}
	b.rect(fyne.NewPos(rowPadX, y), fyne.NewSize(w, h), colReasoningBG, nil, 6)
	title := lang.L(reasoningTitle)
	if e.Streaming {
		title = lang.L(reasoningStreaming)
	}
	x := float32(rowPadX + msgBubblePadX)
	b.text(title, fyne.NewPos(x, y+msgBubblePadY), chipTextSize, colMuted, true)
	if b.l.toggle {
		t := lang.L(toggleShow)
		if expanded {
			t = lang.L(toggleHide)
		}
		tw := textWidth(t, chipTextSize, false)
		b.text(t, fyne.NewPos(rowPadX+w-msgBubblePadX-tw, y+msgBubblePadY), chipTextSize, colToggle, false)
	}
	if strings.TrimSpace(e.Text) != "" {
		b.lines(ls, fyne.NewPos(x, y+msgBubblePadY+hh+2), size, colMuted)
	}
	return y + h
}

// reset draws the "new conversation" marker: a rule with the words in
// its middle.
func (b *rowBuilder) reset(y float32) float32 {
	h := textLineHeight(chipTextSize)
	tw := textWidth(lang.L(resetText), chipTextSize, true)
	mid := b.width / 2
	ly := y + h/2 + 4
	gap := float32(10)
	b.l.parts = append(b.l.parts,
		rowPart{kind: partLine, pos: fyne.NewPos(rowPadX, ly), size: fyne.NewSize(mid-tw/2-gap-rowPadX, 0), fill: colRule},
		rowPart{kind: partLine, pos: fyne.NewPos(mid+tw/2+gap, ly), size: fyne.NewSize(b.width-rowPadX-(mid+tw/2+gap), 0), fill: colRule})
	b.text(lang.L(resetText), fyne.NewPos(mid-tw/2, y+4), chipTextSize, colMuted, true)
	return y + h + 8
}

func textWidth(s string, size float32, italic bool) float32 {
	return fyne.MeasureText(s, size, fyne.TextStyle{Italic: italic}).Width
}

func textLineHeight(size float32) float32 {
	return fyne.MeasureText("Ag", size, fyne.TextStyle{}).Height
}
