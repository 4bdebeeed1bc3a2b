package desktop

import (
	"sync"
	"time"

	"yui/transport/clock"
)

// QuietPoll is how often Quiet reads the active window.
const QuietPoll = 2 * time.Second

// Quiet is do-not-disturb: on while the active window is fullscreen (a
// film, a game, a presentation) or while the user switched it on by hand.
// It reads the active window every QuietPoll on its clock and calls
// OnChange, outside its lock, each time the state flips. Safe for
// concurrent use.
type Quiet struct {
	d        Desktop
	clk      clock.Clock
	onChange func(on bool)

	mu         sync.Mutex
	fullscreen bool
	manual     bool
	on         bool // fullscreen || manual, as last told
	tick       clock.Slot
	closed     bool
	deliver    sync.Mutex // one OnChange at a time, in order
}

// NewQuiet starts watching d; with d nil only the hand switch counts.
// onChange may be nil; clk nil is the wall clock.
func NewQuiet(d Desktop, clk clock.Clock, onChange func(on bool)) *Quiet {
	if clk == nil {
		clk = clock.Real{}
	}
	if onChange == nil {
		onChange = func(bool) {}
	}
	q := &Quiet{d: d, clk: clk, onChange: onChange}
	if d != nil {
		q.mu.Lock()
		q.armLocked()
		q.mu.Unlock()
	}
	return q
}

func (q *Quiet) armLocked() {
	q.tick.Arm(q.clk, QuietPoll, func(gen int) {
		// A round trip to the display server: outside the lock.
		w, ok, err := q.d.Active()
		full := err == nil && ok && w.Fullscreen && w.Visible()
		q.mu.Lock()
		if q.closed || !q.tick.Current(gen) {
			q.mu.Unlock()
			return
		}
		q.fullscreen = full
		q.armLocked()
		q.mu.Unlock()
		q.publish()
	})
}

// SetManual switches do-not-disturb on or off by hand (the pet menu, the
// tray). A fullscreen window keeps it on whatever the switch says.
func (q *Quiet) SetManual(on bool) {
	q.mu.Lock()
	q.manual = on
	q.mu.Unlock()
	q.publish()
}

// Manual reports the hand switch; a nil Quiet is off.
func (q *Quiet) Manual() bool {
	if q == nil {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.manual
}

// On reports whether do-not-disturb is on; a nil Quiet is off.
func (q *Quiet) On() bool {
	if q == nil {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.fullscreen || q.manual
}

// publish tells OnChange when the state flipped since it was last told.
func (q *Quiet) publish() {
	q.deliver.Lock()
	defer q.deliver.Unlock()
	q.mu.Lock()
	now := q.fullscreen || q.manual
	changed := now != q.on && !q.closed
	q.on = now
	q.mu.Unlock()
	if changed {
		q.onChange(now)
	}
}

// Close stops the polling; OnChange is not called after it returns,
// unless a call was under way. Idempotent.
func (q *Quiet) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.tick.Stop()
}
