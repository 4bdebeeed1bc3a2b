package petwindow

import "image"

// placer is where the window stands: its position for the monitor
// layout it is on, saved once the user drops it, and the user's drag.
// UI thread.
type placer struct {
	w      *PetWindow
	layout string      // monitor layout key
	placed bool        // pos holds a position to restore
	pos    image.Point // where the window stands: its top-left corner with no rise (moveTo)
	drag   dragState
}

// shimState is what the native shim could do for this window.
type shimState struct {
	attached bool    // the native shim is bound to the window
	shaped   bool    // shaping works
	scale    float32 // physical pixels per Fyne unit
}

// px converts a Fyne size to window pixels.
func (s shimState) px(x, y float32) image.Point {
	return image.Pt(int(x*s.scale+0.5), int(y*s.scale+0.5))
}

// rect converts a Fyne rectangle to window pixels.
func (s shimState) rect(x, y, wd, ht float32) image.Rectangle {
	return image.Rectangle{Min: s.px(x, y), Max: s.px(x+wd, y+ht)}
}

// place moves the window to its saved position for the current monitor
// layout, kept on screen, or home.
func (pc *placer) place() {
	w := pc.w
	mons, err := w.native.Monitors()
	if err != nil || len(mons) == 0 {
		return
	}
	pc.layout = layoutKey(mons)
	w.top.mons = mons
	size := w.shim.px(w.geo.win.Width, w.geo.win.Height)
	p := homePosition(mons, size)
	p.X -= w.opts.Index * (w.geo.bodyRect(w.shim).Dx() + homeMargin)
	p = placeOnScreen(p, w.geo.bodyRect(w.shim), size, mons)
	if w.opts.Positions != nil {
		if x, y, ok := w.opts.Positions.LoadPosition(pc.layout); ok {
			p = placeOnScreen(image.Pt(x, y), w.geo.bodyRect(w.shim), size, mons)
		}
	}
	pc.moveTo(p)
	pc.placed = true
	w.log.Info("pet_window_shown", "name", w.opts.Name, "x", p.X, "y", p.Y,
		"width", size.X, "height", size.Y, "layout", pc.layout, "shaped", w.shim.shaped)
}

// monitorsChanged re-places the window when the monitor layout changed:
// the position saved for the new layout, or the current one kept on
// screen (a removed monitor brings the pet home).
func (pc *placer) monitorsChanged() {
	w := pc.w
	if w.closed.Load() || pc.drag.active {
		return
	}
	mons, err := w.native.Monitors()
	if err != nil || len(mons) == 0 || layoutKey(mons) == pc.layout {
		return
	}
	pc.layout = layoutKey(mons)
	w.top.mons = mons
	size := w.shim.px(w.geo.win.Width, w.geo.win.Height)
	p := placeOnScreen(pc.pos, w.geo.bodyRect(w.shim), size, mons)
	if w.opts.Positions != nil {
		if x, y, ok := w.opts.Positions.LoadPosition(pc.layout); ok {
			p = placeOnScreen(image.Pt(x, y), w.geo.bodyRect(w.shim), size, mons)
		}
	}
	pc.moveTo(p)
	w.opts.Host.MonitorsChanged()
	w.log.Info("pet_window_relayout", "name", w.opts.Name, "x", p.X, "y", p.Y, "layout", pc.layout)
}

// moveTo puts the window where its top-left corner would be at p with
// no rise; at a monitor's top the window stops there and its content rises
// (toproom.go). w.placer.pos is p. While the user drags, the rise stays as the
// window was grabbed.
func (pc *placer) moveTo(p image.Point) {
	w := pc.w
	rise := w.top.rise
	if !pc.drag.active {
		rise = riseFor(p, w.geo.bodyRect(w.shim), w.top.mons, w.shim.px(0, bubbleArea).Y)
	}
	if err := w.native.Move(p.X, p.Y+rise); err == nil {
		pc.pos = p
		pc.setRise(rise)
		w.syncBody()
	}
}

// dragState is a drag of the window by the character.
type dragState struct {
	from   image.Point // pointer at drag start
	win    image.Point // window position at drag start
	active bool
}

func (pc *placer) save() {
	w := pc.w
	if w.opts.Positions != nil && pc.placed && pc.layout != "" {
		w.opts.Positions.SavePosition(pc.layout, pc.pos.X, pc.pos.Y)
		w.log.Info("pet_window_moved", "name", w.opts.Name, "x", pc.pos.X, "y", pc.pos.Y, "layout", pc.layout)
	}
}
