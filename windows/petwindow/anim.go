package petwindow

import (
	"time"

	"fyne.io/fyne/v2"
)

// animator plays the current motion's frames at its frame rate on Fyne's
// own animation tick: the driver calls it on the main goroutine right
// before it paints, so a frame change costs no timer, goroutine or
// fyne.Do hand-off of its own, and a still pet (rate 0) has no animation
// registered at all.
//
// A frame change takes two ticks: prepare(i) first (the pet window sets
// its shape to the coming frame's), then frame(i) one tick later. An X
// server answers a shape that grows with an Expose event, which makes the
// driver repaint: sent a tick ahead, it is handled in the same repaint as
// the frame change instead of costing one of its own.
//
// Its methods run on the Fyne main goroutine.
type animator struct {
	// prepare and frame are called with the index of the frame to show
	// when it changes.
	prepare, frame func(i int)

	anim *fyne.Animation
	n    int
	last int
	due  int // frame prepared, shown on the next tick; -1 when none
	loop bool
	done bool // a motion that does not loop reached its last frame
	// pick, when set and ok, chooses the frame instead of the clock: the
	// talk motion's mouth following the audio (lip-sync).
	pick func() (int, bool)
}

// MouthSource is implemented by PetOptions.Actions whose pet speaks
// aloud: the talk frame its audio's loudness asks for, among n frames;
// ok is false while no audio plays.
type MouthSource interface {
	MouthFrame(n int) (frame int, ok bool)
}

func newAnimator(prepare, frame func(i int)) *animator {
	return &animator{prepare: prepare, frame: frame, due: -1}
}

// play shows frames 0..n-1 at fps, looping or stopping on the last one;
// n < 2 or fps <= 0 stops the animation. The first frame change comes
// one frame after the call.
func (a *animator) play(n int, fps float64, loop bool) {
	a.stop()
	if n < 2 || fps <= 0 {
		return
	}
	a.n, a.last, a.due, a.loop, a.done = n, 0, -1, loop, false
	a.anim = fyne.NewAnimation(time.Duration(float64(n)/fps*float64(time.Second)), a.tick)
	a.anim.Curve = fyne.AnimationLinear
	if loop {
		a.anim.RepeatCount = fyne.AnimationRepeatForever
	}
	a.anim.Start()
}

// running reports whether frames are playing.
func (a *animator) running() bool { return a.anim != nil && (!a.done || a.due >= 0) }

func (a *animator) tick(p float32) {
	if a.due >= 0 {
		i := a.due
		a.due = -1
		a.frame(i)
	}
	i := min(int(p*float32(a.n)), a.n-1)
	if a.pick != nil { // lip-sync
		if j, ok := a.pick(); ok && j >= 0 && j < a.n {
			i = j
		}
	}
	if !a.loop && p >= 1 {
		a.done = true
	}
	if i == a.last {
		return
	}
	a.last = i
	a.due = i
	a.prepare(i)
}

// stop stops the animation.
func (a *animator) stop() {
	if a.anim != nil {
		a.anim.Stop()
		a.anim = nil
	}
}
