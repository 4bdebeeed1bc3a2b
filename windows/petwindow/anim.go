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
// Fyne's main loop ticks at 60 Hz for any window, animated or not (a bare
// window's loop wakes as often), so the tick itself costs an idle pet
// nothing extra: what costs is each frame change (a repaint, and a shape
// when the silhouette moved). So the idle cycle slows while nobody
// watches it (pace), and a hidden window plays nothing (paused).
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

	// pace stretches the cycle: 1 plays at the motion's rate, 3 at a
	// third of it. idlePace is the idle motion's (PetWindow.SetIdlePace).
	pace, idlePace float64
	// paused: the window is hidden, the motion waits (resume restarts it).
	paused bool
	fps    float64
	total  time.Duration // one run of the motion at its own pace
	// ends, when the frames have durations of their own, is where each
	// frame ends as a fraction of the run.
	ends []float32
}

// MouthSource is implemented by Options.Actions whose pet speaks
// aloud: the talk frame its audio's loudness asks for, among n frames;
// ok is false while no audio plays.
type MouthSource interface {
	MouthFrame(n int) (frame int, ok bool)
}

func newAnimator(prepare, frame func(i int)) *animator {
	return &animator{prepare: prepare, frame: frame, due: -1, pace: 1, idlePace: 1}
}

// play shows frames 0..n-1 at fps, or each for its duration when durs
// has one a frame (an imported set's poses), looping or stopping on the
// last one; n < 2 or fps <= 0 stops the animation. The first frame
// change comes one frame after the call.
func (a *animator) play(n int, fps float64, loop bool, durs []time.Duration) {
	a.stop()
	if n < 2 || fps <= 0 {
		a.n = 0
		return
	}
	a.n, a.fps, a.last, a.due, a.loop, a.done, a.ends = n, fps, 0, -1, loop, false, nil
	a.total = time.Duration(float64(n) / fps * float64(time.Second))
	if len(durs) == n {
		a.total = 0
		for _, d := range durs {
			a.total += d
		}
		var at time.Duration
		for _, d := range durs {
			at += d
			a.ends = append(a.ends, float32(float64(at)/float64(a.total)))
		}
	}
	if !a.paused {
		a.start()
	}
}

// start registers the motion with Fyne's runner, at the pace set.
func (a *animator) start() {
	a.anim = fyne.NewAnimation(time.Duration(float64(a.total)*max(a.pace, 1)), a.tick)
	a.anim.Curve = fyne.AnimationLinear
	if a.loop {
		a.anim.RepeatCount = fyne.AnimationRepeatForever
	}
	a.anim.Start()
}

// setPace stretches the cycle by f (1: the motion's own rate); a looping
// motion playing restarts at the new pace.
func (a *animator) setPace(f float64) {
	f = max(f, 1)
	if f == a.pace {
		return
	}
	a.pace = f
	if a.anim != nil && a.loop && !a.paused {
		a.stopRunner()
		a.start()
	}
}

// setPaused stops the frame changes of a hidden window, and resumes them.
func (a *animator) setPaused(p bool) {
	if p == a.paused {
		return
	}
	a.paused = p
	switch {
	case p:
		a.stopRunner()
		if a.due >= 0 { // its shape is set: show it
			i := a.due
			a.due = -1
			a.frame(i)
		}
	case a.n >= 2 && !a.done:
		a.start()
	}
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
	if a.ends != nil {
		i = 0
		for i < a.n-1 && p >= a.ends[i] {
			i++
		}
	}
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
	a.stopRunner()
	a.n = 0
}

func (a *animator) stopRunner() {
	if a.anim != nil {
		a.anim.Stop()
		a.anim = nil
	}
}
