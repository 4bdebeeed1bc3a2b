package petwindow

import (
	"fmt"
	"image"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"

	"yui/pet"
	"yui/pet/character"
	"yui/transport"
	"yui/windows/widgets"
)

// Pet window geometry, in Fyne units (device-independent pixels). The
// window is fixed in size and holds every part; the shape shows only the
// parts drawn right now.
const (
	bubbleArea   = 150 // height reserved above the character for the bubble (which sits just above the head, bubbleTip)
	minWinWidth  = 360
	sideMargin   = 8
	composerH    = 40
	rowGap       = 4
	errorLines   = 3 // the error line wraps to at most this many lines
	composerRad  = 12
	defaultCharW = 192
	defaultCharH = 256
)

// geometry is where each part of the pet window sits.
type geometry struct {
	win                 fyne.Size
	char                fyne.Position // top-left of the character
	charSize            fyne.Size
	plateY, pillY       float32
	composerY, errorY   float32
	bubbleBottom, width float32
}

// bodyRect is the character's rectangle in window pixels at the shim's
// scale.
func (g geometry) bodyRect(s shimState) image.Rectangle {
	return s.rect(g.char.X, g.char.Y, g.charSize.Width, g.charSize.Height)
}

func newGeometry(pack *character.Pack) geometry {
	cw, ch := defaultCharW, defaultCharH
	if pack != nil && pack.Size[0] > 0 && pack.Size[1] > 0 {
		cw, ch = pack.Size[0], pack.Size[1]
	}
	var g geometry
	g.width = float32(max(minWinWidth, cw+2*sideMargin))
	g.charSize = fyne.NewSize(float32(cw), float32(ch))
	g.bubbleBottom = bubbleArea
	g.char = fyne.NewPos(float32(int((g.width-float32(cw))/2)), bubbleArea)
	g.plateY = bubbleArea + float32(ch) + rowGap
	g.pillY = g.plateY + widgets.TagHeight + rowGap
	g.composerY = g.pillY + widgets.TagHeight + rowGap
	g.errorY = g.composerY + composerH + rowGap
	g.win = fyne.NewSize(g.width, g.errorY+widgets.TagHeight+(errorLines-1)*widgets.TagLineHeight()+2)
	return g
}

// free is a container of the window's fixed size whose objects stay
// where the pet window put them: the window's content, which holds the
// parts' container (partsLayout) where its rise moved it (toproom.go).
// Its minimum size is that size: the driver asks for it before every
// repaint, and a container with no layout would ask each part, hidden
// ones included.
func free(size fyne.Size, objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(fixedLayout{size}, objs...)
}

// fixedLayout leaves its objects where they are and has a fixed minimum size.
type fixedLayout struct{ size fyne.Size }

func (fixedLayout) Layout([]fyne.CanvasObject, fyne.Size) {}

func (l fixedLayout) MinSize([]fyne.CanvasObject) fyne.Size { return l.size }

// render draws v at once: the character's frames, then the parts'
// state (refresh), their places (partsLayout), their redraw and the shape.
func (w *PetWindow) render(v pet.View) {
	w.draw.hasPending = false
	w.draw.pending = pet.View{}
	wasRunning := w.view.Running
	if old := w.view.Pill; old.ConnState != v.Pill.ConnState || old.Tool != v.Pill.Tool || old.Voice != v.Pill.Voice || connWords(old.Conn) != connWords(v.Pill.Conn) || old.Audio != v.Pill.Audio {
		w.log.Info("pet_pill", "name", w.opts.Name, "conn", v.Pill.Conn, "state", v.Pill.ConnState.String(),
			"tool", v.Pill.Tool, "voice", v.Pill.Voice, "audio", v.Pill.Audio)
	}
	w.view = v
	w.play.update()
	w.syncBody()
	w.refresh(v)
	w.comp.refresh(v, wasRunning)
	inner := w.top.inner
	inner.Layout.Layout(inner.Objects, inner.Size()) // partsLayout
	// The parts redraw at their new places.
	if w.bubble.Visible() {
		w.bubble.Refresh()
	}
	for _, t := range w.layout.tags() {
		if t.Visible() {
			t.Refresh()
		}
	}
	if w.deleg.win != nil {
		w.deleg.win.update(v.Delegations)
	}
	w.shape.update()
}

