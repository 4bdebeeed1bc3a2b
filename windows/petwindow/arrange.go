package petwindow

import (
	"fyne.io/fyne/v2"

	"yui/windows/widgets"
)

// The placement of the window's parts is a pure function of what shows
// and the geometry (arrange), as a Fyne widget's renderer lays out in
// Layout what its Refresh set (fyne.io/fyne/v2/widget/check.go):
// PetWindow.render sets the texts, the visibility and the enabling, then
// partsLayout places the parts with arrange, then the parts redraw.

// partsView is what arrange places: the parts showing and their natural
// sizes, and where the rows are.
type partsView struct {
	bubble                                     partView
	badge, plate, caption, pill, chip, errLine partView
	watching                                   bool // the eye shows by the pill
	hasPlate                                   bool // the view has a plate: the caption goes over the feet
	frame                                      partsFrame
	mic, screen                                bool // the composer has a mic button, a screen toggle
}

// partView is one part: shown or not, and its minimum size.
type partView struct {
	size  fyne.Size
	shown bool
}

// partsFrame is what the refresh step decided about the window as a
// whole: where the plate and pill rows are (rows), the content's rise in
// Fyne units (toproom.go) and whether the composer is open.
type partsFrame struct {
	rows         tagRows
	rise         float32
	composerOpen bool
}

// spot is where a part goes: its top-left corner and size.
type spot struct {
	pos  fyne.Position
	size fyne.Size
}

// partsPlacement is where each part of the window goes, in window units.
// A part that does not show keeps the spot it had (it is not moved).
type partsPlacement struct {
	bubble                                          spot
	bubbleBelow                                     bool // the bubble sits under the character, tail up (toproom.go)
	badge, plate, caption, pill, chip, errLine, eye spot
	composer                                        composerSpots
}

// composerSpots are the composer's parts.
type composerSpots struct {
	bg, attach, send, entry, mic, screen spot
}

// arrange places the parts of v in a window of geometry g.
func arrange(v partsView, g geometry) partsPlacement {
	var p partsPlacement
	rows := v.frame.rows
	// The bubble, centred, with its tail at the rows' tip.
	if v.bubble.shown {
		s := v.bubble.size
		y, below := bubbleY(rows.bubbleTip, s.Height, v.frame, g)
		p.bubble = spot{fyne.NewPos(float32(int((g.width-s.Width)/2)), y), s}
		p.bubbleBelow = below
	}
	p.badge = badgeSpot(v, p.bubble, g)
	// The caption sits on the plate's row while the plate is empty, else
	// over the character's feet.
	p.plate = tagSpot(v.plate, -1, rows.plateY, g)
	captionY := rows.plateY
	if v.hasPlate {
		captionY = g.char.Y + g.charSize.Height - v.caption.size.Height - 4
	}
	p.caption = tagSpot(v.caption, -1, captionY, g)
	// The eye badge, the pill and the chip share a row, centred together.
	var ew float32
	if v.watching {
		ew = widgets.TagHeight + rowGap
	}
	pw, cw := v.pill.size.Width, v.chip.size.Width
	row := ew + pw
	if v.chip.shown {
		row += rowGap + cw
	}
	x := float32(int((g.width - row) / 2))
	p.eye = spot{fyne.NewPos(x, rows.pillY), fyne.NewSize(widgets.TagHeight, widgets.TagHeight)}
	x += ew
	p.pill = tagSpot(v.pill, x, rows.pillY, g)
	p.chip = tagSpot(v.chip, x+pw+rowGap, rows.pillY, g)
	p.errLine = tagSpot(v.errLine, sideMargin+composerRad, g.errorY, g)
	p.composer = arrangeComposer(g, v.mic, v.screen)
	return p
}

// badgeSpot is the emotion-text badge's: at the character's top-right
// corner, or on the bubble's (at b) top-right corner while the bubble
// covers that corner.
func badgeSpot(v partsView, b spot, g geometry) spot {
	bw := v.badge.size.Width
	bx, by := g.char.X+g.charSize.Width-bw, g.char.Y+2
	if v.bubble.shown {
		if b.pos.Y < by+widgets.TagHeight && b.pos.Y+b.size.Height > by && b.pos.X+b.size.Width > bx {
			bx = min(b.pos.X+b.size.Width-bw+bubbleRadius, g.width-sideMargin-bw)
			by = b.pos.Y - widgets.TagHeight/2
		}
	}
	return tagSpot(v.badge, bx, by, g)
}

// tagSpot is a tag at its size at x (centred when x < 0), y.
func tagSpot(t partView, x, y float32, g geometry) spot {
	if x < 0 {
		x = float32(int((g.width - t.size.Width) / 2))
	}
	return spot{fyne.NewPos(x, y), t.size}
}

// pillMaxWidth is the widest the status pill grows: the row less the eye
// badge and the chip (of width chipW) when they show.
func pillMaxWidth(g geometry, watching, chip bool, chipW float32) float32 {
	var ew float32
	if watching {
		ew = widgets.TagHeight + rowGap
	}
	mw := g.width - 2*sideMargin - ew
	if chip {
		mw -= chipW + rowGap
	}
	return mw
}

// Composer button sizes.
const (
	composerBtn = 32
	composerPad = 4
)

