package body

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"yui/tools/desktop"
	"yui/transport"
	"yui/transport/clientctx"
	"yui/transport/clock"
	"yui/transport/toolcall"
)

// Options are what an Actor needs.
type Options struct {
	Desktop desktop.Desktop
	Body    Body
	// Home returns the preset's home position (the window's top-left in
	// desktop pixels). Nil: the primary monitor's bottom-right corner.
	Home func() image.Point
	// PID is the pet's own process: its windows are no perch targets.
	PID   int
	Clock clock.Clock  // nil: the wall clock
	Log   *slog.Logger // nil discards
	// WalkSpeed returns the character's walking pace in desktop pixels a
	// second (an imported set walks at its own); nil or 0 is WalkSpeed.
	WalkSpeed func() float64
}

// Actor plans and runs body actions for one pet window, and keeps it on
// the window it sits on. Safe for concurrent use.
type Actor struct {
	o Options

	mu       sync.Mutex
	cur      *job // the action running, or the perch being kept
	monitors []desktop.Monitor
	closed   bool
}

// job is one action from its start until its movement ends, and then, for
// a perch, for as long as the pet sits on the window.
type job struct {
	done    chan string // buffered 1: the first result wins
	timer   clock.Timer
	stop    func() // ends the window watch; nil without one
	arrived bool
	end     Motion // shown on arrival
	result  string

	started bool           // a.cur has been j; changes before are kept in win and gone
	gone    bool           // the window closed or was minimised before the start
	perched bool           // sits on win once arrived
	win     desktop.Window // the window sat on, as last seen
	dx      int            // the pet's left edge from the window's
	lost    string         // result when the window goes before arrival
}

func (j *job) offer(res string) {
	select {
	case j.done <- res:
	default:
	}
}

// New returns an Actor. Desktop and Body are required.
func New(o Options) *Actor {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Actor{o: o}
}

// Handle is the body_action tool handler.
func (a *Actor) Handle(ctx context.Context, call transport.ToolCall) transport.ToolResult {
	return transport.ToolResult{Text: a.Do(ctx, call.Arguments)}
}

// Tool returns the body_action tool over a.
func (a *Actor) Tool() transport.Tool {
	return transport.Tool{Name: Name, Description: Description, Parameters: json.RawMessage(Parameters), Wait: Wait, Handler: a.Handle}
}

// args are body_action's arguments; nil pointers are absent fields.
type args struct {
	action      Action
	app, target *string
	monitor     *int
	x, y        *int
}

// parseArgs reads the arguments again (the runner checked them against the
// schema; this keeps the handler safe on its own).
func parseArgs(raw json.RawMessage) (args, string) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return args{}, toolcall.InvalidField("arguments")
	}
	var a args
	str := func(name string) (*string, string) {
		v, ok := fields[name]
		if !ok {
			return nil, ""
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, toolcall.InvalidField(name)
		}
		return &s, ""
	}
	num := func(name string) (*int, string) {
		v, ok := fields[name]
		if !ok {
			return nil, ""
		}
		var n int64
		if json.Unmarshal(v, &n) != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return nil, toolcall.InvalidField(name)
		}
		i := int(n)
		return &i, ""
	}
	for k := range fields {
		switch k {
		case "action", "app", "target_id", "monitor", "x", "y":
		default:
			return args{}, toolcall.InvalidField(k)
		}
	}
	act, msg := str("action")
	switch {
	case msg != "":
		return args{}, msg
	case act == nil:
		return args{}, toolcall.MissingField("action")
	}
	a.action = Action(*act)
	switch a.action {
	case SitOnWindow, Perch, WalkTo, MoveTo, GoHome, Hide, Show:
	default:
		return args{}, toolcall.InvalidField("action")
	}
	for _, f := range []struct {
		name string
		s    **string
		n    **int
	}{{"app", &a.app, nil}, {"target_id", &a.target, nil}, {"monitor", nil, &a.monitor}, {"x", nil, &a.x}, {"y", nil, &a.y}} {
		if f.s != nil {
			*f.s, msg = str(f.name)
		} else {
			*f.n, msg = num(f.name)
		}
		if msg != "" {
			return args{}, msg
		}
	}
	need := map[Action][]string{SitOnWindow: {"app"}, Perch: {"target_id"}, WalkTo: {"x"}, MoveTo: {"x", "y"}}
	for _, name := range need[a.action] {
		if _, ok := fields[name]; !ok {
			return args{}, toolcall.MissingField(name)
		}
	}
	return a, ""
}

