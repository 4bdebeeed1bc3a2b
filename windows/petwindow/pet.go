// Package petwindow is the shaped pet window: the character, its speech
// bubble, status pill and tags, the composer, the right-click menu, the
// delegation list, and the body tool's movements. Its per-platform parts
// (window shape, stacking, global shortcut) are behind native.Window and
// the optional abilities found on it (native.Shortcut, native.MonitorWatcher).
//
// The pet window draws a pet.View snapshot; it knows nothing of transports.
// User actions go back through PetActions; the menu's items and what the
// user does to the window (drag, drop, the shortcut) go to the app's Host
// (host.go).
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
// pet_screen_toggle, pet_attach, pet_screen_look_prompt and
// pet_screen_look_answer, window_open (delegations), and
// pet_window_native / pet_window_shape warnings when the platform cannot
// shape.
//
// The body tool moves the window (motion.go): its positions are the
// character's rectangle (the 192x256 image at window 84,150 above), so
// the character's feet, window y + 406, are what sits on a window's top
// edge. The screen-look prompt is a window titled "<name> — screen
// access" (Allow / Not now); the attach button's file dialog one titled
// "<name> — attach an image".
package petwindow

import (
	"fmt"
	"log/slog"
	"slices"
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
	"yui/tools/xconn"
	"yui/transport"
	"yui/windows/native"
	"yui/windows/widgets"
)

// PetActions are what the user can do to a pet (pet.Controller implements them).
type PetActions interface {
	SendText(text string, attachments []transport.Image)
	Poke()
	// Pat is a press-and-hold on the character's head: a local reaction.
	Pat()
	Stop()
	// Busy reports whether a turn is being sent or runs, from the moment
	// SendText returns: the composer's button is a stop button then, even
	// before the view that says so is drawn.
	Busy() bool
}

// Options configures a pet window.
type Options struct {
	// Name is the preset's name (the window title, used by the task list
	// of window managers that show one anyway).
	Name string
	// Pack is the character to draw.
	Pack *character.Pack
	// Actions receive the composer's sends, stops and pokes.
	Actions PetActions
	// Host is the app's side: the menu's items and the drag, drop,
	// shortcut and monitor events (host.go); nil does nothing.
	Host Host
	// Poke makes a click on the pet start a poke turn.
	Poke bool
	// Positions keeps the window position; nil keeps it for this run only.
	Positions PositionStore
	// Index is the pet's place among the running pets: pets with no saved
	// position stand side by side, the first one in the home corner.
	Index int
	// Shortcut asks for the global shortcut Ctrl+Alt+Y, which opens this
	// pet's composer (the app gives it to main).
	Shortcut bool
	// Gaze makes the eyes follow the pointer when it is near, on a pack
	// with gaze frames (the preset's gaze setting).
	Gaze bool
	// X is the process's X connection, which the window's X11 shim shares
	// with the desktop layer and the other pets; nil opens one of its own
	// (where there is X).
	X *xconn.Conn
	// ScreenToggle shows the composer's include-screen toggle
	// (screen_on_turn "toggle"); IncludeScreen reads it.
	ScreenToggle bool
	// Logger receives pet_window_* records; nil discards.
	Logger *slog.Logger
}

// PetWindow is the borderless, always-on-top, shaped window of one pet.
// Its methods must be called from the Fyne main goroutine, except SetView,
// SetNotice and Close, which may be called from any goroutine.
type PetWindow struct {
	app    fyne.App
	opts   Options
	log    *slog.Logger
	win    fyne.Window
	geo    geometry
	native native.Window

	// Fields below are owned by the Fyne main goroutine.
	shim    shimState
	placer  placer
	view    pet.View
	note    noticeState
	draw    drawState
	deleg   delegations
	visible bool     // shown, not hidden
	move    bodyMove // the body tool's movement (motion.go)
	closed  atomic.Bool
	shared  bodyShared // BodyState's copy (motion.go)

	char     *body
	backdrop *canvas.Rectangle
	bubble   *bubble
	status   statusRow    // the pill and the tags around the character
	eyes     eyes         // where the eyes look (gaze.go)
	comp     composer     // the composer (composer.go, attach.go, mic.go)
	layout   *partsLayout // places the parts (arrange.go)
	play     player       // the frames playing (frames.go)
	shape    shaper       // the window's shape (shape.go)
	top      topRoom      // the content's rise at a monitor's top (toproom.go)

	closeOnce sync.Once
}

// noticeState is a short notice shown in the bubble and its timer.
type noticeState struct {
	text  string
	timer *time.Timer
}

// drawState is what the window drew last, so that unchanged parts are not
// drawn or sent again.
type drawState struct {
	masks maskCache
	tip   tipCache

	// pending is a view whose only change is the status pill's text (a
	// reconnect countdown), held while frames play so that it is drawn
	// with the next frame instead of costing a repaint of its own.
	pending    pet.View
	hasPending bool
}

