package petwindow

import (
	"image"
	"math"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet/character"
)

// The body tool moves the pet window over the desktop (tools/body's Body
// seam, which the app adapts to these methods). Positions are the
// character's top-left corner in desktop pixels, not the window's: the
// window holds the bubble above the character and the composer below it,
// and it is the character that sits on a window or walks the floor.

// BodyState is the character as it is now.
type BodyState struct {
	// Rect is the character's rectangle in desktop pixels.
	Rect    image.Rectangle
	Visible bool
	// Emotion and Motion are the ids on screen.
	Emotion, Motion string
}

// bodyShared is what BodyState reads from any goroutine; the UI thread
// writes it each time the window moves, shows or draws a new motion.
type bodyShared struct {
	mu   sync.Mutex
	st   BodyState
	walk float64 // the pack's walking pace in desktop pixels a second
}

// bodyMove is the body tool's movement (UI thread only).
type bodyMove struct {
	anim   *fyne.Animation
	motion string // the motion the body tool shows; "" leaves the view's
	moving bool
	// then is the motion a PlayBody asked for during the move, shown on
	// arrival: the Actor's clock and the animation end at about the same
	// moment, and the move must not stop short.
	then string
	// right is true once the pet last went right: a side-facing pack is
	// drawn facing its way until it turns.
	right bool
	// landing is true while a pack's land motion plays where a fall
	// ended; land is its timer.
	landing bool
	land    *fyne.Animation
}

// BodyState returns the character's state. Any goroutine; it never waits
// for the UI thread.
func (w *PetWindow) BodyState() BodyState {
	w.shared.mu.Lock()
	defer w.shared.mu.Unlock()
	return w.shared.st
}

// syncBody publishes the window's state for BodyState. UI thread.
func (w *PetWindow) syncBody() {
	w.shared.mu.Lock()
	defer w.shared.mu.Unlock()
	w.shared.walk = 0
	if p := w.opts.Pack; p != nil {
		w.shared.walk = p.WalkSpeed * float64(w.shim.scale)
	}
	w.shared.st = BodyState{
		Rect:    standRect(w.geo.bodyRect(w.shim), w.opts.Pack).Add(w.placer.pos),
		Visible: w.visible,
		Emotion: w.view.Emotion,
		Motion:  w.shownMotion(),
	}
}

// shownMotion is the motion on screen: the body tool's while it moves the
// pet or while the controller's is idle, else the controller's.
func (w *PetWindow) shownMotion() string {
	if m := w.move.motion; m != "" && (w.move.moving || w.view.Motion == "" || w.view.Motion == "idle") {
		return m
	}
	return w.view.Motion
}

// MoveBody starts moving the character so that its top-left corner
// reaches to (desktop pixels) after d, at once when d is 0, showing motion
// on the way and after arriving until the next MoveBody or PlayBody. A
// move replaces the one running from wherever the window is. Any
// goroutine.
func (w *PetWindow) MoveBody(to image.Point, d time.Duration, motion string) {
	fyne.Do(func() {
		if w.closed.Load() {
			return
		}
		w.move.stop()
		w.move.motion = motion
		target := to.Sub(w.geo.bodyRect(w.shim).Min)
		if d <= 0 || w.placer.drag.active {
			if !w.placer.drag.active {
				w.placer.moveTo(target)
			}
			w.render(w.view)
			return
		}
		from := w.placer.pos
		if target.X != from.X {
			w.move.right = target.X > from.X
		}
		w.move.moving = true
		var a *fyne.Animation
		a = fyne.NewAnimation(d, func(f float32) {
			if w.closed.Load() || w.move.anim != a {
				return // closed, or replaced by a newer move
			}
			w.placer.moveTo(lerp(from, target, f))
			w.syncBody()
			if f >= 1 {
				w.move.moving = false
				w.move.anim = nil
				if w.move.then != "" {
					w.move.motion, w.move.then = w.move.then, ""
				}
				if motion == "fall" {
					w.startLanding()
				}
				w.render(w.view)
			}
		})
		a.Curve = fyne.AnimationLinear
		if motion == "fall" {
			a.Curve = fyne.AnimationEaseIn
		}
		w.move.anim = a
		w.render(w.view)
		a.Start()
	})
}

// lerp is the point a fraction f of the way from a to b, rounded to the
// nearest pixel (b itself at f = 1).
func lerp(a, b image.Point, f float32) image.Point {
	at := func(u, v int) int { return u + int(math.Round(float64(v-u)*float64(f))) }
	return image.Pt(at(a.X, b.X), at(a.Y, b.Y))
}

// PlayBody shows motion where the character stands, or, during a move,
// once it has arrived. Any goroutine.
func (w *PetWindow) PlayBody(motion string) {
	fyne.Do(func() {
		if w.closed.Load() {
			return
		}
		if w.move.moving {
			w.move.then = motion
			return
		}
		w.move.motion = motion
		w.render(w.view)
	})
}

// SetBodyVisible shows or hides the pet window. Any goroutine.
func (w *PetWindow) SetBodyVisible(visible bool) {
	fyne.Do(func() {
		if w.closed.Load() {
			return
		}
		if visible {
			w.Show()
		} else {
			w.Hide()
		}
	})
}

// WalkSpeed is the character's walking pace in desktop pixels a second,
// 0 for the app's own (the body tool's pace). Any goroutine.
func (w *PetWindow) WalkSpeed() float64 {
	w.shared.mu.Lock()
	defer w.shared.mu.Unlock()
	return w.shared.walk
}

// startLanding plays the pack's land motion once where a fall ended.
// UI thread.
func (w *PetWindow) startLanding() {
	p := w.opts.Pack
	if !p.Has(character.MotionLand) {
		return
	}
	w.move.landing = true
	var a *fyne.Animation
	a = fyne.NewAnimation(p.Motions[character.MotionLand].Length(), func(f float32) {
		if f < 1 || w.closed.Load() || w.move.land != a {
			return
		}
		w.move.landing, w.move.land = false, nil
		w.render(w.view)
	})
	w.move.land = a
	a.Start()
}

// stop stops the running move where the window is. UI thread.
func (m *bodyMove) stop() {
	if m.land != nil {
		m.land.Stop()
		m.land = nil
	}
	m.landing = false
	if m.anim != nil {
		m.anim.Stop()
		m.anim = nil
	}
	m.moving = false
}

// standRect is the character's rectangle r down to its feet line (the
// pack's feet point): what hangs below it, the legs of a pet sitting on
// a window's edge, hangs over the edge.
func standRect(r image.Rectangle, p *character.Pack) image.Rectangle {
	if p != nil && p.Size[1] > 0 && p.Feet.Y > 0 && p.Feet.Y < p.Size[1] {
		r.Max.Y = r.Min.Y + int(float64(r.Dy())*float64(p.Feet.Y)/float64(p.Size[1])+0.5)
	}
	return r
}
