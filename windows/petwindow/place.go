package petwindow

import (
	"image"
)

// place moves the window to its saved position for the current monitor
// layout, kept on screen, or home.
func (w *PetWindow) place() {
	mons, err := w.native.Monitors()
	if err != nil || len(mons) == 0 {
		return
	}
	w.at.layout = layoutKey(mons)
	w.top.mons = mons
	size := w.shim.px(w.geo.win.Width, w.geo.win.Height)
	p := homePosition(mons, size)
	p.X -= w.opts.Index * (w.bodyRect().Dx() + homeMargin)
	p = placeOnScreen(p, w.bodyRect(), size, mons)
	if w.opts.Positions != nil {
		if x, y, ok := w.opts.Positions.LoadPosition(w.at.layout); ok {
			p = placeOnScreen(image.Pt(x, y), w.bodyRect(), size, mons)
		}
	}
	w.moveTo(p)
	w.at.placed = true
	w.log.Info("pet_window_shown", "name", w.opts.Name, "x", p.X, "y", p.Y,
		"width", size.X, "height", size.Y, "layout", w.at.layout, "shaped", w.shim.shaped)
}

// monitorsChanged re-places the window when the monitor layout changed:
// the position saved for the new layout, or the current one kept on
// screen (a removed monitor brings the pet home).
func (w *PetWindow) monitorsChanged() {
	if w.closed.Load() || w.drag.active {
		return
	}
	mons, err := w.native.Monitors()
	if err != nil || len(mons) == 0 || layoutKey(mons) == w.at.layout {
		return
	}
	w.at.layout = layoutKey(mons)
	w.top.mons = mons
	size := w.shim.px(w.geo.win.Width, w.geo.win.Height)
	p := placeOnScreen(w.pos, w.bodyRect(), size, mons)
	if w.opts.Positions != nil {
		if x, y, ok := w.opts.Positions.LoadPosition(w.at.layout); ok {
			p = placeOnScreen(image.Pt(x, y), w.bodyRect(), size, mons)
		}
	}
	w.moveTo(p)
	w.opts.Host.MonitorsChanged()
	w.log.Info("pet_window_relayout", "name", w.opts.Name, "x", p.X, "y", p.Y, "layout", w.at.layout)
}

// bodyRect is the character's rectangle in window pixels.
func (w *PetWindow) bodyRect() image.Rectangle {
	g := w.geo
	return w.shim.rect(g.char.X, g.char.Y, g.charSize.Width, g.charSize.Height)
}

// moveTo puts the window where its top-left corner would be at p with
// no rise; at a monitor's top the window stops there and its content rises
// (toproom.go). w.pos is p. While the user drags, the rise stays as the
// window was grabbed.
func (w *PetWindow) moveTo(p image.Point) {
	rise := w.top.rise
	if !w.drag.active {
		rise = riseFor(p, w.bodyRect(), w.top.mons, w.shim.px(0, bubbleArea).Y)
	}
	if err := w.native.Move(p.X, p.Y+rise); err == nil {
		w.pos = p
		w.setRise(rise)
		w.syncBody()
	}
}

// dragState is a drag of the window by the character.
type dragState struct {
	from   image.Point // pointer at drag start
	win    image.Point // window position at drag start
	active bool
}

func (w *PetWindow) savePosition() {
	if w.opts.Positions != nil && w.at.placed && w.at.layout != "" {
		w.opts.Positions.SavePosition(w.at.layout, w.pos.X, w.pos.Y)
		w.log.Info("pet_window_moved", "name", w.opts.Name, "x", w.pos.X, "y", w.pos.Y, "layout", w.at.layout)
	}
}
