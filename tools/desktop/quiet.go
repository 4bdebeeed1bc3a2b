package desktop

import (
	"image"
	"os"
	"slices"
	"sync"
	"time"

	"yui/transport/clock"
)

// QuietPoll is how often Quiet reads the active window.
const QuietPoll = 2 * time.Second

// QuietRecheck is how long Quiet goes without reading the windows again
// when its desktop counts changes (changeCounter) and saw none: a window
// made fullscreen without moving or being restacked (it covered its
// monitor already) shows no change the count sees, and is found by this
// read.
const QuietRecheck = 10 * time.Second

// changeCounter is a desktop that counts the changes that may change
// what Quiet reads: a window mapped, unmapped, moved, resized,
// restacked, made or destroyed, and the root window's properties (the
// active window, the window manager's client lists). While the count
// stands still, reading the windows again would find what the last read
// found: on an idle desktop that read was nearly all an idle pet asked of
// the X server (a round trip for each top-level window every QuietPoll,
// each waking four goroutines).
type changeCounter interface{ Changes() uint64 }

// Quiet is do-not-disturb: on everywhere while the user switched it on by
// hand, and on one monitor while a fullscreen window (a film, a game, a
// presentation) is the active window there or the topmost window of
// another application on it: the pets on that monitor hide, the others
// stay. It reads the windows every QuietPoll on its clock (on a desktop
// that counts its changes, only after one, or QuietRecheck after the last
// read) and calls OnChange, outside its lock, each time the state flips
// or the quiet monitors change. Safe for concurrent use.
type Quiet struct {
	d        Desktop
	clk      clock.Clock
	onChange func(on bool)

	mu         sync.Mutex
	self       int               // this process: its own windows cover nothing
	fullscreen []image.Rectangle // the quiet monitors' bounds
	told       []image.Rectangle // fullscreen as last told, nil while manual
	toldManual bool
	manual     bool
	on         bool // fullscreen || manual, as last told
	tick       clock.Slot
	closed     bool
	deliver    sync.Mutex // one OnChange at a time, in order
	// read is the change count and the time of the last read, for a
	// desktop that counts; only the poll's goroutine uses it.
	read struct {
		done    bool
		changes uint64
		at      time.Time
	}
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
	q := &Quiet{d: d, clk: clk, onChange: onChange, self: os.Getpid()}
	if d != nil {
		q.mu.Lock()
		q.armLocked()
		q.mu.Unlock()
	}
	return q
}

func (q *Quiet) armLocked() {
	q.tick.Arm(q.clk, QuietPoll, func(gen int) {
		// Round trips to the display server: outside the lock.
		full, fresh := q.readIfChanged()
		q.mu.Lock()
		if q.closed || !q.tick.Current(gen) {
			q.mu.Unlock()
			return
		}
		if fresh {
			q.fullscreen = full
		}
		q.armLocked()
		q.mu.Unlock()
		if fresh {
			q.publish()
		}
	})
}

// readIfChanged reads the windows (readWindows), unless the desktop
// counts its changes and none came since the last read, within
// QuietRecheck of it; fresh is false when it did not read. The count is
// taken before the read, so that a change during the read makes the next
// poll read again.
func (q *Quiet) readIfChanged() (full []image.Rectangle, fresh bool) {
	cc, counts := q.d.(changeCounter)
	if !counts {
		return q.readWindows(), true
	}
	n, now := cc.Changes(), q.clk.Now()
	if q.read.done && n == q.read.changes && now.Sub(q.read.at) < QuietRecheck {
		return nil, false
	}
	full = q.readWindows()
	q.read.done, q.read.changes, q.read.at = true, n, now
	return full, true
}

// stateReader is a desktop that reads the windows' state alone, with the
// active window's id, in fewer requests than Windows and Active (x11_query.go).
type stateReader interface {
	WindowStates() (ws []Window, active ID, err error)
}

// readWindows returns the bounds of the monitors a fullscreen window covers: the
// active window's, and each monitor's whose topmost window of another
// application is fullscreen (a film left playing on one monitor while the
// user works on the other). An unreadable desktop covers none.
func (q *Quiet) readWindows() []image.Rectangle {
	ms, err := q.d.Monitors()
	if err != nil || len(ms) == 0 {
		return nil
	}
	var ws []Window
	var active Window
	var hasActive bool
	if sr, ok := q.d.(stateReader); ok {
		var id ID
		if ws, id, err = sr.WindowStates(); err != nil {
			return nil
		}
		if i := slices.IndexFunc(ws, func(w Window) bool { return w.ID == id }); id != 0 && i >= 0 {
			active, hasActive = ws[i], true
		} else if id != 0 {
			// Focus on a window the manager does not list.
			active, hasActive, err = q.d.Active()
			hasActive = hasActive && err == nil
		}
	} else {
		active, hasActive, err = q.d.Active()
		hasActive = hasActive && err == nil
		if ws, err = q.d.Windows(); err != nil {
			return nil
		}
	}
	return quietMonitors(ms, ws, active, hasActive, q.self)
}

// quietMonitors is read's rule over what it read: ws top first, active
// the focused window when hasActive, self this process.
func quietMonitors(ms []Monitor, ws []Window, active Window, hasActive bool, self int) []image.Rectangle {
	quiet := make([]bool, len(ms))
	if hasActive && active.Fullscreen && active.Visible() {
		quiet[MonitorAt(ms, centre(active.Frame))] = true
	}
	seen := make([]bool, len(ms))
	for _, w := range ws { // topmost first
		if !w.Visible() || (w.PID == self && w.PID != 0) || !(w.Normal || w.Fullscreen) {
			continue
		}
		if i := MonitorAt(ms, centre(w.Frame)); !seen[i] {
			seen[i] = true
			quiet[i] = quiet[i] || w.Fullscreen
		}
	}
	var out []image.Rectangle
	for i, m := range ms {
		if quiet[i] {
			out = append(out, m.Bounds)
		}
	}
	return out
}

func centre(r image.Rectangle) image.Point {
	return image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
}

// Hides reports whether do-not-disturb applies to a character at r
// (desktop pixels): switched on by hand, or r's centre on a monitor a
// fullscreen window covers. An empty r (a pet not placed yet) follows On.
// A nil Quiet hides nothing.
func (q *Quiet) Hides(r image.Rectangle) bool {
	if q == nil {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.manual || (r.Empty() && len(q.fullscreen) > 0) {
		return true
	}
	c := centre(r)
	for _, m := range q.fullscreen {
		if c.In(m) {
			return true
		}
	}
	return false
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
	return len(q.fullscreen) > 0 || q.manual
}

// publish tells OnChange when the state flipped, or the quiet monitors
// changed, since it was last told.
func (q *Quiet) publish() {
	q.deliver.Lock()
	defer q.deliver.Unlock()
	q.mu.Lock()
	now := len(q.fullscreen) > 0 || q.manual
	// On by hand every pet hides: which monitors are covered matters
	// again once the switch is off.
	full := q.fullscreen
	if q.manual {
		full = nil
	}
	changed := (now != q.on || q.manual != q.toldManual || !slices.Equal(full, q.told)) && !q.closed
	q.on, q.told, q.toldManual = now, full, q.manual
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
