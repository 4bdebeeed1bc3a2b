package petwindow

import (
	"image"

	"fyne.io/fyne/v2"

	"yui/pet/character"
)

// pointerHandler is what the pointer does on the character (body's
// bodyHandler): a click pokes, a double click opens the composer, a right
// click opens the menu, a press held on the head pats, a drag moves the
// window. UI thread.
type pointerHandler struct{ w *PetWindow }

var _ bodyHandler = pointerHandler{}

// tapped is a click on the character: a poke turn, when the preset
// allows it.
func (h pointerHandler) tapped() {
	w := h.w
	if w.char.press.patted {
		return // the release of a pat
	}
	if w.opts.Poke && w.opts.Actions != nil {
		w.log.Info("pet_poke", "name", w.opts.Name)
		w.opts.Actions.Poke()
	}
}

// doubleTapped opens the composer.
func (h pointerHandler) doubleTapped() { h.w.OpenComposer() }

// secondaryTapped opens the right-click menu at pos.
func (h pointerHandler) secondaryTapped(pos fyne.Position) { h.w.showMenu(pos) }

// held is the user patting the character's head: a happy reaction,
// locally; no turn starts.
func (h pointerHandler) held() {
	w := h.w
	if w.opts.Actions == nil {
		return
	}
	w.log.Info("pet_pat", "name", w.opts.Name)
	w.opts.Actions.Pat()
}

// pressed records the pointer and window positions a drag starts from.
// The pointer's is where the press was, at in the window, not where the
// pointer is now: when the UI goroutine is busy, the press is handled
// after the pointer moved on, and the pet would slip under it (a quick
// drag dropped it part of the way).
func (h pointerHandler) pressed(at fyne.Position) {
	w := h.w
	p, err := w.native.Position()
	if err != nil {
		return
	}
	w.placer.pos = p.Sub(image.Pt(0, w.top.rise))
	w.placer.drag.win = w.placer.pos
	w.placer.drag.from = p.Add(w.shim.px(at.X, at.Y))
}

// dragged moves the window with the pointer. It works in root
// coordinates: the window moves under the pointer, so Fyne's
// window-relative positions would drift.
func (h pointerHandler) dragged() {
	w := h.w
	ptr, err := w.native.Pointer()
	if err != nil {
		return
	}
	if !w.placer.drag.active {
		w.comp.state.lift = 0 // where the user drops it is where it stays
		// The user takes the pet: the body tool lets go.
		w.placer.drag.active = true
		w.move.stop()
		w.move.motion = ""
		w.opts.Host.PetGrabbed()
		w.render(w.view)
	}
	w.placer.moveTo(w.placer.drag.win.Add(ptr.Sub(w.placer.drag.from)))
}

// dragEnded keeps the window on screen, saves its position and tells the
// app the pet was dropped.
func (h pointerHandler) dragEnded() {
	w := h.w
	if !w.placer.drag.active {
		return
	}
	w.placer.drag.active = false
	if ptr, err := w.native.Pointer(); err == nil {
		w.placer.moveTo(w.placer.drag.win.Add(ptr.Sub(w.placer.drag.from)))
	}
	if mons, err := w.native.Monitors(); err == nil && len(mons) > 0 {
		w.placer.layout = layoutKey(mons)
		w.top.mons = mons
		size := w.shim.px(w.geo.win.Width, w.geo.win.Height)
		if p := placeOnScreen(w.placer.pos, w.geo.bodyRect(w.shim), size, mons); p != w.placer.pos {
			w.placer.moveTo(p)
		}
	}
	w.placer.save()
	w.opts.Host.PetDropped()
	if w.opts.Pack.Has(character.MotionDrag) {
		// A pack's held pose ends with the drag; drawn once the window
		// is where it was dropped (a redraw during the drop moves it).
		w.render(w.view)
	}
}
