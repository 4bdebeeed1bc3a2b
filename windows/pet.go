// Package windows is Yui's Fyne UI: the shaped pet window, the delegation
// list, the placeholder message and settings windows, and the per-platform
// native window shims (shape_*.go) behind one small interface.
//
// The pet window draws a pet.View snapshot; it knows nothing of transports.
// User actions go back through PetActions.
//
// # Driving it from tests (X11, e.g. Xvfb with xdotool)
//
// The pet window is a top-level X window named after its preset ("Yui" by
// default: xdotool search --name '^Yui$'), fixed in size; the
// pet_window_shown log record gives its position and size in pixels. With
// no saved position it stands in the bottom-right corner of the primary
// monitor, 24 px from the edges (on a 1280x800 screen at scale 1: window
// 360x563 at 896,213; the character's image is the 192x256 rectangle at
// 84,150 inside it, so its body is around window 180,307, screen 1076,520).
// The speech bubble's tail ends a few pixels above the character's head
// (about window y 207 for the default character) and the bubble grows
// upward from there into the 150 px above the character.
//
//   - Double click on the character, the right-click menu's Talk, or the
//     global shortcut Ctrl+Alt+Y (main pet only) opens the composer and
//     focuses its entry: xdotool type 'hello'; xdotool key Return sends.
//     Escape closes it; it also closes after 60 s idle and empty.
//   - A single click pokes (when the preset allows it), a drag moves the
//     window; right click opens the menu (Talk, Messages, Settings, Hide,
//     Quit).
//   - The window is shaped (bounding and input): pixels the pet does not
//     draw show, and pass clicks to, whatever is below.
//
// Log records: pet_window_shown, pet_window_moved, pet_window_relayout,
// pet_pill (conn, state, tool, voice: on a state, tool or voice change;
// not on each tick of a reconnect countdown), pet_composer_open,
// pet_composer_send, pet_composer_stop, pet_poke, pet_shortcut,
// window_open (delegations), and pet_window_native / pet_window_shape
// warnings when the platform cannot shape.
package windows

import (
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet"
	"yui/pet/character"
	"yui/transport"
)

// PetActions are what the user can do to a pet (pet.Controller implements them).
type PetActions interface {
	SendText(text string, attachments []transport.Image)
	Poke()
	Stop()
}

// PetOptions configures a pet window.
type PetOptions struct {
	// Name is the preset's name (the window title, used by the task list
	// of window managers that show one anyway).
	Name string
	// Pack is the character to draw.
	Pack *character.Pack
	// Actions receive the composer's sends, stops and pokes.
	Actions PetActions
	// Poke makes a click on the pet start a poke turn.
	Poke bool
	// Positions keeps the window position; nil keeps it for this run only.
	Positions PositionStore
	// OnMessages, OnSettings and OnQuit are the right-click menu's items.
	OnMessages, OnSettings, OnQuit func()
	// OnReconnect, when set, adds a Reconnect item to the menu while the
	// connection is not ready: the user's way out of a rejected key or a
	// long backoff.
	OnReconnect func()
	// Index is the pet's place among the running pets: pets with no saved
	// position stand side by side, the first one in the home corner.
	Index int
	// Shortcut asks for the global shortcut Ctrl+Alt+Y, which opens this
	// pet's composer (the app gives it to main).
	Shortcut bool
	// Logger receives pet_window_* records; nil discards.
	Logger *slog.Logger
}

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
	g.pillY = g.plateY + tagHeight + rowGap
	g.composerY = g.pillY + tagHeight + rowGap
	g.errorY = g.composerY + composerH + rowGap
	g.win = fyne.NewSize(g.width, g.errorY+tagHeight+(errorLines-1)*tagLineHeight()+2)
	return g
}

