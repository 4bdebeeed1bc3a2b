package petwindow

import "time"

// animator plays the current motion's frames at its frame rate on the
// process's FrameClock: it wakes only when a frame changes, so an idle
// pet whose motion changes frame four times a second costs about eight
// wake-ups a second instead of Fyne's animation runner's sixty, and a
// still pet (rate 0), a hidden one or a paused one costs none.
//
// A frame change takes two steps: prepare(i) first (the pet window sets
// its shape to the coming frame's), then frame(i) prepareLead later. An X
// server answers a shape that grows with an Expose event, which makes the
// driver repaint: sent ahead, it is handled in the same repaint as the
// frame change instead of costing one of its own.
//
// Its methods run on the Fyne main goroutine, and so do the clock's
// callbacks.
type animator struct {
	// prepare and frame are called with the index of the frame to show
	// when it changes.
	prepare, frame func(i int)
	clock          scheduler
	ownsClock      bool // made for this window alone: closed with it

	n      int
	fps    float64
	last   int
	due    int // frame prepared, shown after prepareLead; -1 when none
	loop   bool
	done   bool // a motion that does not loop reached its last frame
	on     bool // a motion plays
	paused bool // the window is hidden: nothing is scheduled
	// pace stretches the frame period: 1 plays at the motion's rate, 3
	// at a third of it (an idle pet while the user is away).
	pace float64
	// idlePace is the pace of the idle motion (PetWindow.SetIdlePace).
	idlePace float64
	gen      int // bumped by play and stop: a callback of an older one drops
	cancel   func()
	// pick, when set and ok, chooses the frame instead of the clock: the
	// talk motion's mouth following the audio (lip-sync), polled every
	// lipSyncPoll.
	pick func() (int, bool)
	acc  time.Duration // time polled since the last clock-paced change (lip-sync)
}

const (
	// prepareLead is how long the shape goes ahead of its frame: about
	// one display frame.
	prepareLead = 16 * time.Millisecond
	// lipSyncPoll is how often the mouth follows the audio while a talk
	// motion has a picker.
	lipSyncPoll = 33 * time.Millisecond
)

// MouthSource is implemented by PetOptions.Actions whose pet speaks
// aloud: the talk frame its audio's loudness asks for, among n frames;
// ok is false while no audio plays.
type MouthSource interface {
	MouthFrame(n int) (frame int, ok bool)
}

// scheduler runs fn on the UI goroutine after d, unless cancelled
// (FrameClock; a test drives its own).
type scheduler interface {
	after(d time.Duration, fn func()) (cancel func())
}

func newAnimator(clock scheduler, prepare, frame func(i int)) *animator {
	return &animator{clock: clock, prepare: prepare, frame: frame, due: -1, pace: 1, idlePace: 1}
}

// play shows frames 0..n-1 at fps, looping or stopping on the last one;
// n < 2 or fps <= 0 stops the animation. The first frame change comes
// one frame after the call.
func (a *animator) play(n int, fps float64, loop bool) {
	a.stop()
	if n < 2 || fps <= 0 {
		return
	}
	a.n, a.fps, a.last, a.due, a.loop, a.done, a.on, a.acc = n, fps, 0, -1, loop, false, true, 0
	a.schedule(a.period())
}

// period is the time between frame changes, or between lip-sync polls.
func (a *animator) period() time.Duration {
	if a.pick != nil {
		return lipSyncPoll
	}
	return a.framePeriod()
}

// framePeriod is the time between frame changes at the motion's rate and pace.
func (a *animator) framePeriod() time.Duration {
	return time.Duration(a.pace / a.fps * float64(time.Second))
}

// setPace stretches the frame period by f (1: the motion's own rate).
func (a *animator) setPace(f float64) {
	if f < 1 {
		f = 1
	}
	if f == a.pace {
		return
	}
	a.pace = f
	if a.on && !a.paused && a.due < 0 {
		a.schedule(a.period())
	}
}

// setPaused stops or resumes the frame changes (a hidden window).
func (a *animator) setPaused(p bool) {
	if p == a.paused {
		return
	}
	a.paused = p
	if p {
		a.unschedule()
		if a.due >= 0 { // show the prepared frame now: its shape is set
			i := a.due
			a.due = -1
			a.frame(i)
		}
		return
	}
	if a.on {
		a.schedule(a.period())
	}
}

// running reports whether frames are playing.
func (a *animator) running() bool { return a.on && (!a.done || a.due >= 0) }

// schedule arms the next step after d, replacing any armed one.
func (a *animator) schedule(d time.Duration) {
	a.unschedule()
	if a.paused || a.clock == nil {
		return
	}
	gen := a.gen
	a.cancel = a.clock.after(d, func() {
		if gen == a.gen {
			a.cancel = nil
			a.step()
		}
	})
}

func (a *animator) unschedule() {
	a.gen++
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
	}
}

// step shows a prepared frame, or prepares the next one.
func (a *animator) step() {
	if !a.on {
		return
	}
	if a.due >= 0 {
		i := a.due
		a.due = -1
		a.frame(i)
		if !a.done {
			a.schedule(max(a.period()-prepareLead, 0))
		}
		return
	}
	i := a.last + 1
	if a.pick != nil { // lip-sync: the audio picks, else the clock's pace
		a.acc += lipSyncPoll
		if j, ok := a.pick(); ok && j >= 0 && j < a.n {
			i = j
		} else if a.acc < a.framePeriod() {
			i = a.last
		}
		if i != a.last {
			a.acc = 0
		}
	}
	if i >= a.n {
		i = 0
		if !a.loop {
			a.done = true
			return
		}
	}
	if !a.loop && i == a.n-1 {
		a.done = true
	}
	if i == a.last {
		a.schedule(a.period())
		return
	}
	a.last = i
	a.due = i
	a.prepare(i)
	a.schedule(prepareLead)
}

// stop stops the animation.
func (a *animator) stop() {
	a.unschedule()
	a.on, a.done, a.due = false, false, -1
}
