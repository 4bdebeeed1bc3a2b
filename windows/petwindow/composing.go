package petwindow

import "strings"

// Composing reports whether the composer is open (its entry has the
// focus) or holds text: no turn Yui starts on her own runs then
// (docs/product.md §11). Any goroutine: it reads an atomic the UI thread
// keeps.
func (w *PetWindow) Composing() bool { return w.comp.composing.Load() }

// syncComposing publishes the composer's state for Composing. UI thread.
func (w *PetWindow) syncComposing() {
	w.comp.composing.Store(w.comp.state.open || strings.TrimSpace(w.comp.entry.Text) != "")
}
