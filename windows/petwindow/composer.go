package petwindow

import (
	"image"
	"strings"
	"time"

	"fyne.io/fyne/v2"
)

// OpenComposer shows the composer and focuses its entry (double click on
// the pet, the menu's Talk, or the shortcut).
func (w *PetWindow) OpenComposer() {
	if w.closed.Load() {
		return
	}
	w.comp.state.open = true
	w.syncComposing()
	w.applyView(w.view)
	w.liftForComposer()
	w.native.Focus()
	w.win.RequestFocus()
	w.win.Canvas().Focus(w.comp.entry)
	w.armComposerIdle()
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

// liftForComposer moves the window up while the composer is open when
// the composer would end below the bottom of the pet's monitor: a pet
// that fell to the bottom of the screen stands with its composer row
// off screen. CloseComposer, or a drag, ends the lift.
func (w *PetWindow) liftForComposer() {
	if w.comp.state.lift > 0 {
		return
	}
	mons, err := w.native.Monitors()
	if err != nil {
		return
	}
	body := w.bodyRect().Add(w.pos)
	bottom := w.pos.Y + w.px(0, w.geo.composerY+composerH).Y
	for _, m := range mons {
		if !body.Overlaps(m) {
			continue
		}
		if over := bottom - m.Max.Y; over > 0 {
			w.comp.state.lift = over
			w.moveTo(w.pos.Sub(image.Pt(0, over)))
			w.log.Info("pet_composer_lift", "name", w.opts.Name, "by", over)
		}
		return
	}
}

// lowerAfterComposer puts a lifted window back where it stood.
func (w *PetWindow) lowerAfterComposer() {
	if w.comp.state.lift > 0 {
		w.moveTo(w.pos.Add(image.Pt(0, w.comp.state.lift)))
		w.comp.state.lift = 0
	}
}

// composerIdle is how long an empty composer stays open with no turn
// running. Closing it also stops the entry's cursor animation, which
// would otherwise redraw the window continuously.
const composerIdle = 60 * time.Second

// armComposerIdle (re)starts the composer's idle timer.
func (w *PetWindow) armComposerIdle() {
	if w.comp.state.idle != nil {
		w.comp.state.idle.Stop()
	}
	w.comp.state.idle = time.AfterFunc(composerIdle, func() {
		fyne.Do(func() {
			if w.closed.Load() || !w.comp.state.open {
				return
			}
			if w.view.Running || strings.TrimSpace(w.comp.entry.Text) != "" {
				w.armComposerIdle()
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
	w.syncComposing()
	w.win.Canvas().Unfocus()
	w.applyView(w.view)
	w.lowerAfterComposer()
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
	text := strings.TrimSpace(w.comp.entry.Text)
	if text == "" && len(w.comp.attachments) == 0 {
		return
	}
	w.comp.entry.SetText("")
	w.armComposerIdle()
	images := w.takeAttachments()
	w.opts.Actions.SendText(text, images)
	w.log.Info("pet_composer_send", "name", w.opts.Name, "chars", len([]rune(text)), "images", len(images))
}
