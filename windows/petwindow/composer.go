package petwindow

import (
	"image"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"yui/pet"
	"yui/transport"
	"yui/windows/widgets"
)

// composer is the quick composer under the character: its widgets and
// state, and what it does (composer.go, composing.go, attach.go, mic.go).
// UI thread, but for its atomics.
type composer struct {
	w           *PetWindow // the window it is part of
	state       composerState
	bg          *canvas.Rectangle
	entry       *widgets.ComposerEntry
	attach      *widgets.IconButton
	send        *widgets.IconButton
	mic         micState // push-to-talk button and shortcut (mic.go)
	errLine     *widgets.Tag
	screenBtn   *widgets.IconButton // include-screen toggle; nil unless ScreenToggle (attach.go)
	attachments []transport.Image   // images for the next typed turn (attach.go)
	screenOn    atomic.Bool         // the include-screen toggle (attach.go)
	asking      atomic.Bool         // the screen-look prompt is showing (attach.go)
	composing   atomic.Bool         // open or holding text (composing.go)
}

// OpenComposer shows the composer and focuses its entry (double click on
// the pet, the menu's Talk, or the shortcut).
func (w *PetWindow) OpenComposer() {
	if w.closed.Load() {
		return
	}
	w.comp.state.open = true
	w.comp.syncComposing()
	w.applyView(w.view)
	w.comp.lift()
	w.native.Focus()
	w.win.RequestFocus()
	w.win.Canvas().Focus(w.comp.entry)
	w.comp.armIdle()
	w.log.Info("pet_composer_open", "name", w.opts.Name)
}

// composerState is the quick composer's: open or not, and the timer
// that closes it when idle.
type composerState struct {
	open bool
	idle *time.Timer
	// lift is how far the window went up so that the composer shows
	// (a pet standing on the bottom of the screen); 0 when it did not.
	lift int
}

// lift moves the window up while the composer is open when
// the composer would end below the bottom of the pet's monitor: a pet
// that fell to the bottom of the screen stands with its composer row
// off screen. CloseComposer, or a drag, ends the lift.
func (c *composer) lift() {
	w := c.w
	if c.state.lift > 0 {
		return
	}
	mons, err := w.native.Monitors()
	if err != nil {
		return
	}
	body := w.geo.bodyRect(w.shim).Add(w.placer.pos)
	bottom := w.placer.pos.Y + w.shim.px(0, w.geo.composerY+composerH).Y
	for _, m := range mons {
		if !body.Overlaps(m) {
			continue
		}
		if over := bottom - m.Max.Y; over > 0 {
			c.state.lift = over
			w.placer.moveTo(w.placer.pos.Sub(image.Pt(0, over)))
			w.log.Info("pet_composer_lift", "name", w.opts.Name, "by", over)
		}
		return
	}
}

// lower puts a lifted window back where it stood.
func (c *composer) lower() {
	w := c.w
	if c.state.lift > 0 {
		w.placer.moveTo(w.placer.pos.Add(image.Pt(0, c.state.lift)))
		c.state.lift = 0
	}
}

// refresh shows the composer while it is open, and makes its
// button a stop button while a turn runs, the entry locked.
func (c *composer) refresh(v pet.View, wasRunning bool) {
	w := c.w
	for _, o := range []fyne.CanvasObject{c.bg, c.attach, c.entry, c.send} {
		widgets.SetShown(o, c.state.open)
	}
	c.showMic() // voice: push-to-talk button (mic.go)
	c.showScreenToggle()
	if v.Running {
		c.send.Set(theme.MediaStopIcon(), widget.DangerImportance)
		c.entry.Disable()
		return
	}
	c.send.Set(theme.MailSendIcon(), widget.HighImportance)
	c.entry.Enable()
	if wasRunning && c.state.open {
		// The entry lost the focus when it was locked: give it back
		// so the next line can be typed at once.
		w.win.Canvas().Focus(c.entry)
	}
	if wasRunning {
		w.log.Debug("pet_composer_unlocked", "name", w.opts.Name)
	}
}

// composerIdle is how long an empty composer stays open with no turn
// running. Closing it also stops the entry's cursor animation, which
// would otherwise redraw the window continuously.
const composerIdle = 60 * time.Second

// armIdle (re)starts the composer's idle timer.
func (c *composer) armIdle() {
	w := c.w
	if c.state.idle != nil {
		c.state.idle.Stop()
	}
	c.state.idle = time.AfterFunc(composerIdle, func() {
		fyne.Do(func() {
			if w.closed.Load() || !c.state.open {
				return
			}
			if w.view.Running || strings.TrimSpace(c.entry.Text) != "" {
				c.armIdle()
				return
			}
			w.CloseComposer()
		})
	})
}

// CloseComposer hides the composer (Escape in its entry).
func (w *PetWindow) CloseComposer() {
	if w.comp.state.idle != nil {
		w.comp.state.idle.Stop()
		w.comp.state.idle = nil
	}
	w.comp.state.open = false
	w.comp.syncComposing()
	w.win.Canvas().Unfocus()
	w.applyView(w.view)
	w.comp.lower()
}

// sendOrStop is the composer's button and the entry's Enter: it sends the
// text, or stops the running turn. Whether a turn runs is asked of the
// app, not read from the view drawn last: that view follows the turn's
// start by a moment (it is published after the turn was sent, and drawn
// on the UI thread's next turn), and a stop pressed then, with the turn's
// request already out, would otherwise find an empty entry and do nothing.
func (c *composer) sendOrStop() {
	w := c.w
	if w.opts.Actions == nil {
		return
	}
	if w.view.Running || w.opts.Actions.Busy() {
		w.opts.Actions.Stop()
		w.log.Info("pet_composer_stop", "name", w.opts.Name)
		return
	}
	text := strings.TrimSpace(c.entry.Text)
	if text == "" && len(c.attachments) == 0 {
		return
	}
	c.entry.SetText("")
	c.armIdle()
	images := c.takeAttachments()
	w.opts.Actions.SendText(text, images)
	w.log.Info("pet_composer_send", "name", w.opts.Name, "chars", len([]rune(text)), "images", len(images))
}
