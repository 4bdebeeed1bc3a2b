package desktop

import (
	"sync"
	"time"

	"yui/transport/clock"
)

// ActivityPoll is how often Activity reads the desktop: input idle time
// and the active window are read at most once a second (docs/product.md
// §11: the life scheduler's samples).
const ActivityPoll = time.Second

// ActivitySample is one reading: how long the user has not touched the
// keyboard or pointer (when the layer tells it) and the active window.
type ActivitySample struct {
	Idle      time.Duration
	IdleKnown bool
	Window    Window
	HasWindow bool
}

// Activity reads d every ActivityPoll on its clock's goroutine (never the
// UI's) and hands each sample to OnSample, outside its lock. A read that
// fails leaves its part of the sample unknown. Safe for concurrent use.
type Activity struct {
	d        Desktop
	idle     IdleReader // nil when the session tells no idle time
	clk      clock.Clock
	onSample func(ActivitySample)

	mu     sync.Mutex
	tick   clock.Slot
	closed bool
}

// NewActivity starts reading d, and the idle time from idle: the
// session's (SessionIdle), nil when it tells none. clk nil is the wall
// clock.
func NewActivity(d Desktop, idle IdleReader, clk clock.Clock, onSample func(ActivitySample)) *Activity {
	if clk == nil {
		clk = clock.Real{}
	}
	a := &Activity{d: d, idle: idle, clk: clk, onSample: onSample}
	a.mu.Lock()
	a.armLocked()
	a.mu.Unlock()
	return a
}

func (a *Activity) armLocked() {
	a.tick.Arm(a.clk, ActivityPoll, func(gen int) {
		a.mu.Lock()
		live := !a.closed && a.tick.Current(gen)
		a.mu.Unlock()
		if !live {
			return
		}
		s := a.read() // round trips: outside the lock
		a.onSample(s)
		a.mu.Lock()
		if !a.closed && a.tick.Current(gen) {
			a.armLocked()
		}
		a.mu.Unlock()
	})
}

// read takes one sample.
func (a *Activity) read() ActivitySample {
	var s ActivitySample
	if a.idle != nil {
		if idle, err := a.idle.UserIdle(); err == nil {
			s.Idle, s.IdleKnown = idle, true
		}
	}
	active := a.d.Active
	if n, ok := a.d.(activeNamer); ok {
		active = n.ActiveName
	}
	if w, ok, err := active(); err == nil && ok {
		s.Window, s.HasWindow = w, true
	}
	return s
}

// activeNamer is a desktop that reads the active window's id, title and
// application alone, in fewer requests than Active (x11_query.go).
type activeNamer interface {
	ActiveName() (Window, bool, error)
}

// Close stops reading. Idempotent.
func (a *Activity) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	a.tick.Stop()
}
