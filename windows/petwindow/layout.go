package petwindow

import (
	"fmt"
	"image"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet"
	"yui/pet/character"
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

// free is a container of the window's fixed size whose parts the pet
// window places itself. Its minimum size is that size: the driver asks
// for it before every repaint, and a container with no layout would ask
// each part, hidden ones included.
func free(size fyne.Size, objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(fixedLayout{size}, objs...)
}

// fixedLayout leaves its objects where they are and has a fixed minimum size.
type fixedLayout struct{ size fyne.Size }

func (fixedLayout) Layout([]fyne.CanvasObject, fyne.Size) {}

func (l fixedLayout) MinSize([]fyne.CanvasObject) fyne.Size { return l.size }

// render draws v at once.
func (w *PetWindow) render(v pet.View) {
	w.draw.hasPending = false
	w.draw.pending = pet.View{}
	wasRunning := w.view.Running
	if old := w.view.Pill; old.ConnState != v.Pill.ConnState || old.Tool != v.Pill.Tool || old.Voice != v.Pill.Voice || connWords(old.Conn) != connWords(v.Pill.Conn) || old.Audio != v.Pill.Audio {
		w.log.Info("pet_pill", "name", w.opts.Name, "conn", v.Pill.Conn, "state", v.Pill.ConnState.String(),
			"tool", v.Pill.Tool, "voice", v.Pill.Voice, "audio", v.Pill.Audio)
	}
	w.view = v
	g := w.geo
	w.updateFrames()
	w.syncBody()
	rows := w.rows()

	// Bubble: the sentence being spoken, else a notice.
	text := v.Bubble
	if text == "" {
		text = w.note.text
	}
	widgets.SetShown(w.bubble, text != "")
	if text != "" {
		w.bubble.Text = text
		s := w.bubble.MinSize()
		w.bubble.Resize(s)
		y, below := w.bubbleY(rows.bubbleTip, s.Height)
		w.bubble.Below = below
		w.bubble.Move(fyne.NewPos(float32(int((g.width-s.Width)/2)), y))
		w.bubble.Refresh()
	}

	// The badge sits at the character's top-right corner, or on the
	// bubble's top-right corner while the bubble covers that corner.
	w.status.badge.Text = w.emotionText(v.EmotionText)
	bw := w.status.badge.MinSize().Width
	bx, by := g.char.X+g.charSize.Width-bw, g.char.Y+2
	if w.bubble.Visible() {
		p, s := w.bubble.Position(), w.bubble.Size()
		if p.Y < by+widgets.TagHeight && p.Y+s.Height > by && p.X+s.Width > bx {
			bx = min(p.X+s.Width-bw+bubbleRadius, g.width-sideMargin-bw)
			by = p.Y - widgets.TagHeight/2
		}
	}
	w.placeTag(w.status.badge, bx, by)
	// The caption sits on the plate's row while the plate is empty, else
	// over the character's feet.
	w.status.plate.Text = translatePill(v.Plate)
	w.placeTag(w.status.plate, -1, rows.plateY)
	w.status.caption.Text = v.Caption
	captionY := rows.plateY
	if v.Plate != "" {
		captionY = g.char.Y + g.charSize.Height - w.status.caption.MinSize().Height - 4
	}
	w.placeTag(w.status.caption, -1, captionY)

	pill := []string{translatePill(v.Pill.Conn)}
	if v.Pill.Tool != "" {
		pill = append(pill, translatePill(v.Pill.Tool))
	}
	if v.Pill.Voice != "" {
		pill = append(pill, translatePill(v.Pill.Voice))
	}
	if v.Pill.Audio != "" { // no audio device, said once
		pill = append(pill, translatePill(v.Pill.Audio))
	}
	w.status.pill.Text = strings.Join(slices.DeleteFunc(pill, func(s string) bool { return s == "" }), " · ")
	w.status.pill.Dot = widgets.StateColor(v.Pill.ConnState)
	running, done := 0, 0
	for _, d := range v.Delegations {
		if d.State == "running" {
			running++
		} else {
			done++
		}
	}
	switch {
	case running > 0:
		w.status.chip.Text = lang.N("{{.Count}} running", running, map[string]any{"Count": running})
	case done > 0:
		w.status.chip.Text = lang.N("{{.Count}} done", done, map[string]any{"Count": done})
	default:
		w.status.chip.Text = ""
	}
	// The eye badge, the pill and the chip share a row, centred together.
	var ew float32
	if w.status.watching {
		ew = widgets.TagHeight + rowGap
	}
	w.status.pill.MaxWidth = g.width - 2*sideMargin - ew
	if w.status.chip.Text != "" {
		w.status.pill.MaxWidth -= w.status.chip.MinSize().Width + rowGap
	}
	pw, cw := w.status.pill.MinSize().Width, w.status.chip.MinSize().Width
	row := ew + pw
	if w.status.chip.Text != "" {
		row += rowGap + cw
	}
	x := float32(int((g.width - row) / 2))
	widgets.SetShown(w.status.eye, w.status.watching)
	w.status.eye.Move(fyne.NewPos(x, rows.pillY))
	w.status.eye.Resize(fyne.NewSize(widgets.TagHeight, widgets.TagHeight))
	x += ew
	w.placeTag(w.status.pill, x, rows.pillY)
	w.placeTag(w.status.chip, x+pw+rowGap, rows.pillY)
	if w.delegWin != nil {
		w.delegWin.update(v.Delegations)
	}

	// Composer.
	for _, o := range []fyne.CanvasObject{w.comp.bg, w.comp.attach, w.comp.entry, w.comp.send} {
		widgets.SetShown(o, w.comp.state.open)
	}
	w.showMic() // voice: push-to-talk button (mic.go)
	w.showScreenToggle()
	if v.Running {
		w.comp.send.Set(theme.MediaStopIcon(), widget.DangerImportance)
		w.comp.entry.Disable()
	} else {
		w.comp.send.Set(theme.MailSendIcon(), widget.HighImportance)
		w.comp.entry.Enable()
		if wasRunning && w.comp.state.open {
			// The entry lost the focus when it was locked: give it back
			// so the next line can be typed at once.
			w.win.Canvas().Focus(w.comp.entry)
		}
		if wasRunning {
			w.log.Debug("pet_composer_unlocked", "name", w.opts.Name)
		}
	}
	w.comp.errLine.Text = ""
	if w.comp.state.open {
		w.comp.errLine.Text = v.ErrorLine
	}
	w.placeTag(w.comp.errLine, sideMargin+composerRad, g.errorY)
	w.updateShape()
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

// tagRows is where the name plate and the status pill go, and where the
// bubble's tail ends above them.
type tagRows struct{ plateY, pillY, bubbleTip float32 }

// rows places the plate and pill rows: under the character, or while it
// sits on a window above its head, under the bubble, so that they never
// cover the text of the window it sits on.
func (w *PetWindow) rows() tagRows {
	g := w.geo
	tip := w.bubbleTip()
	if !w.sitting() {
		return tagRows{plateY: g.plateY, pillY: g.pillY, bubbleTip: tip}
	}
	r := tagRows{pillY: tip - widgets.TagHeight}
	r.plateY = r.pillY - widgets.TagHeight - rowGap
	r.bubbleTip = r.plateY - rowGap
	return r
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
	body := w.bodyRect()
	pack := w.opts.Pack
	if pack == nil || body.Empty() {
		return g.bubbleBottom
	}
	key := fmt.Sprintf("%p|%v|%s", pack, body, w.draw.animKey)
	if key == w.draw.tip.key {
		return w.draw.tip.y
	}
	imgs := append([]image.Image{pack.Emotions["neutral"]}, w.draw.frames...)
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

// emotionText is the badge text: in enum mode the map's word for a tag.
func (w *PetWindow) emotionText(s string) string {
	if s == "" || w.opts.Pack == nil {
		return s
	}
	if word, ok := w.opts.Pack.EmotionTextMap[s]; ok && w.opts.Pack.EmotionTextMode == "enum" {
		return word
	}
	return s
}

// placeTag sizes t to its text and puts it at x (centred when x < 0), y;
// an empty tag is hidden.
func (w *PetWindow) placeTag(t *widgets.Tag, x, y float32) {
	widgets.SetShown(t, t.Text != "")
	if t.Text == "" {
		return
	}
	s := t.MinSize()
	if x < 0 {
		x = float32(int((w.geo.width - s.Width) / 2))
	}
	t.Move(fyne.NewPos(x, y))
	t.Resize(s)
	t.Refresh()
}