// PetWindow is the borderless, always-on-top, shaped window of one pet.
// Its methods must be called from the Fyne main goroutine, except SetView,
// SetNotice and Close, which may be called from any goroutine.
type PetWindow struct {
	app    fyne.App
	opts   PetOptions
	log    *slog.Logger
	win    fyne.Window
	geo    geometry
	native nativeWindow
	masks  maskCache
	anim   *animator

	// Fields below are owned by the Fyne main goroutine.
	attached     bool // the native shim is bound to the window
	shaped       bool // shaping works
	scale        float32
	layout       string // monitor layout key
	pos          image.Point
	placed       bool
	dragFrom     image.Point // pointer at drag start
	dragWin      image.Point // window position at drag start
	dragging     bool
	view         pet.View
	notice       string
	noticeTimer  *time.Timer
	idleTimer    *time.Timer // closes an idle composer
	composerOpen bool
	menuRect     image.Rectangle   // the open popup menu, window units
	lastShape    []image.Rectangle // bounding shape sent last
	lastParts    []image.Rectangle // parts besides the character in the input shape sent last
	lastInputKey string            // motion and body of the input shape sent last
	tip          float32           // bubbleTip, for tipKey
	tipKey       string
	animKey      string
	frames       []image.Image
	frame        int
	loop         bool
	delegWin     *delegationWindow
	closed       atomic.Bool

	char     *body
	backdrop *canvas.Rectangle
	bubble   *bubble
	badge    *tag
	caption  *tag
	plate    *tag
	pill     *tag
	chip     *tag
	compBG   *canvas.Rectangle
	entry    *composerEntry
	attach   *iconButton
	send     *iconButton
	mic      micState // push-to-talk button and shortcut (mic.go)
	errLine  *tag

	// pending is a view whose only change is the status pill's text (a
	// reconnect countdown), held while frames play so that it is drawn
	// with the next frame instead of costing a repaint of its own.
	pending    pet.View
	hasPending bool

	closeOnce sync.Once
}