// Do runs one body_action call and returns its result text once the
// movement has ended, the user dragged the pet (ErrDragged), or ctx ended
// ("error: turn stopped"; the pet then stops where it is).
func (a *Actor) Do(ctx context.Context, raw json.RawMessage) string {
	in, msg := parseArgs(raw)
	if msg != "" {
		return msg
	}
	if ctx.Err() != nil || a.isClosed() {
		return toolcall.ErrTurnStopped
	}
	// The desktop is read outside the lock: a round trip to the display
	// server must not hold up a drag.
	ms, err := a.o.Desktop.Monitors()
	if err != nil || len(ms) == 0 {
		a.o.Log.Warn("body_action: no monitors", "err", errString(err))
		return "error: the desktop cannot be read"
	}
	var ws []desktop.Window
	if in.action == SitOnWindow || in.action == Perch {
		if ws, err = a.o.Desktop.Windows(); err != nil {
			a.o.Log.Warn("body_action: no window list", "err", err.Error())
			return "error: the desktop cannot be read"
		}
	}
	a.mu.Lock()
	a.monitors = ms
	p, msg := a.planLocked(in, ms, ws)
	a.mu.Unlock()
	if msg != "" {
		return msg
	}
	return a.run(ctx, p)
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

// plan is what an action does.
type plan struct {
	move    bool
	to      image.Point
	d       time.Duration
	motion  Motion // on the way
	end     Motion // after arriving
	visible *bool
	perch   *desktop.Window // the window to sit on
	dx      int
	result  string
	lost    string
}

func (a *Actor) isClosed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.closed
}

// planLocked turns arguments into a plan. a.mu is held.
func (a *Actor) planLocked(in args, ms []desktop.Monitor, ws []desktop.Window) (plan, string) {
	st := a.o.Body.State()
	r := st.Rect
	here := desktop.MonitorAt(ms, center(r))
	tm := here
	if in.monitor != nil {
		if *in.monitor < 0 || *in.monitor >= len(ms) {
			return plan{}, toolcall.InvalidField("monitor")
		}
		tm = *in.monitor
	}
	switch in.action {
	case SitOnWindow:
		return a.sitOnWindowPlan(in, ms, ws, r, tm)
	case Perch:
		return a.perchPlan(*in.target, ms, ws, r)
	case WalkTo:
		return a.walkToPlanLocked(*in.x, ms, r, tm, here), ""
	case MoveTo:
		m := ms[tm]
		to := keepIn(image.Pt(m.Bounds.Min.X+*in.x, m.Bounds.Min.Y+*in.y), r.Size(), m.WorkArea)
		return a.atPlan(ms, r, to, tm, jumpTime), ""
	case GoHome:
		to := a.home(ms, r.Size())
		i := desktop.MonitorAt(ms, center(image.Rectangle{Min: to, Max: to.Add(r.Size())}))
		to = keepIn(to, r.Size(), ms[i].WorkArea)
		return a.atPlan(ms, r, to, i, jumpTime), ""
	case Hide:
		f := false
		return plan{visible: &f, result: "ok: hidden"}, ""
	default: // Show
		t := true
		return plan{visible: &t, result: atText(ms, r.Min, here)}, ""
	}
}

// sitOnWindowPlan plans sitting on the window whose app or title holds
// the query, the one nearest the pet's feet, on the monitor asked for if
// one is.
func (a *Actor) sitOnWindowPlan(in args, ms []desktop.Monitor, ws []desktop.Window, r image.Rectangle, tm int) (plan, string) {
	q := strings.ToLower(strings.TrimSpace(*in.app))
	if q == "" {
		return plan{}, toolcall.InvalidField("app")
	}
	feet := image.Pt((r.Min.X+r.Max.X)/2, r.Max.Y)
	var best *desktop.Window
	bestD := 0
	for i, w := range ws {
		t, ok := windowTarget(ms, w, a.o.PID)
		if !ok || (in.monitor != nil && t.Monitor != tm) {
			continue
		}
		if !strings.Contains(strings.ToLower(w.App), q) && !strings.Contains(strings.ToLower(w.Title), q) {
			continue
		}
		d := distSq(image.Rect(w.Frame.Min.X, w.Frame.Min.Y, w.Frame.Max.X, w.Frame.Min.Y+1), feet)
		if best == nil || d < bestD {
			best, bestD = &ws[i], d
		}
	}
	if best == nil {
		return plan{}, fmt.Sprintf("error: no window matches %q", *in.app)
	}
	return a.sitPlan(ms, r, *best, fmt.Sprintf("error: no window matches %q", *in.app)), ""
}

// perchPlan plans perching on the target named by id: a monitor's bottom
// or a window to sit on.
func (a *Actor) perchPlan(id string, ms []desktop.Monitor, ws []desktop.Window, r image.Rectangle) (plan, string) {
	for i, m := range ms {
		if id == BottomTargetID(i) {
			return a.floorPlan(ms, r, i, m), ""
		}
	}
	for _, w := range ws {
		if _, ok := windowTarget(ms, w, a.o.PID); ok && id == WindowTargetID(w.ID) {
			return a.sitPlan(ms, r, w, "error: unknown target "+id), ""
		}
	}
	return plan{}, "error: unknown target " + id
}