// statusRow is the status pill and the tags around the character: the
// emotion-text badge, the caption, the message plate, the delegations
// chip and the watching sign.
type statusRow struct {
	badge, caption, plate, pill, chip *widgets.Tag
	eye                               *widgets.IconButton // the watching sign by the pill (watching.go)
	watching                          bool
}

// New creates the pet window of one preset; Show shows it.
func New(a fyne.App, opts Options) (*PetWindow, error) {
	drv, ok := a.Driver().(desktop.Driver)
	if !ok {
		return nil, fmt.Errorf("pet window: the Fyne driver has no borderless windows")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Host == nil {
		opts.Host = noHost{}
	}
	w := &PetWindow{
		app:    a,
		opts:   opts,
		log:    log,
		win:    drv.CreateSplashWindow(),
		geo:    newGeometry(opts.Pack),
		native: native.New(log, opts.X),
		shim:   shimState{scale: 1},
	}
	w.comp.w = w
	w.eyes.w = w
	w.play.w = w
	w.shape.w = w
	w.placer.w = w
	w.deleg.w = w
	// The splash window started the driver; no window of the process
	// needs a depth buffer.
	native.LeanFramebuffers()
	w.play.anim = newAnimator(w.play.prepare, w.play.show)
	w.win.SetTitle(opts.Name)
	w.build()
	w.win.Resize(w.geo.win)
	w.win.SetFixedSize(true)
	w.win.SetCloseIntercept(w.Hide)
	w.applyView(pet.View{})
	if opts.Gaze {
		// The eyes follow the pointer once the shim is bound (eyes.start).
		w.eyes.stop = make(chan struct{})
	}
	return w, nil
}

// Window returns the Fyne window.
func (w *PetWindow) Window() fyne.Window { return w.win }

func (w *PetWindow) build() {
	g := w.geo
	w.backdrop = canvas.NewRectangle(widgets.ColBackdrop)
	w.char = newBody(pointerHandler{w})

	w.bubble = newBubble(g.width - 2*sideMargin)
	w.bubble.OnTapped = func() {
		if w.note.text != "" && w.view.Bubble == "" {
			w.setNotice("")
		}
	}
	w.status.badge = widgets.NewTag(widgets.ColInk, widgets.ColBadge)
	w.status.caption = widgets.NewTag(widgets.ColPillText, widgets.ColPill)
	w.status.caption.Italic = true
	w.status.plate = widgets.NewTag(widgets.ColInk, widgets.ColBubble)
	w.status.plate.Italic = true
	w.status.pill = widgets.NewTag(widgets.ColPillText, widgets.ColPill)
	w.status.chip = widgets.NewTag(widgets.ColInk, widgets.ColChip)
	w.status.chip.OnTapped = w.deleg.show
	w.status.eye = widgets.NewIconButton(theme.VisibilityIcon(), widget.HighImportance, w.opts.Host.OpenPermissions) // the watching sign (watching.go)
	w.status.eye.Hide()
	w.comp.errLine = widgets.NewTag(widgets.ColError, widgets.ColBubble)
	w.comp.errLine.MaxLines = errorLines
	w.comp.errLine.MaxWidth = g.width - 2*sideMargin - composerRad
	for _, t := range []*widgets.Tag{w.status.badge, w.status.caption, w.status.plate, w.status.pill, w.status.chip} {
		t.MaxWidth = g.width - 2*sideMargin
		t.MaxLines = 1
	}

	w.comp.bg = canvas.NewRectangle(widgets.ColBubble)
	w.comp.bg.CornerRadius = composerRad
	w.comp.bg.StrokeColor = widgets.ColBubbleStroke
	w.comp.bg.StrokeWidth = 1
	w.comp.entry = widgets.NewComposerEntry()
	w.comp.entry.OnSubmitted = func(string) { w.comp.sendOrStop() }
	w.comp.entry.OnChanged = func(string) { w.comp.armIdle(); w.comp.syncComposing() }
	w.comp.entry.OnEscape = w.CloseComposer
	w.comp.send = widgets.NewIconButton(theme.MailSendIcon(), widget.HighImportance, w.comp.sendOrStop)
	w.comp.attach = widgets.NewIconButton(theme.FileImageIcon(), widget.LowImportance, w.comp.chooseImage)

	w.backdrop.Move(g.char)
	w.backdrop.Resize(g.charSize)
	w.char.Move(g.char)
	w.char.Resize(g.charSize)
	w.comp.addMic()          // voice: push-to-talk button (mic.go)
	w.comp.addScreenToggle() // attach.go

	objs := []fyne.CanvasObject{
		w.backdrop, w.char, w.bubble, w.status.badge, w.status.caption, w.status.plate, w.status.pill, w.status.chip, w.status.eye,
		w.comp.bg, w.comp.attach, w.comp.entry, w.comp.send, w.comp.errLine,
	}
	if b := w.comp.mic.button; b != nil {
		objs = append(objs, b)
	}
	if b := w.comp.screenBtn; b != nil {
		objs = append(objs, b)
	}
	w.layout = &partsLayout{geo: g, bubble: w.bubble, status: &w.status, comp: &w.comp}
	w.top.inner = container.New(w.layout, objs...)
	w.top.inner.Resize(g.win)
	w.win.SetContent(free(g.win, w.top.inner)) // the outer one keeps the inner's rise (toproom.go)
}

// Show shows the window, binds the native shim on the first show, and puts
// the window at its saved position (or home).
func (w *PetWindow) Show() {
	w.win.Show()
	w.visible = true
	w.play.anim.setPaused(false)
	w.attachNative(20)
	if w.placer.placed {
		w.placer.moveTo(w.placer.pos)
	}
	w.syncBody()
}

// Hide hides the window.
func (w *PetWindow) Hide() {
	w.win.Hide()
	w.visible = false
	w.play.anim.setPaused(true) // a hidden pet costs no frames
	w.syncBody()
}

// SetIdlePace slows the idle motion's cycle by f (1: its own rate; 3: a
// third of it), for a pet nobody watches: the user away, or a desktop
// that asks for reduced motion. Breathing and blinking still show, more
// slowly. UI thread.
func (w *PetWindow) SetIdlePace(f float64) {
	f = max(f, 1)
	if f == w.play.anim.idlePace {
		return
	}
	w.play.anim.idlePace = f
	if w.play.key != "" && w.shownMotion() == "idle" {
		w.play.key = "" // choose the frames again, at the new pace
		w.play.update()
	}
	w.log.Info("pet_idle_pace", "name", w.opts.Name, "pace", f)
}

// attachNative binds the native shim once the driver has created the
// window, retrying a few times while the handle is not there yet.
func (w *PetWindow) attachNative(tries int) {
	if w.shim.attached || w.closed.Load() {
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
	w.shim.attached = true
	w.shim.scale = w.win.Canvas().Scale()
	err := w.native.Attach(ctx)
	w.shim.shaped = err == nil
	if err != nil {
		w.log.Warn("pet_window_native", "name", w.opts.Name, "err", err.Error())
	}
	w.placer.place()
	w.eyes.start()
	err = native.ErrUnsupported
	if mw, ok := w.native.(native.MonitorWatcher); ok {
		err = mw.WatchMonitors(func() { fyne.Do(w.placer.monitorsChanged) })
	}
	if err != nil {
		w.log.Debug("pet_window_monitors", "name", w.opts.Name, "err", err.Error())
	}
	sc, ok := w.native.(native.Shortcut)
	if w.opts.Shortcut && w.shim.shaped {
		err := native.ErrUnsupported
		if ok {
			err = sc.GrabShortcut(func() { fyne.Do(w.shortcut) })
		}
		if err != nil {
			w.log.Warn("pet_shortcut", "name", w.opts.Name, "err", err.Error())
		} else {
			w.log.Info("pet_shortcut", "name", w.opts.Name, "keys", "ctrl+alt+y")
			sc.OnShortcutRelease(func() { fyne.Do(w.comp.shortcutReleased) }) // voice: push-to-talk (mic.go)
		}
	}
	w.shape.sent = sentShape{}
	w.shape.update()
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
	w.note.text = text
	if w.note.timer != nil {
		w.note.timer.Stop()
		w.note.timer = nil
	}
	if text != "" {
		w.note.timer = time.AfterFunc(20*time.Second, func() {
			fyne.Do(func() {
				if w.note.text == text {
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
	if w.play.anim.running() && pillTextOnly(w.view, v) {
		w.draw.pending, w.draw.hasPending = v, true
		return
	}
	w.render(v)
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

// Close closes the window (a preset disabled while the app runs), then
// releases it as Dispose does. It may be called from any goroutine.
func (w *PetWindow) Close() {
	if !w.closed.Load() {
		fyne.Do(w.win.Close)
	}
	w.Dispose()
}

// Dispose stops the animation and releases the window's native
// resources, leaving the Fyne window alone: at quit, once the app stopped
// running, the app closed it already and must not be asked again. The
// position was saved when the last drag ended. It may be called from any
// goroutine.
func (w *PetWindow) Dispose() {
	w.closeOnce.Do(func() {
		w.closed.Store(true)
		if w.eyes.stop != nil {
			close(w.eyes.stop)
		}
		fyne.Do(func() {
			w.play.anim.stop()
			w.move.stop()
			// Frames shared with pets still running are theirs alone now.
			w.char.letGoAll()
			for _, t := range []*time.Timer{w.note.timer, w.comp.state.idle} {
				if t != nil {
					t.Stop()
				}
			}
		})
		w.native.Close()
	})
}
