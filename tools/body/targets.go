package body

import (
	"cmp"
	"image"
	"slices"
	"strconv"
	"strings"

	"yui/tools/desktop"
)

// Target kinds of look perch_targets.
const (
	KindWindowTop    = "window_top"
	KindScreenBottom = "screen_bottom"
)

// MaxWindowTargets caps the window targets of perch_targets; the monitors'
// bottom edges come on top of them.
const MaxWindowTargets = 30

// Target is one place the pet can perch, as look perch_targets lists it:
// X, Y and Width in the pixels of monitor Monitor, measured from its
// top-left corner, like every coordinate of look and body_action.
type Target struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	App     string `json:"app,omitempty"`
	Title   string `json:"title,omitempty"`
	Monitor int    `json:"monitor"`
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Width   int    `json:"width"`

	window desktop.ID // 0 for a screen bottom
}

// WindowTargetID is a window target's id: "w-" and the window id in hex.
func WindowTargetID(id desktop.ID) string { return "w-" + id.String() }

// BottomTargetID is monitor i's bottom edge: "m0-bottom".
func BottomTargetID(i int) string { return "m" + strconv.Itoa(i) + "-bottom" }

// Targets returns the perch targets seen from the pet at pet: the top edges
// of visible, normal, non-minimised windows of other processes than pid
// whose top edge is on a monitor, nearest first (from the pet's feet to the
// nearest point of the edge; ties by id), at most MaxWindowTargets, then
// each monitor's bottom edge (the work area's) in monitor order.
func Targets(ms []desktop.Monitor, ws []desktop.Window, pet image.Rectangle, pid int) []Target {
	feet := image.Pt((pet.Min.X+pet.Max.X)/2, pet.Max.Y)
	type near struct {
		t Target
		d int
	}
	var found []near
	for _, w := range ws {
		t, ok := windowTarget(ms, w, pid)
		if !ok {
			continue
		}
		edge := image.Rect(w.Frame.Min.X, w.Frame.Min.Y, w.Frame.Max.X, w.Frame.Min.Y+1)
		found = append(found, near{t, distSq(edge, feet)})
	}
	slices.SortFunc(found, func(a, b near) int {
		if c := cmp.Compare(a.d, b.d); c != 0 {
			return c
		}
		return strings.Compare(a.t.ID, b.t.ID)
	})
	out := make([]Target, 0, min(len(found), MaxWindowTargets)+len(ms))
	for i := 0; i < len(found) && i < MaxWindowTargets; i++ {
		out = append(out, found[i].t)
	}
	for i, m := range ms {
		out = append(out, bottomTarget(ms, i, m))
	}
	return out
}

func bottomTarget(_ []desktop.Monitor, i int, m desktop.Monitor) Target {
	return Target{
		ID: BottomTargetID(i), Kind: KindScreenBottom, Monitor: i,
		X: m.WorkArea.Min.X - m.Bounds.Min.X, Y: m.WorkArea.Max.Y - m.Bounds.Min.Y, Width: m.WorkArea.Dx(),
	}
}

// windowTarget returns w as a target, ok false when the pet cannot perch
// on it: hidden, minimised, not a normal window, the pet's own process, or
// a top edge on no monitor. Its monitor is the one showing the widest part
// of the edge.
func windowTarget(ms []desktop.Monitor, w desktop.Window, pid int) (Target, bool) {
	if !w.Visible() || !w.Normal || (pid != 0 && w.PID == pid) {
		return Target{}, false
	}
	top := w.Frame.Min.Y
	best, bestW := -1, 0
	var seg image.Rectangle
	for i, m := range ms {
		if top < m.Bounds.Min.Y || top >= m.Bounds.Max.Y {
			continue
		}
		// Not image.Rect: it would swap the ends of a segment outside the monitor.
		lo, hi := max(w.Frame.Min.X, m.Bounds.Min.X), min(w.Frame.Max.X, m.Bounds.Max.X)
		if hi-lo > bestW {
			best, bestW, seg = i, hi-lo, image.Rectangle{Min: image.Pt(lo, top), Max: image.Pt(hi, top+1)}
		}
	}
	if best < 0 {
		return Target{}, false
	}
	o := ms[best].Bounds.Min
	return Target{
		ID: WindowTargetID(w.ID), Kind: KindWindowTop, App: appName(w), Title: w.Title, Monitor: best,
		X: seg.Min.X - o.X, Y: top - o.Y, Width: seg.Dx(), window: w.ID,
	}, true
}

// appName is the window's application name, its title when the platform
// gave none.
func appName(w desktop.Window) string {
	if w.App != "" {
		return w.App
	}
	return w.Title
}

// distSq is the squared distance from p to the nearest point of r.
func distSq(r image.Rectangle, p image.Point) int {
	dx := max(r.Min.X-p.X, 0, p.X-(r.Max.X-1))
	dy := max(r.Min.Y-p.Y, 0, p.Y-(r.Max.Y-1))
	return dx*dx + dy*dy
}
