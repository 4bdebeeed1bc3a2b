package petwindow

import "fyne.io/fyne/v2"

// SetWatching shows or hides the watching sign, a small eye badge by the
// status pill: on while screenshots ride with turns or look at the screen
// is allowed, so the user always sees that the character can see. Any
// goroutine.
func (w *PetWindow) SetWatching(on bool) {
	fyne.Do(func() {
		if w.closed.Load() || w.status.watching == on {
			return
		}
		w.status.watching = on
		w.log.Info("pet_watching", "name", w.opts.Name, "on", on)
		w.applyView(w.view)
	})
}

// Watching reports whether the eye badge shows. UI thread.
func (w *PetWindow) Watching() bool { return w.status.watching }