// NewPetWindow creates the pet window of one preset; Show shows it.
func NewPetWindow(a fyne.App, opts PetOptions) (*PetWindow, error) {
	drv, ok := a.Driver().(desktop.Driver)
	if !ok {
		return nil, fmt.Errorf("pet window: the Fyne driver has no borderless windows")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w := &PetWindow{
		app:    a,
		opts:   opts,
		log:    log,
		win:    drv.CreateSplashWindow(),
		geo:    newGeometry(opts.Pack),
		native: newNative(log),
		scale:  1,
	}
	w.anim = newAnimator(w.prepareFrame, w.showFrame)
	w.win.SetTitle(opts.Name)
	w.build()
	w.win.Resize(w.geo.win)
	w.win.SetFixedSize(true)
	w.win.SetCloseIntercept(func() { w.win.Hide() })
	w.applyView(pet.View{})
	return w, nil
}

// Window returns the Fyne window.
func (w *PetWindow) Window() fyne.Window { return w.win }

func (w *PetWindow) build() {
	g := w.geo
	w.backdrop = canvas.NewRectangle(colBackdrop)
	w.char = newBody()
	w.char.onTap = w.poke
	w.char.onDoubleTap = w.OpenComposer
	w.char.onSecondary = w.showMenu
	w.char.onPress = w.pressed
	w.char.onDrag = w.dragged
	w.char.onDragEnd = w.dragEnd

	w.bubble = newBubble(g.width - 2*sideMargin)
	w.bubble.OnTapped = func() {
		if w.notice != "" && w.view.Bubble == "" {
			w.setNotice("")
		}
	}
	w.badge = newTag(colInk, colBadge)
	w.caption = newTag(colPillText, colPill)
	w.caption.Italic = true
	w.plate = newTag(colInk, colBubble)
	w.plate.Italic = true
	w.pill = newTag(colPillText, colPill)
	w.chip = newTag(colInk, colChip)
	w.chip.OnTapped = w.showDelegations
	w.errLine = newTag(colError, colBubble)
	w.errLine.MaxLines = errorLines
	w.errLine.MaxWidth = g.width - 2*sideMargin - composerRad
	for _, t := range []*tag{w.badge, w.caption, w.plate, w.pill, w.chip} {
		t.MaxWidth = g.width - 2*sideMargin
		t.MaxLines = 1
	}

	w.compBG = canvas.NewRectangle(colBubble)
	w.compBG.CornerRadius = composerRad
	w.compBG.StrokeColor = colBubbleStroke
	w.compBG.StrokeWidth = 1
	w.entry = newComposerEntry()
	w.entry.OnSubmitted = func(string) { w.sendOrStop() }
	w.entry.OnChanged = func(string) { w.armComposerIdle() }
	w.entry.onEscape = w.CloseComposer
	w.send = newIconButton(theme.MailSendIcon(), widget.HighImportance, w.sendOrStop)
	w.attach = newIconButton(theme.FileImageIcon(), widget.LowImportance, func() {
		w.setNotice("Attaching images comes in a later version.")
	})

	w.backdrop.Move(g.char)
	w.backdrop.Resize(g.charSize)
	w.char.Move(g.char)
	w.char.Resize(g.charSize)
	cx, cw := float32(sideMargin), g.width-2*sideMargin
	w.compBG.Move(fyne.NewPos(cx, g.composerY))
	w.compBG.Resize(fyne.NewSize(cw, composerH))
	btn := float32(32)
	pad := float32(4)
	w.attach.Move(fyne.NewPos(cx+pad, g.composerY+pad))
	w.attach.Resize(fyne.NewSize(btn, btn))
	w.send.Move(fyne.NewPos(cx+cw-pad-btn, g.composerY+pad))
	w.send.Resize(fyne.NewSize(btn, btn))
	w.entry.Move(fyne.NewPos(cx+pad+btn+pad, g.composerY+pad))
	w.entry.Resize(fyne.NewSize(cw-4*pad-2*btn, btn))

	w.win.SetContent(free(g.win,
		w.backdrop, w.char, w.bubble, w.badge, w.caption, w.plate, w.pill, w.chip,
		w.compBG, w.attach, w.entry, w.send, w.errLine,
	))
	w.addMic(cx+cw-pad-btn, g.composerY+pad, btn, pad) // voice: push-to-talk button (mic.go)
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

// Show shows the window, binds the native shim on the first show, and puts
// the window at its saved position (or home).
func (w *PetWindow) Show() {
	w.win.Show()
	w.attachNative(20)
	if w.placed {
		w.moveTo(w.pos)
	}
}

// Hide hides the window.
func (w *PetWindow) Hide() { w.win.Hide() }

// attachNative binds the native shim once the driver has created the
// window, retrying a few times while the handle is not there yet.
func (w *PetWindow) attachNative(tries int) {
	if w.attached || w.closed.Load() {
		return
	}
	nw, ok := w.win.(driver.NativeWindow)
	if !ok {
		return
	}
	var ctx any
	nw.RunNative(func(c any) { ctx = c })
	if x, ok := ctx.(driver.X11WindowContext); ok && x.WindowHandle == 0 && tries > 0 {
		time.AfterFunc(50*time.Millisecond, func() { fyne.Do(func() { w.attachNative(tries - 1) }) })
		return
	}
	w.attached = true
	w.scale = w.win.Canvas().Scale()
	err := w.native.attach(ctx)
	w.shaped = err == nil
	if err != nil {
		w.log.Warn("pet_window_native", "name", w.opts.Name, "err", err.Error())
	}
	w.place()
	if err := w.native.watchMonitors(func() { fyne.Do(w.monitorsChanged) }); err != nil {
		w.log.Debug("pet_window_monitors", "name", w.opts.Name, "err", err.Error())
	}
	if w.opts.Shortcut && w.shaped {
		err := w.native.grabShortcut(func() { fyne.Do(w.shortcut) })
		if err != nil {
			w.log.Warn("pet_shortcut", "name", w.opts.Name, "err", err.Error())
		} else {
			w.log.Info("pet_shortcut", "name", w.opts.Name, "keys", "ctrl+alt+y")
			w.native.onShortcutRelease(func() { fyne.Do(w.shortcutReleased) }) // voice: push-to-talk (mic.go)
		}
	}
	w.lastShape = nil
	w.updateShape()
}

// place moves the window to its saved position for the current monitor
// layout, kept on screen, or home.
func (w *PetWindow) place() {
	mons, err := w.native.monitors()
	if err != nil || len(mons) == 0 {
		return
	}
	w.layout = layoutKey(mons)
	size := w.px(w.geo.win.Width, w.geo.win.Height)
	p := homePosition(mons, size)
	p.X -= w.opts.Index * (w.bodyRect().Dx() + homeMargin)
	p = placeOnScreen(p, w.bodyRect(), size, mons)
	if w.opts.Positions != nil {
		if x, y, ok := w.opts.Positions.LoadPosition(w.layout); ok {
			p = placeOnScreen(image.Pt(x, y), w.bodyRect(), size, mons)
		}
	}
	w.moveTo(p)
	w.placed = true
	w.log.Info("pet_window_shown", "name", w.opts.Name, "x", p.X, "y", p.Y,
		"width", size.X, "height", size.Y, "layout", w.layout, "shaped", w.shaped)
}

// monitorsChanged re-places the window when the monitor layout changed:
// the position saved for the new layout, or the current one kept on
// screen (a removed monitor brings the pet home).
func (w *PetWindow) monitorsChanged() {
	if w.closed.Load() || w.dragging {
		return
	}
	mons, err := w.native.monitors()
	if err != nil || len(mons) == 0 || layoutKey(mons) == w.layout {
		return
	}
	w.layout = layoutKey(mons)
	size := w.px(w.geo.win.Width, w.geo.win.Height)
	p := placeOnScreen(w.pos, w.bodyRect(), size, mons)
	if w.opts.Positions != nil {
		if x, y, ok := w.opts.Positions.LoadPosition(w.layout); ok {
			p = placeOnScreen(image.Pt(x, y), w.bodyRect(), size, mons)
		}
	}
	w.moveTo(p)
	w.log.Info("pet_window_relayout", "name", w.opts.Name, "x", p.X, "y", p.Y, "layout", w.layout)
}

// bodyRect is the character's rectangle in window pixels.
func (w *PetWindow) bodyRect() image.Rectangle {
	g := w.geo
	return w.rect(g.char.X, g.char.Y, g.charSize.Width, g.charSize.Height)
}

func (w *PetWindow) moveTo(p image.Point) {
	if err := w.native.move(p.X, p.Y); err == nil {
		w.pos = p
	}
}

// px converts a Fyne size to window pixels.
func (w *PetWindow) px(x, y float32) image.Point {
	return image.Pt(int(x*w.scale+0.5), int(y*w.scale+0.5))
}

// rect converts a Fyne rectangle to window pixels.
func (w *PetWindow) rect(x, y, wd, ht float32) image.Rectangle {
	return image.Rectangle{Min: w.px(x, y), Max: w.px(x+wd, y+ht)}
}

// SetView draws v. It may be called from any goroutine.
func (w *PetWindow) SetView(v pet.View) {
	fyne.Do(func() { w.applyView(v) })
}

// SetNotice shows a message from the app (a settings file kept aside, a
// backend that cannot be reached) in the bubble while the pet is not
// speaking, for 20 seconds or until it is clicked. It may be called from
// any goroutine.
func (w *PetWindow) SetNotice(text string) {
	fyne.Do(func() { w.setNotice(text) })
}

func (w *PetWindow) setNotice(text string) {
	if w.closed.Load() {
		return
	}
	w.notice = text
	if w.noticeTimer != nil {
		w.noticeTimer.Stop()
		w.noticeTimer = nil
	}
	if text != "" {
		w.noticeTimer = time.AfterFunc(20*time.Second, func() {
			fyne.Do(func() {
				if w.notice == text {
					w.setNotice("")
				}
			})
		})
	}
	w.applyView(w.view)
}

func (w *PetWindow) applyView(v pet.View) {
	if w.closed.Load() {
		return
	}
	if w.anim.running() && pillTextOnly(w.view, v) {
		w.pending, w.hasPending = v, true
		return
	}
	w.render(v)
}

// render draws v at once.
func (w *PetWindow) render(v pet.View) {
	w.hasPending = false
	w.pending = pet.View{}
	wasRunning := w.view.Running
	if old := w.view.Pill; old.ConnState != v.Pill.ConnState || old.Tool != v.Pill.Tool || old.Voice != v.Pill.Voice || (old.Conn == "") != (v.Pill.Conn == "") {
		w.log.Info("pet_pill", "name", w.opts.Name, "conn", v.Pill.Conn, "state", v.Pill.ConnState.String(),
			"tool", v.Pill.Tool, "voice", v.Pill.Voice)
	}
	w.view = v
	g := w.geo
	w.updateFrames()

	// Bubble: the sentence being spoken, else a notice.
	text := v.Bubble
	if text == "" {
		text = w.notice
	}
	setShown(w.bubble, text != "")
	if text != "" {
		w.bubble.Text = text
		s := w.bubble.MinSize()
		w.bubble.Resize(s)
		w.bubble.Move(fyne.NewPos(float32(int((g.width-s.Width)/2)), w.bubbleTip()-s.Height))
		w.bubble.Refresh()
	}

	// The badge sits at the character's top-right corner, or on the
	// bubble's top-right corner while the bubble covers that corner.
	w.badge.Text = w.emotionText(v.EmotionText)
	bw := w.badge.MinSize().Width
	bx, by := g.char.X+g.charSize.Width-bw, g.char.Y+2
	if w.bubble.Visible() {
		p, s := w.bubble.Position(), w.bubble.Size()
		if p.Y < by+tagHeight && p.Y+s.Height > by && p.X+s.Width > bx {
			bx = min(p.X+s.Width-bw+bubbleRadius, g.width-sideMargin-bw)
			by = p.Y - tagHeight/2
		}
	}
	w.placeTag(w.badge, bx, by)
	// The caption sits on the plate's row while the plate is empty, else
	// over the character's feet.
	w.plate.Text = v.Plate
	w.placeTag(w.plate, -1, g.plateY)
	w.caption.Text = v.Caption
	captionY := g.plateY
	if v.Plate != "" {
		captionY = g.char.Y + g.charSize.Height - w.caption.MinSize().Height - 4
	}
	w.placeTag(w.caption, -1, captionY)

	pill := []string{v.Pill.Conn}
	if v.Pill.Tool != "" {
		pill = append(pill, v.Pill.Tool)
	}
	if v.Pill.Voice != "" {
		pill = append(pill, v.Pill.Voice)
	}
	w.pill.Text = strings.Join(slices.DeleteFunc(pill, func(s string) bool { return s == "" }), " · ")
	w.pill.Dot = stateColor(v.Pill.ConnState)
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
		w.chip.Text = fmt.Sprintf("%d running", running)
	case done > 0:
		w.chip.Text = fmt.Sprintf("%d done", done)
	default:
		w.chip.Text = ""
	}
	// The pill and the chip share a row, centred together.
	w.pill.MaxWidth = g.width - 2*sideMargin
	if w.chip.Text != "" {
		w.pill.MaxWidth -= w.chip.MinSize().Width + rowGap
	}
	pw, cw := w.pill.MinSize().Width, w.chip.MinSize().Width
	row := pw
	if w.chip.Text != "" {
		row += rowGap + cw
	}
	x := float32(int((g.width - row) / 2))
	w.placeTag(w.pill, x, g.pillY)
	w.placeTag(w.chip, x+pw+rowGap, g.pillY)
	if w.delegWin != nil {
		w.delegWin.update(v.Delegations)
	}

	// Composer.
	for _, o := range []fyne.CanvasObject{w.compBG, w.attach, w.entry, w.send} {
		setShown(o, w.composerOpen)
	}
	w.showMic() // voice: push-to-talk button (mic.go)
	if v.Running {
		w.send.Set(theme.MediaStopIcon(), widget.DangerImportance)
		w.entry.Disable()
	} else {
		w.send.Set(theme.MailSendIcon(), widget.HighImportance)
		w.entry.Enable()
		if wasRunning && w.composerOpen {
			// The entry lost the focus when it was locked: give it back
			// so the next line can be typed at once.
			w.win.Canvas().Focus(w.entry)
		}
	}
	w.errLine.Text = ""
	if w.composerOpen {
		w.errLine.Text = v.ErrorLine
	}
	w.placeTag(w.errLine, sideMargin+composerRad, g.errorY)
	w.updateShape()
}

// bubbleGap is the room between the bubble's tail and the character's top.
const bubbleGap = 4

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
	key := fmt.Sprintf("%p|%v|%s", pack, body, w.animKey)
	if key == w.tipKey {
		return w.tip
	}
	imgs := append([]image.Image{pack.Emotions["neutral"]}, w.frames...)
	for _, id := range []string{"idle", "talk"} {
		imgs = append(imgs, pack.Motions[id].Frames...)
	}
	top := body.Dy()
	for _, img := range imgs {
		if img == nil {
			continue
		}
		for _, r := range w.masks.get(img, body.Dx(), body.Dy()) {
			top = min(top, r.Min.Y)
		}
	}
	w.tip = g.bubbleBottom
	if top < body.Dy() {
		w.tip = min(g.char.Y+float32(top)/w.scale-bubbleGap, g.char.Y+g.charSize.Height/2)
		w.tip = float32(int(w.tip))
	}
	w.tipKey = key
	return w.tip
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
func (w *PetWindow) placeTag(t *tag, x, y float32) {
	setShown(t, t.Text != "")
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

func setShown(o fyne.CanvasObject, shown bool) {
	if shown && !o.Visible() {
		o.Show()
	} else if !shown && o.Visible() {
		o.Hide()
	}
}

// stateColor is the status pill's dot colour for a connection state.
func stateColor(s transport.ConnState) color.Color {
	switch s {
	case transport.StateReady:
		return colReady
	case transport.StateIdle, transport.StateConnecting, transport.StateReconnecting:
		return colWaiting
	}
	return colFailed
}

// updateShape sets the window shape to the parts drawn now: the
// character's opaque pixels and the rounded rectangles of the visible
// parts. It sends nothing when the shape did not change.
func (w *PetWindow) updateShape() { w.setShape(w.char.frame) }

// setShape sets the window shape with frame as the character's image.
// The input shape covers every frame of the motion playing, so it changes
// only with the motion or the other parts (the X server keeps input
// within the drawn shape).
func (w *PetWindow) setShape(frame image.Image) {
	if !w.attached || !w.shaped {
		return
	}
	body := w.bodyRect()
	parts := w.partRects()
	rs := slices.Clone(parts)
	if frame != nil {
		for _, r := range w.masks.get(frame, body.Dx(), body.Dy()) {
			rs = append(rs, r.Add(body.Min))
		}
	}
	inputKey := fmt.Sprintf("%s|%v", w.animKey, body)
	var input []image.Rectangle
	if w.lastShape == nil || inputKey != w.lastInputKey || !slices.Equal(parts, w.lastParts) {
		input = slices.Clone(parts)
		seen := make(map[image.Image]bool)
		for _, f := range append(slices.Clone(w.frames), frame) {
			if f == nil || seen[f] {
				continue
			}
			seen[f] = true
			for _, r := range w.masks.get(f, body.Dx(), body.Dy()) {
				input = append(input, r.Add(body.Min))
			}
		}
		w.lastInputKey, w.lastParts = inputKey, parts
	} else if slices.Equal(rs, w.lastShape) {
		return
	}
	w.lastShape = rs
	if err := w.native.setShape(rs, input); err != nil {
		w.log.Warn("pet_window_shape", "name", w.opts.Name, "err", err.Error())
		return
	}
}

// partRects are the window-pixel rectangles of the parts showing besides
// the character.
func (w *PetWindow) partRects() []image.Rectangle {
	var rs []image.Rectangle
	if w.bubble.Visible() {
		p, s := w.bubble.Position(), w.bubble.Size()
		bs := bubbleBody(s)
		rs = append(rs, roundedRects(w.rect(p.X, p.Y, bs.Width, bs.Height), int(bubbleRadius*w.scale))...)
		rs = append(rs, triangleRects(w.rect(p.X+(s.Width-tailW)/2, p.Y+bs.Height-1, tailW, tailH+1))...)
	}
	for _, t := range []*tag{w.badge, w.caption, w.plate, w.pill, w.chip, w.errLine} {
		if t.Visible() {
			p, s := t.Position(), t.Size()
			rs = append(rs, roundedRects(w.rect(p.X, p.Y, s.Width, s.Height), int(tagHeight/2*w.scale))...)
		}
	}
	if w.composerOpen {
		p, s := w.compBG.Position(), w.compBG.Size()
		rs = append(rs, roundedRects(w.rect(p.X, p.Y, s.Width, s.Height), int(composerRad*w.scale))...)
	}
	if !w.menuRect.Empty() {
		rs = append(rs, w.menuRect)
	}
	return rs
}

// updateFrames picks the frames to show for the view's motion and emotion.
// A motion other than idle plays its frames; idle plays its frames while
// the emotion is neutral; any other emotion shows its still image. Talking
// with a feeling shows the feeling: the talk frames have a neutral face,
// and the emotion a cue set is what the reply means to show.
func (w *PetWindow) updateFrames() {
	pack := w.opts.Pack
	if pack == nil {
		return
	}
	v := w.view
	key := v.Motion + "|" + v.Emotion
	if key == w.animKey && len(w.frames) > 0 {
		return
	}
	w.animKey = key
	var frames []image.Image
	fps, loop := 0.0, false
	emotion := v.Emotion
	if emotion == "" {
		emotion = "neutral"
	}
	m, hasMotion := pack.Motions[v.Motion]
	idle, hasIdle := pack.Motions["idle"]
	switch {
	case hasMotion && v.Motion != "idle" && len(m.Frames) > 0 &&
		!(v.Motion == "talk" && emotion != "neutral" && pack.Emotions[emotion] != nil):
		frames, fps, loop = m.Frames, m.FPS, m.Loop
	case emotion == "neutral" && hasIdle && len(idle.Frames) > 0:
		frames, fps, loop = idle.Frames, idle.FPS, idle.Loop
	case pack.Emotions[emotion] != nil:
		frames = []image.Image{pack.Emotions[emotion]}
	case pack.Emotions["neutral"] != nil:
		frames = []image.Image{pack.Emotions["neutral"]}
	case hasIdle && len(idle.Frames) > 0:
		frames, fps, loop = idle.Frames, idle.FPS, idle.Loop
	}
	w.frames, w.frame, w.loop = frames, 0, loop
	// Keep the idle motion's frames ready: the pet comes back to it after
	// every other motion.
	w.char.keep(frames, idle.Frames)
	if len(frames) > 0 {
		w.char.show(frames[0])
	}
	w.showBackdrop()
	w.anim.play(len(frames), fps, loop)
}

// showBackdrop draws the backdrop under the character only when the frame
// is not composited over it already.
func (w *PetWindow) showBackdrop() {
	setShown(w.backdrop, w.char.current != nil && !w.char.opaque)
}

// pillTextOnly reports whether next differs from cur only in the status
// pill's text, its state, tool and voice unchanged: a reconnect countdown
// ticking.
func pillTextOnly(cur, next pet.View) bool {
	if cur.Pill.Conn == next.Pill.Conn || cur.Pill.ConnState != next.Pill.ConnState {
		return false
	}
	cur.Pill.Conn = next.Pill.Conn
	return cur.Emotion == next.Emotion && cur.Motion == next.Motion && cur.Bubble == next.Bubble &&
		cur.EmotionText == next.EmotionText && cur.Caption == next.Caption && cur.Plate == next.Plate &&
		cur.Pill == next.Pill && cur.Running == next.Running && cur.ErrorLine == next.ErrorLine &&
		slices.Equal(cur.Delegations, next.Delegations)
}

// showFrame shows frame i of the motion playing (the animator's tick),
// with a status pill change held for it; it redraws only when the frame
// image changes.
func (w *PetWindow) showFrame(i int) {
	if w.closed.Load() || i >= len(w.frames) {
		return
	}
	w.frame = i
	if w.char.show(w.frames[i]) {
		w.showBackdrop()
	}
	if w.hasPending {
		w.render(w.pending)
	} else {
		w.updateShape()
	}
}

// prepareFrame sets the shape of frame i of the motion playing, a tick
// before showFrame shows it (animator).
func (w *PetWindow) prepareFrame(i int) {
	if w.closed.Load() || i >= len(w.frames) {
		return
	}
	w.setShape(w.frames[i])
}

func (w *PetWindow) poke() {
	if w.opts.Poke && w.opts.Actions != nil {
		w.log.Info("pet_poke", "name", w.opts.Name)
		w.opts.Actions.Poke()
	}
}

// shortcut is the global shortcut: it shows a hidden pet and opens its composer.
func (w *PetWindow) shortcut() {
	if w.closed.Load() || w.shortcutTalk() { // voice: push-to-talk held (mic.go)
		return
	}
	w.Show()
	w.OpenComposer()
}

// OpenComposer shows the composer and focuses its entry (double click on
// the pet, the menu's Talk, or the shortcut).
func (w *PetWindow) OpenComposer() {
	if w.closed.Load() {
		return
	}
	w.composerOpen = true
	w.applyView(w.view)
	w.native.focus()
	w.win.RequestFocus()
	w.win.Canvas().Focus(w.entry)
	w.armComposerIdle()
	w.log.Info("pet_composer_open", "name", w.opts.Name)
}

// composerIdle is how long an empty composer stays open with no turn
// running. Closing it also stops the entry's cursor animation, which
// would otherwise redraw the window continuously.
const composerIdle = 60 * time.Second

// armComposerIdle (re)starts the composer's idle timer.
func (w *PetWindow) armComposerIdle() {
	if w.idleTimer != nil {
		w.idleTimer.Stop()
	}
	w.idleTimer = time.AfterFunc(composerIdle, func() {
		fyne.Do(func() {
			if w.closed.Load() || !w.composerOpen {
				return
			}
			if w.view.Running || strings.TrimSpace(w.entry.Text) != "" {
				w.armComposerIdle()
				return
			}
			w.CloseComposer()
		})
	})
}

// CloseComposer hides the composer (Escape in its entry).
func (w *PetWindow) CloseComposer() {
	if w.idleTimer != nil {
		w.idleTimer.Stop()
		w.idleTimer = nil
	}
	w.composerOpen = false
	w.win.Canvas().Unfocus()
	w.applyView(w.view)
}

// sendOrStop is the composer's button and the entry's Enter: it sends the
// text, or stops the running turn.
func (w *PetWindow) sendOrStop() {
	if w.opts.Actions == nil {
		return
	}
	if w.view.Running {
		w.opts.Actions.Stop()
		w.log.Info("pet_composer_stop", "name", w.opts.Name)
		return
	}
	text := strings.TrimSpace(w.entry.Text)
	if text == "" {
		return
	}
	w.entry.SetText("")
	w.armComposerIdle()
	w.opts.Actions.SendText(text, nil)
	w.log.Info("pet_composer_send", "name", w.opts.Name, "chars", len([]rune(text)))
}

// showMenu opens the right-click menu at pos; the shape grows to hold it
// while it is open.
func (w *PetWindow) showMenu(pos fyne.Position) {
	item := func(label string, f func()) *fyne.MenuItem {
		return fyne.NewMenuItem(label, func() {
			if f != nil {
				f()
			}
		})
	}
	items := []*fyne.MenuItem{
		item("Talk", w.OpenComposer),
		item("Messages", w.opts.OnMessages),
		item("Settings", w.opts.OnSettings),
	}
	if w.opts.OnReconnect != nil && w.view.Pill.ConnState != transport.StateReady {
		items = append(items, item("Reconnect", w.opts.OnReconnect))
	}
	items = append(items, fyne.NewMenuItemSeparator(), item("Hide", w.Hide), item("Quit", w.opts.OnQuit))
	menu := fyne.NewMenu("", items...)
	m := widget.NewPopUpMenu(menu, w.win.Canvas())
	dismiss := m.OnDismiss
	m.OnDismiss = func() {
		dismiss()
		w.menuRect = image.Rectangle{}
		w.updateShape()
	}
	m.ShowAtPosition(pos)
	p, s := m.Position(), m.Size()
	w.menuRect = w.rect(p.X-2, p.Y-2, s.Width+4, s.Height+4)
	w.updateShape()
}

// pressed records the pointer and window positions a drag starts from.
func (w *PetWindow) pressed() {
	ptr, err := w.native.pointer()
	if err != nil {
		return
	}
	w.dragFrom = ptr
	if p, err := w.native.position(); err == nil {
		w.pos = p
	}
	w.dragWin = w.pos
}

// dragged moves the window with the pointer. It works in root
// coordinates: the window moves under the pointer, so Fyne's
// window-relative positions would drift.
func (w *PetWindow) dragged() {
	ptr, err := w.native.pointer()
	if err != nil {
		return
	}
	w.dragging = true
	w.moveTo(w.dragWin.Add(ptr.Sub(w.dragFrom)))
}

// dragEnd keeps the window on screen and saves its position.
func (w *PetWindow) dragEnd() {
	if !w.dragging {
		return
	}
	w.dragging = false
	if ptr, err := w.native.pointer(); err == nil {
		w.moveTo(w.dragWin.Add(ptr.Sub(w.dragFrom)))
	}
	if mons, err := w.native.monitors(); err == nil && len(mons) > 0 {
		w.layout = layoutKey(mons)
		size := w.px(w.geo.win.Width, w.geo.win.Height)
		if p := placeOnScreen(w.pos, w.bodyRect(), size, mons); p != w.pos {
			w.moveTo(p)
		}
	}
	w.savePosition()
}

func (w *PetWindow) savePosition() {
	if w.opts.Positions != nil && w.placed && w.layout != "" {
		w.opts.Positions.SavePosition(w.layout, w.pos.X, w.pos.Y)
		w.log.Info("pet_window_moved", "name", w.opts.Name, "x", w.pos.X, "y", w.pos.Y, "layout", w.layout)
	}
}

// Close stops the animation and releases the window's native resources.
// The app calls it after the Fyne app stopped running, which closed the
// window; the position was saved when the last drag ended. It may be
// called from any goroutine.
func (w *PetWindow) Close() {
	w.closeOnce.Do(func() {
		w.closed.Store(true)
		fyne.Do(func() {
			w.anim.stop()
			for _, t := range []*time.Timer{w.noticeTimer, w.idleTimer} {
				if t != nil {
					t.Stop()
				}
			}
		})
		w.native.close()
	})
}
