package petwindow

import "strings"

// Composing reports whether the composer is open (its entry has the
// focus) or holds text: no turn Yui starts on her own runs then
// (docs/product.md §11). Any goroutine: it reads an atomic the UI thread
// keeps.
func (w *PetWindow) Composing() bool { return w.comp.composing.Load() }

// syncComposing publishes the composer's state for Composing. UI thread.
func (c *composer) syncComposing() {
	c.composing.Store(c.state.open || strings.TrimSpace(c.entry.Text) != "")
}