// walkToPlanLocked plans walking to x0 on monitor tm: along the window
// the pet sits on, staying on it; on the pet's own monitor, walking; on
// another, jumping to its floor. a.mu is held.
func (a *Actor) walkToPlanLocked(x0 int, ms []desktop.Monitor, r image.Rectangle, tm, here int) plan {
	m := ms[tm]
	x := clampSpan(m.Bounds.Min.X+x0, m.WorkArea.Min.X, m.WorkArea.Max.X-r.Dx())
	y := r.Min.Y
	if j := a.cur; j != nil && j.perched && j.arrived && tm == here {
		// Along the window sat on, staying on it.
		w := j.win
		x = clampSpan(x, w.Frame.Min.X, w.Frame.Max.X-r.Dx())
		p := a.motionPlan(r, image.Pt(x, y), Walk, Sit, a.walkTime)
		p.perch, p.dx, p.lost = &w, x-w.Frame.Min.X, fmt.Sprintf("error: no window matches %q", appName(w))
		p.result = sittingText(w)
		return p
	}
	if tm != here {
		y = m.WorkArea.Max.Y - r.Dy()
		return a.atPlan(ms, r, image.Pt(x, y), tm, jumpTime)
	}
	return a.atPlan(ms, r, image.Pt(x, y), tm, a.walkTime)
}

// home is the preset's home, or the primary monitor's bottom-right corner.
func (a *Actor) home(ms []desktop.Monitor, size image.Point) image.Point {
	if a.o.Home != nil {
		return a.o.Home()
	}
	wa := ms[0].WorkArea
	return wa.Max.Sub(size)
}

func (a *Actor) motionPlan(r image.Rectangle, to image.Point, motion, end Motion, pace func(int) time.Duration) plan {
	return plan{move: true, to: to, d: pace(dist(r.Min, to)), motion: motion, end: end}
}

func (a *Actor) atPlan(ms []desktop.Monitor, r image.Rectangle, to image.Point, mon int, pace func(int) time.Duration) plan {
	p := a.motionPlan(r, to, Walk, Idle, pace)
	p.result = atText(ms, to, mon)
	return p
}

// floorPlan jumps to monitor i's bottom edge, below the pet where it can.
func (a *Actor) floorPlan(ms []desktop.Monitor, r image.Rectangle, i int, m desktop.Monitor) plan {
	x := clampSpan(r.Min.X, m.WorkArea.Min.X, m.WorkArea.Max.X-r.Dx())
	return a.atPlan(ms, r, image.Pt(x, m.WorkArea.Max.Y-r.Dy()), i, jumpTime)
}

// sitPlan walks (same level) or jumps onto w's top edge, the pet's centre
// kept over the window.
func (a *Actor) sitPlan(ms []desktop.Monitor, r image.Rectangle, w desktop.Window, lost string) plan {
	cx := (r.Min.X + r.Max.X) / 2
	cx = clampSpan(cx, w.Frame.Min.X+r.Dx()/2, w.Frame.Max.X-(r.Dx()-r.Dx()/2))
	dx := cx - r.Dx()/2 - w.Frame.Min.X
	to := sitPoint(ms, w, dx, r.Size())
	pace := jumpTime
	if to.Y == r.Min.Y {
		pace = a.walkTime
	}
	p := a.motionPlan(r, to, Walk, Sit, pace)
	p.perch, p.dx, p.lost, p.result = &w, dx, lost, sittingText(w)
	return p
}

// sitPoint is where the pet sits on w: on its top edge, dx from its left,
// never above the top of the monitor showing that edge.
func sitPoint(ms []desktop.Monitor, w desktop.Window, dx int, size image.Point) image.Point {
	p := image.Pt(w.Frame.Min.X+dx, w.Frame.Min.Y-size.Y)
	if i := desktop.MonitorAt(ms, image.Pt(w.Frame.Min.X+dx+size.X/2, w.Frame.Min.Y)); i >= 0 {
		p.Y = max(p.Y, ms[i].Bounds.Min.Y)
	}
	return p
}

func sittingText(w desktop.Window) string {
	s := "ok: sitting on " + clientctx.Quote(appName(w), clientctx.MaxQuoted)
	if w.Title != "" && w.Title != appName(w) {
		s += " (" + clientctx.Quote(w.Title, clientctx.MaxQuoted) + ")"
	}
	return s
}

// atText is "ok: at X,Y on display N" in monitor mon's pixels.
func atText(ms []desktop.Monitor, p image.Point, mon int) string {
	o := ms[mon].Bounds.Min
	return fmt.Sprintf("ok: at %d,%d on display %d", p.X-o.X, p.Y-o.Y, mon)
}

func center(r image.Rectangle) image.Point { return image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2) }

func dist(a, b image.Point) int {
	d := a.Sub(b)
	return int(math.Round(math.Hypot(float64(d.X), float64(d.Y))))
}

// clampSpan clamps v into [lo, hi]; lo wins when the span is empty.
func clampSpan(v, lo, hi int) int { return max(min(v, hi), lo) }

// keepIn moves a window of size at p inside area (its top-left corner
// wins when it does not fit).
func keepIn(p, size image.Point, area image.Rectangle) image.Point {
	return image.Pt(clampSpan(p.X, area.Min.X, area.Max.X-size.X), clampSpan(p.Y, area.Min.Y, area.Max.Y-size.Y))
}