// refresh sets what the bubble and the tags show for v, and which of
// them show, and tells the layout where the rows are.
func (w *PetWindow) refresh(v pet.View) {
	g := w.geo
	// Bubble: the sentence being spoken, else a notice.
	text := v.Bubble
	if text == "" {
		text = w.note.text
	}
	widgets.SetShown(w.bubble, text != "")
	if text != "" {
		w.bubble.Text = text
	}
	s := &w.status
	s.badge.Text = emotionWord(w.opts.Pack, v.EmotionText)
	s.plate.Text = translatePill(v.Plate)
	s.caption.Text = v.Caption
	s.pill.Text = pillText(v.Pill)
	s.pill.Dot = widgets.StateColor(v.Pill.ConnState)
	s.chip.Text = chipText(v.Delegations)
	s.pill.MaxWidth = pillMaxWidth(g, s.watching, s.chip.Text != "", s.chip.MinSize().Width)
	w.comp.errLine.Text = ""
	if w.comp.state.open {
		w.comp.errLine.Text = v.ErrorLine
	}
	for _, t := range w.layout.tags() {
		widgets.SetShown(t, t.Text != "")
	}
	widgets.SetShown(s.eye, s.watching)
	w.layout.hasPlate = v.Plate != ""
	w.layout.frame = partsFrame{
		rows:         rowsFor(g, w.bubbleTip(), w.sitting()),
		rise:         w.top.units(w.shim.scale),
		composerOpen: w.comp.state.open,
	}
}

// pillText is the status pill's text: the connection, then the tool, the
// voice and a missing audio device (said once) when there are.
func pillText(p pet.Pill) string {
	pill := []string{translatePill(p.Conn)}
	if p.Tool != "" {
		pill = append(pill, translatePill(p.Tool))
	}
	if p.Voice != "" {
		pill = append(pill, translatePill(p.Voice))
	}
	if p.Audio != "" { // no audio device, said once
		pill = append(pill, translatePill(p.Audio))
	}
	return strings.Join(slices.DeleteFunc(pill, func(s string) bool { return s == "" }), " · ")
}

// chipText is the delegations chip's text: how many run, else how many
// are done; "" for none.
func chipText(ds []transport.Delegation) string {
	running, done := 0, 0
	for _, d := range ds {
		if d.State == "running" {
			running++
		} else {
			done++
		}
	}
	switch {
	case running > 0:
		return lang.N("{{.Count}} running", running, map[string]any{"Count": running})
	case done > 0:
		return lang.N("{{.Count}} done", done, map[string]any{"Count": done})
	}
	return ""
}

// connWords is the pill's connection text without its countdown's
// digits: a new reason (offline, then a server with no model) is logged,
// a second ticking away is not.
func connWords(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, s)
}

// sitting says whether the character sits on a window: the body tool
// holds the sit posture there, and the window below is the user's.
func (w *PetWindow) sitting() bool {
	return !w.move.moving && w.shownMotion() == "sit"
}

// bubbleGap is the room between the bubble's tail and the character's top.
const bubbleGap = 4

// tipCache is the last bubbleTip, for the pack, body and motion of key.
type tipCache struct {
	key string
	y   float32
}

// bubbleTip is where the bubble's tail ends, in window units: a few units
// above the highest drawn pixel of the character in the poses it speaks
// in (neutral, idle and talk frames) and in the frames showing now (an
// emotion may draw something above its head), so the bubble sits just
// above the head, still while the character talks, and grows upward.
// Without a pack it is the bubble area's bottom.
func (w *PetWindow) bubbleTip() float32 {
	g := w.geo
	body := w.geo.bodyRect(w.shim)
	pack := w.opts.Pack
	if pack == nil || body.Empty() {
		return g.bubbleBottom
	}
	key := fmt.Sprintf("%p|%v|%s", pack, body, w.play.key)
	if key == w.draw.tip.key {
		return w.draw.tip.y
	}
	imgs := append([]image.Image{pack.Emotions["neutral"]}, w.play.frames...)
	for _, id := range []string{"idle", "talk"} {
		imgs = append(imgs, pack.Motions[id].Frames...)
	}
	top := body.Dy()
	for _, img := range imgs {
		if img == nil {
			continue
		}
		for _, r := range w.draw.masks.get(img, body.Dx(), body.Dy()) {
			top = min(top, r.Min.Y)
		}
	}
	w.draw.tip.y = g.bubbleBottom
	if top < body.Dy() {
		w.draw.tip.y = min(g.char.Y+float32(top)/w.shim.scale-bubbleGap, g.char.Y+g.charSize.Height/2)
		w.draw.tip.y = float32(int(w.draw.tip.y))
	}
	w.draw.tip.key = key
	return w.draw.tip.y
}

// emotionWord is the badge text for s: in enum mode the pack's word for
// a tag.
func emotionWord(pack *character.Pack, s string) string {
	if s == "" || pack == nil {
		return s
	}
	if word, ok := pack.EmotionTextMap[s]; ok && pack.EmotionTextMode == "enum" {
		return word
	}
	return s
}
