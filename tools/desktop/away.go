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

// IdleWatcher is an idle source that says itself when the user goes away
// and comes back (GNOME's idle monitor: idle_bus.go), so that Away needs
// no polling. f runs on the source's goroutine, one call at a time; stop
// is idempotent.
type IdleWatcher interface {
	WatchIdle(after time.Duration, f func(away bool)) (stop func(), err error)
}

// Away polling and its default threshold.
const (
	AwayPoll  = 5 * time.Second
	AwayAfter = 5 * time.Minute
)

// Away tracks whether the user is away: idle for at least After. It reads
// the idle time every AwayPoll on its clock, or follows an IdleWatcher's
// changes where the source is one, and calls OnChange, outside its lock,
// when the user leaves or comes back. A read that fails changes nothing.
// Safe for concurrent use.
type Away struct {
	read     IdleReader
	clk      clock.Clock
	after    time.Duration
	onChange func(away bool)

	mu        sync.Mutex
	away      bool
	tick      clock.Slot
	stopWatch func() // the IdleWatcher's watch; nil while polling
	closed    bool
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
	if w, ok := r.(IdleWatcher); ok {
		if stop, err := w.WatchIdle(after, a.set); err == nil {
			a.mu.Lock()
			a.stopWatch = stop
			closed := a.closed
			a.mu.Unlock()
			if closed {
				stop()
			}
			return a
		}
	}
	a.mu.Lock()
	a.armLocked()
	a.mu.Unlock()
	return a
}

// set is a watcher's change.
func (a *Away) set(away bool) {
	a.mu.Lock()
	changed := !a.closed && away != a.away
	if changed {
		a.away = away
	}
	a.mu.Unlock()
	if changed && a.onChange != nil {
		a.onChange(away)
	}
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

// Close stops polling or watching. Idempotent.
func (a *Away) Close() {
	a.mu.Lock()
	a.closed = true
	a.tick.Stop()
	stop := a.stopWatch
	a.mu.Unlock()
	if stop != nil {
		stop() // outside the lock: a change may be on its way into set
	}
}
