package body

import (
	"context"
	"image"

	"yui/tools/desktop"
	"yui/transport/clientctx"
	"yui/transport/toolcall"
)

// run executes a plan and waits for its result.
func (a *Actor) run(ctx context.Context, p plan) string {
	j := &job{done: make(chan string, 1), end: p.end, result: p.result, lost: p.lost, dx: p.dx}
	if p.perch != nil {
		j.perched, j.win = true, *p.perch
		// The watch starts before the move so that no move of the window
		// during the approach is missed. It is a round trip: outside the lock.
		stop, err := a.o.Desktop.Watch(p.perch.ID, func(c desktop.Change) { a.onWindow(j, c) })
		if err != nil {
			return p.lost
		}
		j.stop = stop
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		if j.stop != nil {
			j.stop()
		}
		return toolcall.ErrTurnStopped
	}
	a.replaceLocked(j)
	j.started = true
	if j.gone {
		a.endLocked(j)
		a.mu.Unlock()
		return p.lost
	}
	if p.visible != nil {
		a.o.Body.SetVisible(*p.visible)
	}
	if p.move && p.d > 0 {
		a.o.Body.MoveTo(p.to, p.d, p.motion)
		j.timer = a.o.Clock.AfterFunc(p.d, func() { a.arrive(j) })
	} else {
		if p.move {
			a.o.Body.MoveTo(p.to, 0, p.end)
		}
		a.arriveLocked(j)
	}
	a.mu.Unlock()

	select {
	case res := <-j.done:
		return res
	case <-ctx.Done():
		a.cancel(j)
		return toolcall.ErrTurnStopped
	}
}

// replaceLocked makes j the current job, ending the one before it: an
// action no longer waited for, or the perch left. a.mu is held.
func (a *Actor) replaceLocked(j *job) {
	if old := a.cur; old != nil {
		a.endLocked(old)
		old.offer(toolcall.ErrTurnStopped)
	}
	a.cur = j
}

// endLocked stops j's timer and watch. a.mu is held.
func (a *Actor) endLocked(j *job) {
	if j.timer != nil {
		j.timer.Stop()
	}
	if j.stop != nil {
		j.stop()
	}
	if a.cur == j {
		a.cur = nil
	}
}

func (a *Actor) arrive(j *job) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur == j {
		a.arriveLocked(j)
	}
}

// arriveLocked ends j's movement: the pet sits on its window (where the
// window is now) or stands, and the result goes out. a.mu is held.
func (a *Actor) arriveLocked(j *job) {
	j.arrived = true
	if j.perched {
		size := a.o.Body.State().Rect.Size()
		a.o.Body.MoveTo(sitPoint(a.monitors, j.win, j.dx, size), 0, Sit)
	} else {
		a.o.Body.Play(j.end)
		a.cur = nil
	}
	j.offer(j.result)
}

// onWindow follows the window sat on: it moves with it, and falls to the
// screen bottom when it closes or is minimised.
func (a *Actor) onWindow(j *job, c desktop.Change) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !j.started {
		// Between the watch's start and the job's: keep what it says.
		switch c.Kind {
		case desktop.Moved:
			j.win = c.Window
		default:
			j.gone = true
		}
		return
	}
	if a.cur != j {
		return // a change that arrived after the perch ended
	}
	switch c.Kind {
	case desktop.Moved:
		j.win = c.Window
		if j.arrived {
			size := a.o.Body.State().Rect.Size()
			a.o.Body.MoveTo(sitPoint(a.monitors, j.win, j.dx, size), 0, Sit)
		}
	case desktop.Minimized, desktop.Closed:
		a.endLocked(j)
		j.offer(j.lost)
		a.fallLocked()
	}
}

