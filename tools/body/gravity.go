package body

import (
	"context"
	"image"

	"yui/tools/desktop"
)

// CatchBand is how far (pixels) a window's top edge may lie above or below
// the feet of a pet of height h dropped by the user and still catch it:
// half its height, so a bigger pet is caught from as far in proportion.
func CatchBand(h int) int { return max(h/2, 8) }

// Landing returns the window that catches a pet dropped at pet: the
// topmost window (ws is in Z order, the topmost first) whose top edge is
// within CatchBand of the pet's feet and runs under the pet's centre,
// where no window above it covers that point of the edge. Windows that
// cannot be sat on (hidden, minimised, not normal, process pid's, a top
// edge on no monitor) neither catch nor cover. ok is false when none
// catches it: the pet falls to the bottom of the work area.
func Landing(ms []desktop.Monitor, ws []desktop.Window, pet image.Rectangle, pid int) (desktop.Window, bool) {
	cx, feet := (pet.Min.X+pet.Max.X)/2, pet.Max.Y
	band := CatchBand(pet.Dy())
	var above []image.Rectangle
	for _, w := range ws {
		if !w.Visible() || !w.Normal || (pid != 0 && w.PID == pid) {
			continue
		}
		_, ok := windowTarget(ms, w, pid)
		top := w.Frame.Min.Y
		if ok && cx >= w.Frame.Min.X && cx < w.Frame.Max.X && top >= feet-band && top <= feet+band && !covered(above, image.Pt(cx, top)) {
			return w, true
		}
		above = append(above, w.Frame)
	}
	return desktop.Window{}, false
}

// covered reports whether p lies inside one of rs.
func covered(rs []image.Rectangle, p image.Point) bool {
	for _, r := range rs {
		if p.In(r) {
			return true
		}
	}
	return false
}

// Land lets the pet fall where the user dropped it, with the fall motion:
// onto the window Landing chooses, where it then sits as sit_on_window
// leaves it (following the window, falling when it closes or is
// minimised), else to the bottom of the work area of its monitor. It reads
// the desktop and returns once the pet has landed, so the pet window
// calls it off its UI thread. A body action started meanwhile replaces
// the fall.
func (a *Actor) Land(ctx context.Context) {
	if a.isClosed() {
		return
	}
	ms, err := a.o.Desktop.Monitors()
	if err != nil || len(ms) == 0 {
		a.o.Log.Warn("body_gravity: no monitors", "err", errString(err))
		return
	}
	ws, err := a.o.Desktop.Windows()
	if err != nil {
		a.o.Log.Warn("body_gravity: no window list", "err", err.Error())
		ws = nil // the floor still catches it
	}
	a.mu.Lock()
	a.monitors = ms
	r := a.o.Body.State().Rect
	var p plan
	if w, ok := Landing(ms, ws, r, a.o.PID); ok {
		p = a.sitPlan(ms, r, w, "")
	} else {
		i := max(desktop.MonitorAt(ms, center(r)), 0)
		p = a.floorPlan(ms, r, i, ms[i])
	}
	a.mu.Unlock()
	p.motion = Fall
	p.d = fallTime(dist(r.Min, p.to))
	a.run(ctx, p)
}