// arrangeComposer places the composer's parts: the attach button at the
// left, then the screen toggle when there is one, the entry, the mic
// button when there is one, and the send button at the right.
func arrangeComposer(g geometry, mic, screen bool) composerSpots {
	const btn, pad = composerBtn, composerPad
	cx, cw := float32(sideMargin), g.width-2*sideMargin
	y := g.composerY + pad
	bs := fyne.NewSize(btn, btn)
	var c composerSpots
	c.bg = spot{fyne.NewPos(cx, g.composerY), fyne.NewSize(cw, composerH)}
	c.attach = spot{fyne.NewPos(cx+pad, y), bs}
	sendX := cx + cw - pad - btn
	c.send = spot{fyne.NewPos(sendX, y), bs}
	c.entry = spot{fyne.NewPos(cx+pad+btn+pad, y), fyne.NewSize(cw-4*pad-2*btn, btn)}
	if mic {
		c.mic = spot{fyne.NewPos(sendX-pad-btn, y), bs}
		c.entry.size = c.entry.size.SubtractWidthHeight(btn+pad, 0)
	}
	if screen {
		c.screen = spot{c.entry.pos, bs}
		c.entry.pos = c.entry.pos.AddXY(btn+pad, 0)
		c.entry.size = c.entry.size.SubtractWidthHeight(btn+pad, 0)
	}
	return c
}

// tagRows is where the name plate and the status pill go, and where the
// bubble's tail ends above them.
type tagRows struct{ plateY, pillY, bubbleTip float32 }

// rowsFor places the plate and pill rows: under the character, or while
// it sits on a window above its head (sitting), under the bubble, so that
// they never cover the text of the window it sits on. tip is where the
// bubble's tail ends above the head.
func rowsFor(g geometry, tip float32, sitting bool) tagRows {
	if !sitting {
		return tagRows{plateY: g.plateY, pillY: g.pillY, bubbleTip: tip}
	}
	r := tagRows{pillY: tip - widgets.TagHeight}
	r.plateY = r.pillY - widgets.TagHeight - rowGap
	r.bubbleTip = r.plateY - rowGap
	return r
}

// bubbleY is where the bubble of height h whose tail ends at tip sits:
// above the head, or, when the window's risen top (f.rise) leaves it no
// room there, under the pill (and under the composer while it is open),
// its tail pointing up (below).
func bubbleY(tip, h float32, f partsFrame, g geometry) (y float32, below bool) {
	y = tip - h
	if y >= f.rise {
		return y, false
	}
	if f.composerOpen {
		return g.composerY + composerH + rowGap, true
	}
	return g.composerY, true
}

// partsLayout is the inner container's layout: it places the window's
// parts with arrange. It runs when render asks (a new view, a new rise)
// and when the container is resized, never per animation frame: a frame
// changes only the character's image (frames.go). Its minimum size is
// the window's, asked of no part: the driver asks for it before every
// repaint, and a container's layout that measured each part, hidden ones
// included, would cost each idle breath (fixedLayout).
type partsLayout struct {
	geo    geometry
	bubble *bubble
	status *statusRow
	comp   *composer
	frame  partsFrame // set by render before it lays out
	// hasPlate: the view drawn has a plate (render).
	hasPlate bool
}

var _ fyne.Layout = (*partsLayout)(nil)

// MinSize is the window's fixed size.
func (l *partsLayout) MinSize([]fyne.CanvasObject) fyne.Size { return l.geo.win }

// Layout places the parts where arrange puts them.
func (l *partsLayout) Layout([]fyne.CanvasObject, fyne.Size) {
	p := arrange(l.measure(), l.geo)
	if l.bubble.Visible() {
		l.bubble.Below = p.bubbleBelow
		put(l.bubble, p.bubble)
	}
	s := l.status
	for _, t := range []struct {
		tag *widgets.Tag
		at  spot
	}{{s.badge, p.badge}, {s.plate, p.plate}, {s.caption, p.caption}, {s.pill, p.pill}, {s.chip, p.chip}, {l.comp.errLine, p.errLine}} {
		if t.tag.Visible() {
			put(t.tag, t.at)
		}
	}
	put(s.eye, p.eye)
	c, cs := l.comp, p.composer
	put(c.bg, cs.bg)
	put(c.attach, cs.attach)
	put(c.send, cs.send)
	put(c.entry, cs.entry)
	if c.mic.button != nil {
		put(c.mic.button, cs.mic)
	}
	if c.screenBtn != nil {
		put(c.screenBtn, cs.screen)
	}
}

// measure is the view arrange places: the parts' visibility and minimum
// sizes as the refresh step left them.
func (l *partsLayout) measure() partsView {
	part := func(o fyne.CanvasObject) partView { return partView{o.MinSize(), o.Visible()} }
	s := l.status
	v := partsView{
		badge: part(s.badge), plate: part(s.plate), caption: part(s.caption),
		pill: part(s.pill), chip: part(s.chip), errLine: part(l.comp.errLine),
		watching: s.watching, hasPlate: l.hasPlate, frame: l.frame,
		mic: l.comp.mic.button != nil, screen: l.comp.screenBtn != nil,
	}
	if l.bubble.Visible() {
		v.bubble = part(l.bubble)
	}
	return v
}

// put moves and sizes o to at.
func put(o fyne.CanvasObject, at spot) {
	o.Move(at.pos)
	o.Resize(at.size)
}

// tags are the window's tags, the composer's error line included.
func (l *partsLayout) tags() []*widgets.Tag {
	s := l.status
	return []*widgets.Tag{s.badge, s.caption, s.plate, s.pill, s.chip, l.comp.errLine}
}
