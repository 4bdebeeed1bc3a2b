package windows

import (
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
	w.composer.open = true
	w.applyView(w.view)
	w.native.focus()
	w.win.RequestFocus()
	w.win.Canvas().Focus(w.entry)
	w.armComposerIdle()
	w.log.Info("pet_composer_open", "name", w.opts.Name)
}

// composerState is the quick composer's: open or not, and the timer
// that closes it when idle.
type composerState struct {
	open bool
	idle *time.Timer
}

// composerIdle is how long an empty composer stays open with no turn
// running. Closing it also stops the entry's cursor animation, which
// would otherwise redraw the window continuously.
const composerIdle = 60 * time.Second

// armComposerIdle (re)starts the composer's idle timer.
func (w *PetWindow) armComposerIdle() {
	if w.composer.idle != nil {
		w.composer.idle.Stop()
	}
	w.composer.idle = time.AfterFunc(composerIdle, func() {
		fyne.Do(func() {
			if w.closed.Load() || !w.composer.open {
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
	if w.composer.idle != nil {
		w.composer.idle.Stop()
		w.composer.idle = nil
	}
	w.composer.open = false
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
	if text == "" && len(w.attachments) == 0 {
		return
	}
	w.entry.SetText("")
	w.armComposerIdle()
	images := w.takeAttachments()
	w.opts.Actions.SendText(text, images)
	w.log.Info("pet_composer_send", "name", w.opts.Name, "chars", len([]rune(text)), "images", len(images))
}
