package petwindow

import (
	"image"

	"fyne.io/fyne/v2"
)

// topRoom keeps the character on screen at the top of a monitor. The pet
// window holds the bubble's room above the character, and window managers
// keep a window's top edge on screen (icewm, mutter): a pet sitting on a
// window near the top of a monitor would be pushed down into it. Instead
// the window stops at the monitor's top and its content rises inside it
// by the difference, at most the bubble's room: the character stays where
// it belongs, and the bubble, with no room left above it, shows below.
// UI thread only.
type topRoom struct {
	inner *fyne.Container   // every part of the window; moved up by rise
	rise  int               // window pixels
	mons  []image.Rectangle // the monitors as last read (place, relayout, drop)
}

// riseFor is how far the content of a window whose top-left corner would
// be at p rises: by as much as the window's top is above the top of the
// monitor the character (body, window-relative) is on, at most limit.
func riseFor(p image.Point, body image.Rectangle, mons []image.Rectangle, limit int) int {
	c := body.Add(p)
	x := (c.Min.X + c.Max.X) / 2
	for _, m := range mons {
		if x >= m.Min.X && x < m.Max.X && c.Max.Y > m.Min.Y && c.Min.Y < m.Max.Y {
			return min(max(m.Min.Y-p.Y, 0), limit)
		}
	}
	return 0
}

// setRise moves the parts up by r window pixels, and lays the bubble and
// the shape out again when that changed.
func (pc *placer) setRise(r int) {
	w := pc.w
	if r == w.top.rise || w.top.inner == nil {
		return
	}
	w.top.rise = r
	w.top.inner.Move(fyne.NewPos(0, -w.top.units(w.shim.scale)))
	w.render(w.view)
	w.log.Info("pet_window_rise", "name", w.opts.Name, "by", r)
}

// units is the rise in Fyne units at scale physical pixels a unit.
func (t *topRoom) units(scale float32) float32 {
	if scale <= 0 {
		return float32(t.rise)
	}
	return float32(t.rise) / scale
}