// fallLocked drops the pet to the bottom of the monitor it is on. a.mu is held.
func (a *Actor) fallLocked() {
	r := a.o.Body.State().Rect
	i := desktop.MonitorAt(a.monitors, center(r))
	if i < 0 {
		a.o.Body.Play(Idle)
		return
	}
	wa := a.monitors[i].WorkArea
	to := keepIn(image.Pt(r.Min.X, wa.Max.Y-r.Dy()), r.Size(), wa)
	d := fallTime(dist(r.Min, to))
	f := &job{done: make(chan string, 1), end: Idle}
	a.cur = f
	if d == 0 {
		a.o.Body.MoveTo(to, 0, Idle)
		a.arriveLocked(f)
		return
	}
	a.o.Body.MoveTo(to, d, Fall)
	f.timer = a.o.Clock.AfterFunc(d, func() { a.arrive(f) })
}

// cancel ends j when its caller stopped waiting: the pet stops where it is.
func (a *Actor) cancel(j *job) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur != j || j.arrived {
		return
	}
	a.endLocked(j)
	a.o.Body.MoveTo(a.o.Body.State().Rect.Min, 0, Idle)
}

// UserDragged is called by the pet window when the user starts dragging
// it. A running action ends with ErrDragged and the pet leaves the window
// it sat on; where it lands is the drag's business.
func (a *Actor) UserDragged() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if j := a.cur; j != nil {
		a.endLocked(j)
		j.offer(ErrDragged)
	}
}

// PerchInfo is the window the pet sits on, for look body.
type PerchInfo struct {
	Kind  string `json:"kind"`
	App   string `json:"app"`
	Title string `json:"title"`
}

// Perch returns the window the pet sits on; ok is false when it stands
// (on the screen bottom or anywhere else) or is on its way.
func (a *Actor) Perch() (p PerchInfo, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if j := a.cur; j != nil && j.perched && j.arrived {
		return PerchInfo{Kind: KindWindowTop, App: appName(j.win), Title: j.win.Title}, true
	}
	return PerchInfo{}, false
}

// Place values of the character line (docs/protocol/client-context.md).
const (
	PlaceWalking = "walking"
	PlaceTaskbar = "on the taskbar"
)

// Place is where the pet is for the client_context character line:
// `sitting on "<app>"`, "walking" while it moves, "on the taskbar" when it
// stands on a monitor's bottom edge, else "" (hidden, or standing
// anywhere else), which leaves the place out.
func (a *Actor) Place() string {
	ms, _ := a.Monitors() // read once, outside the lock, when none were
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.monitors == nil {
		a.monitors = ms
	}
	if j := a.cur; j != nil {
		if j.perched && j.arrived {
			return clientctx.SittingOn(appName(j.win))
		}
		return PlaceWalking
	}
	st := a.o.Body.State()
	if !st.Visible {
		return ""
	}
	if i := desktop.MonitorAt(a.monitors, center(st.Rect)); i >= 0 && st.Rect.Max.Y == a.monitors[i].WorkArea.Max.Y {
		return PlaceTaskbar
	}
	return ""
}

// Targets returns look perch_targets' list for the pet where it stands.
func (a *Actor) Targets() ([]Target, error) {
	ms, err := a.o.Desktop.Monitors()
	if err != nil {
		return nil, err
	}
	ws, err := a.o.Desktop.Windows()
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.monitors = ms
	a.mu.Unlock()
	return Targets(ms, ws, a.o.Body.State().Rect, a.o.PID), nil
}

// Monitors returns the monitors as last read, reading them when none were.
func (a *Actor) Monitors() ([]desktop.Monitor, error) {
	a.mu.Lock()
	ms := a.monitors
	a.mu.Unlock()
	if ms != nil {
		return ms, nil
	}
	ms, err := a.o.Desktop.Monitors()
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.monitors = ms
	a.mu.Unlock()
	return ms, nil
}

// Refresh reads the monitors again; the app calls it when the monitor
// layout changes, so Place and look measure against the new one.
func (a *Actor) Refresh() error {
	ms, err := a.o.Desktop.Monitors()
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.monitors = ms
	a.mu.Unlock()
	return nil
}

// Close ends the running action ("error: turn stopped") and the perch.
// Later calls answer "error: turn stopped". Idempotent.
func (a *Actor) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	if j := a.cur; j != nil {
		a.endLocked(j)
		j.offer(toolcall.ErrTurnStopped)
	}
}

// State returns the pet window's state (Body.State).
func (a *Actor) State() State { return a.o.Body.State() }
