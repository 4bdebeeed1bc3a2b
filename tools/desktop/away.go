package desktop

import (
	"sync"
	"time"

	"yui/transport/clock"
)

// IdleReader is a desktop layer that knows how long the user has not
// touched the keyboard or mouse (X11: the screensaver extension; Windows:
// GetLastInputInfo). Assert a Desktop to it.
type IdleReader interface {
	UserIdle() (time.Duration, error)
}

// Away polling and its default threshold.
const (
	AwayPoll  = 5 * time.Second
	AwayAfter = 5 * time.Minute
)

// Away tracks whether the user is away: idle for at least After. It reads
// the idle time every AwayPoll on its clock and calls OnChange, outside its
// lock, when the user leaves or comes back. A read that fails changes
// nothing. Safe for concurrent use.
type Away struct {
	read     IdleReader
	clk      clock.Clock
	after    time.Duration
	onChange func(away bool)

	mu     sync.Mutex
	away   bool
	tick   clock.Slot
	closed bool
}

// NewAway starts polling r. after <= 0 is AwayAfter; clk nil the wall clock.
func NewAway(r IdleReader, clk clock.Clock, after time.Duration, onChange func(away bool)) *Away {
	if clk == nil {
		clk = clock.Real{}
	}
	if after <= 0 {
		after = AwayAfter
	}
	a := &Away{read: r, clk: clk, after: after, onChange: onChange}
	a.mu.Lock()
	a.armLocked()
	a.mu.Unlock()
	return a
}

func (a *Away) armLocked() {
	a.tick.Arm(a.clk, AwayPoll, func(gen int) {
		idle, err := a.read.UserIdle() // a round trip: outside the lock
		a.mu.Lock()
		if a.closed || !a.tick.Current(gen) {
			a.mu.Unlock()
			return
		}
		a.armLocked()
		changed := err == nil && (idle >= a.after) != a.away
		if changed {
			a.away = !a.away
		}
		away := a.away
		a.mu.Unlock()
		if changed && a.onChange != nil {
			a.onChange(away)
		}
	})
}

// Away reports whether the user is away.
func (a *Away) Away() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.away
}

// Close stops polling. Idempotent.
func (a *Away) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	a.tick.Stop()
}
