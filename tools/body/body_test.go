package body

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"sync"
	"testing"
	"time"

	"yui/tools/desktop"
	"yui/tools/desktop/desktoptest"
	"yui/transport/clock/clocktest"
)

type moveCall struct {
	to     image.Point
	d      time.Duration
	motion Motion
}

// fakeBody is a pet window that arrives at once: State reads the last
// destination.
type fakeBody struct {
	mu    sync.Mutex
	st    State
	moves []moveCall
	plays []Motion
}

func newFakeBody(at image.Point) *fakeBody {
	return &fakeBody{st: State{Rect: image.Rectangle{Min: at, Max: at.Add(image.Pt(192, 256))}, Visible: true, Emotion: "happy", Motion: "idle"}}
}

func (b *fakeBody) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.st
}

func (b *fakeBody) MoveTo(to image.Point, d time.Duration, m Motion) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.moves = append(b.moves, moveCall{to, d, m})
	b.st.Rect = image.Rectangle{Min: to, Max: to.Add(b.st.Rect.Size())}
	b.st.Motion = string(m)
}

func (b *fakeBody) Play(m Motion) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.plays = append(b.plays, m)
	b.st.Motion = string(m)
}

func (b *fakeBody) SetVisible(v bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.st.Visible = v
}

func (b *fakeBody) lastMove() moveCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.moves) == 0 {
		return moveCall{}
	}
	return b.moves[len(b.moves)-1]
}

func (b *fakeBody) motion() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.st.Motion
}

const ownPID = 4242

type rig struct {
	desk  *desktoptest.Fake
	body  *fakeBody
	clk   *clocktest.Fake
	actor *Actor
}

// newRig: one 1920x1080 monitor with a 40 px task bar, the pet standing on
// it at x 1500, a "Notes" window, the pet's own window, a minimised one.
func newRig(t *testing.T) *rig {
	t.Helper()
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true))
	d.SetWindows(
		desktop.Window{ID: 0x3a00007, App: "Notes", Title: "Shopping", Frame: image.Rect(400, 500, 1040, 900), Normal: true, PID: 100},
		desktop.Window{ID: 0x100, App: "yui", Title: "Yui", Frame: image.Rect(1500, 784, 1692, 1040), Normal: true, PID: ownPID},
		desktop.Window{ID: 0x200, App: "Mail", Title: "Inbox", Frame: image.Rect(0, 300, 500, 700), Normal: true, Minimized: true, PID: 101},
	)
	r := &rig{desk: d, body: newFakeBody(image.Pt(1500, 784)), clk: clocktest.NewFake(time.Unix(1_700_000_000, 0))}
	r.actor = New(Options{Desktop: d, Body: r.body, Clock: r.clk, PID: ownPID, Home: func() image.Point { return image.Pt(100, 784) }})
	t.Cleanup(r.actor.Close)
	return r
}

// do runs a call to its end, advancing the fake clock through its movement.
func (r *rig) do(t *testing.T, args string) string {
	t.Helper()
	res := r.start(context.Background(), args)
	for range 100 {
		select {
		case s := <-res:
			return s
		default:
		}
		if r.clk.Pending() > 0 {
			r.clk.Advance(time.Second)
			continue
		}
		select {
		case s := <-res:
			return s
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("%s: no result", args)
	return ""
}

func (r *rig) start(ctx context.Context, args string) <-chan string {
	res := make(chan string, 1)
	go func() { res <- r.actor.Do(ctx, json.RawMessage(args)) }()
	return res
}

func TestSitOnWindowFollowsAndFalls(t *testing.T) {
	r := newRig(t)
	if got, want := r.do(t, `{"action":"sit_on_window","app":"notes"}`), `ok: sitting on "Notes" ("Shopping")`; got != want {
		t.Fatalf("result %q, want %q", got, want)
	}
	// Centre kept over the window: right edge 1040 minus the pet's width.
	if m := r.body.lastMove(); m.to != image.Pt(1040-192, 500-256) || m.motion != Sit {
		t.Fatalf("sits at %+v, want %v sitting", m, image.Pt(848, 244))
	}
	if got := r.actor.Place(); got != `sitting on "Notes"` {
		t.Fatalf("Place %q", got)
	}
	if p, ok := r.actor.Perch(); !ok || p != (PerchInfo{Kind: "window_top", App: "Notes", Title: "Shopping"}) {
		t.Fatalf("Perch %+v %v", p, ok)
	}
	r.desk.Move(0x3a00007, image.Rect(100, 600, 740, 1000))
	if m := r.body.lastMove(); m.to != image.Pt(100+448, 600-256) || m.d != 0 || m.motion != Sit {
		t.Fatalf("after the window moved: %+v", m)
	}
	r.desk.Minimize(0x3a00007)
	if m := r.body.lastMove(); m.to != image.Pt(548, 1040-256) || m.motion != Fall || m.d <= 0 {
		t.Fatalf("after minimise: %+v, want a fall to the bottom", m)
	}
	if got := r.actor.Place(); got != PlaceWalking {
		t.Fatalf("Place while falling %q", got)
	}
	r.clk.Advance(MaxFall)
	if got := r.body.motion(); got != string(Idle) {
		t.Fatalf("motion after the fall %q", got)
	}
	if got := r.actor.Place(); got != PlaceTaskbar {
		t.Fatalf("Place after the fall %q", got)
	}
	if _, ok := r.actor.Perch(); ok {
		t.Fatal("still perched after the window went")
	}
	if n := r.desk.Watching(0x3a00007); n != 0 {
		t.Fatalf("%d watches left", n)
	}
}

func TestSitFallsWhenWindowCloses(t *testing.T) {
	r := newRig(t)
	r.do(t, `{"action":"sit_on_window","app":"Shop"}`)
	r.desk.CloseWindow(0x3a00007)
	if m := r.body.lastMove(); m.motion != Fall || m.to.Y != 1040-256 {
		t.Fatalf("after close: %+v", m)
	}
}

func TestResultsAndErrors(t *testing.T) {
	cases := []struct{ args, want string }{
		{`{"action":"sit_on_window","app":"Mail"}`, `error: no window matches "Mail"`}, // minimised
		{`{"action":"sit_on_window","app":"yui"}`, `error: no window matches "yui"`},   // our own
		{`{"action":"sit_on_window","app":"Notes","monitor":1}`, `error: invalid field monitor`},
		{`{"action":"sit_on_window","app":"  "}`, `error: invalid field app`},
		{`{"action":"sit_on_window"}`, `error: missing field app`},
		{`{"action":"perch"}`, `error: missing field target_id`},
		{`{"action":"perch","target_id":"w-99"}`, `error: unknown target w-99`},
		{`{"action":"perch","target_id":"w-200"}`, `error: unknown target w-200`},
		{`{"action":"perch","target_id":"m1-bottom"}`, `error: unknown target m1-bottom`},
		{`{"action":"perch","target_id":"m0-bottom"}`, `ok: at 1500,784 on display 0`},
		{`{"action":"perch","target_id":"w-3a00007"}`, `ok: sitting on "Notes" ("Shopping")`},
		{`{"action":"walk_to"}`, `error: missing field x`},
		{`{"action":"walk_to","x":100}`, `ok: at 100,784 on display 0`},
		{`{"action":"walk_to","x":-50}`, `ok: at 0,784 on display 0`},
		{`{"action":"walk_to","x":100,"monitor":-1}`, `error: invalid field monitor`},
		{`{"action":"move_to","x":100}`, `error: missing field y`},
		{`{"action":"move_to","x":300,"y":200}`, `ok: at 300,200 on display 0`},
		{`{"action":"move_to","x":5000,"y":5000}`, `ok: at 1728,784 on display 0`},
		{`{"action":"move_to","x":1,"y":1,"monitor":3}`, `error: invalid field monitor`},
		{`{"action":"go_home"}`, `ok: at 100,784 on display 0`},
		{`{"action":"hide"}`, `ok: hidden`},
		{`{"action":"show"}`, `ok: at 1500,784 on display 0`},
		{`{"action":"dance"}`, `error: invalid field action`},
		{`{"action":"walk_to","x":1.5}`, `error: invalid field x`},
		{`{"action":"walk_to","x":1,"z":2}`, `error: invalid field z`},
		{`{}`, `error: missing field action`},
		{`[]`, `error: invalid field arguments`},
	}
	for _, c := range cases {
		r := newRig(t)
		if got := r.do(t, c.args); got != c.want {
			t.Errorf("%s: %q, want %q", c.args, got, c.want)
		}
	}
}

func TestWalkPaceAndMotion(t *testing.T) {
	r := newRig(t)
	res := r.start(context.Background(), `{"action":"walk_to","x":900}`)
	if !r.clk.WaitPending(1, 5*time.Second) {
		t.Fatal("no movement timer")
	}
	m := r.body.lastMove()
	if m.to != image.Pt(900, 784) || m.motion != Walk || m.d != 2*time.Second {
		t.Fatalf("walk %+v, want 600 px at 300 px/s with the walk motion", m)
	}
	if got := r.actor.Place(); got != PlaceWalking {
		t.Fatalf("Place while walking %q", got)
	}
	r.clk.Advance(time.Second)
	select {
	case s := <-res:
		t.Fatalf("result %q before the walk ended", s)
	default:
	}
	r.clk.Advance(time.Second)
	if got := <-res; got != "ok: at 900,784 on display 0" {
		t.Fatalf("result %q", got)
	}
	if got := r.body.motion(); got != string(Idle) {
		t.Fatalf("motion after the walk %q", got)
	}
	if got := r.actor.Place(); got != PlaceTaskbar {
		t.Fatalf("Place %q", got)
	}
}

func TestWalkOnWindowStaysOnIt(t *testing.T) {
	r := newRig(t)
	r.do(t, `{"action":"sit_on_window","app":"Notes"}`)
	if got := r.do(t, `{"action":"walk_to","x":0}`); got != `ok: sitting on "Notes" ("Shopping")` {
		t.Fatalf("result %q", got)
	}
	if m := r.body.lastMove(); m.to != image.Pt(400, 244) || m.motion != Sit {
		t.Fatalf("at %+v, want the window's left end", m)
	}
	if n := r.desk.Watching(0x3a00007); n != 1 {
		t.Fatalf("%d watches, want 1", n)
	}
}

func TestDragCancels(t *testing.T) {
	r := newRig(t)
	res := r.start(context.Background(), `{"action":"sit_on_window","app":"Notes"}`)
	if !r.clk.WaitPending(1, 5*time.Second) {
		t.Fatal("no movement timer")
	}
	r.actor.UserDragged()
	if got := <-res; got != ErrDragged {
		t.Fatalf("result %q, want %q", got, ErrDragged)
	}
	if r.clk.Pending() != 0 || r.desk.Watching(0x3a00007) != 0 {
		t.Fatalf("left %d timers, %d watches", r.clk.Pending(), r.desk.Watching(0x3a00007))
	}
	// A drag while sitting leaves the window.
	r.do(t, `{"action":"sit_on_window","app":"Notes"}`)
	r.actor.UserDragged()
	if _, ok := r.actor.Perch(); ok || r.desk.Watching(0x3a00007) != 0 {
		t.Fatal("still perched after a drag")
	}
}

func TestContextEndStopsTheMove(t *testing.T) {
	r := newRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	res := r.start(ctx, `{"action":"walk_to","x":100}`)
	if !r.clk.WaitPending(1, 5*time.Second) {
		t.Fatal("no movement timer")
	}
	cancel()
	if got := <-res; got != "error: turn stopped" {
		t.Fatalf("result %q", got)
	}
	if m := r.body.lastMove(); m.d != 0 || m.motion != Idle {
		t.Fatalf("last move %+v, want a stop where it is", m)
	}
	if r.clk.Pending() != 0 {
		t.Fatal("timer left")
	}
}

func TestCloseAnswersTurnStopped(t *testing.T) {
	r := newRig(t)
	res := r.start(context.Background(), `{"action":"walk_to","x":100}`)
	if !r.clk.WaitPending(1, 5*time.Second) {
		t.Fatal("no movement timer")
	}
	r.actor.Close()
	if got := <-res; got != "error: turn stopped" {
		t.Fatalf("result %q", got)
	}
	if got := r.actor.Do(context.Background(), json.RawMessage(`{"action":"hide"}`)); got != "error: turn stopped" {
		t.Fatalf("after Close: %q", got)
	}
}

func TestSecondMonitorCoordinates(t *testing.T) {
	r := newRig(t)
	r.desk.SetMonitors(
		desktoptest.FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true),
		desktoptest.FakeMonitor(image.Rect(1920, -200, 1920+2560, 1240), 0, false),
	)
	if got := r.do(t, `{"action":"move_to","x":10,"y":20,"monitor":1}`); got != "ok: at 10,20 on display 1" {
		t.Fatalf("result %q", got)
	}
	if m := r.body.lastMove(); m.to != image.Pt(1930, -180) {
		t.Fatalf("at %v", m.to)
	}
	if got := r.do(t, `{"action":"walk_to","x":2000}`); got != "ok: at 2000,20 on display 1" {
		t.Fatalf("walk on display 1: %q", got)
	}
	if got := r.do(t, `{"action":"walk_to","x":10,"monitor":0}`); got != "ok: at 10,784 on display 0" {
		t.Fatalf("walk to display 0: %q", got)
	}
}

func TestTargetsOrderCapAndFilter(t *testing.T) {
	ms := []desktop.Monitor{
		desktoptest.FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true),
		desktoptest.FakeMonitor(image.Rect(1920, 0, 3840, 1080), 0, false),
	}
	pet := image.Rect(0, 784, 192, 1040) // feet at 96,1040
	var ws []desktop.Window
	for i := range 50 {
		y := 1000 - 10*i // window i is nearer the feet than window i+1
		ws = append(ws, desktop.Window{ID: desktop.ID(0x1000 + i), App: "App", Title: fmt.Sprint(i), Frame: image.Rect(0, y, 300, y+50), Normal: true})
	}
	ws = append(ws,
		desktop.Window{ID: 1, App: "own", Frame: image.Rect(0, 1000, 10, 1010), Normal: true, PID: ownPID},
		desktop.Window{ID: 2, App: "dock", Frame: image.Rect(0, 1001, 10, 1010)},
		desktop.Window{ID: 3, App: "mini", Frame: image.Rect(0, 1002, 10, 1010), Normal: true, Minimized: true},
		desktop.Window{ID: 4, App: "above", Frame: image.Rect(0, -100, 10, 1010), Normal: true},
		desktop.Window{ID: 5, App: "right", Frame: image.Rect(3000, 500, 4000, 900), Normal: true},
	)
	got := Targets(ms, ws, pet, ownPID)
	if len(got) != MaxWindowTargets+2 {
		t.Fatalf("%d targets, want %d", len(got), MaxWindowTargets+2)
	}
	for i := range MaxWindowTargets {
		if want := WindowTargetID(desktop.ID(0x1000 + i)); got[i].ID != want {
			t.Fatalf("target %d is %s, want %s", i, got[i].ID, want)
		}
	}
	if got[0] != (Target{ID: "w-1000", Kind: KindWindowTop, App: "App", Title: "0", Monitor: 0, X: 0, Y: 1000, Width: 300, window: 0x1000}) {
		t.Fatalf("first target %+v", got[0])
	}
	b0, b1 := got[MaxWindowTargets], got[MaxWindowTargets+1]
	if b0 != (Target{ID: "m0-bottom", Kind: KindScreenBottom, Monitor: 0, X: 0, Y: 1040, Width: 1920}) ||
		b1 != (Target{ID: "m1-bottom", Kind: KindScreenBottom, Monitor: 1, X: 0, Y: 1080, Width: 1920}) {
		t.Fatalf("bottoms %+v %+v", b0, b1)
	}
	// The window on the second monitor is listed with that monitor's coordinates.
	all := Targets(ms, ws[50:], pet, ownPID)
	if len(all) != 3 || all[0].ID != "w-5" || all[0].Monitor != 1 || all[0].X != 1080 || all[0].Width != 840 {
		t.Fatalf("filtered targets %+v", all)
	}
}

func BenchmarkTargets50(b *testing.B) {
	ms := []desktop.Monitor{desktoptest.FakeMonitor(image.Rect(0, 0, 3840, 2160), 48, true)}
	var ws []desktop.Window
	for i := range 50 {
		ws = append(ws, desktop.Window{ID: desktop.ID(i + 1), App: "App", Title: "Title", Frame: image.Rect(37*i, 20*i+40, 37*i+900, 20*i+700), Normal: true})
	}
	pet := image.Rect(1800, 1856, 1992, 2112)
	b.ReportAllocs()
	for b.Loop() {
		if len(Targets(ms, ws, pet, 0)) != 31 {
			b.Fatal("wrong count")
		}
	}
}

func TestWindowGoesDuringApproach(t *testing.T) {
	r := newRig(t)
	res := r.start(context.Background(), `{"action":"sit_on_window","app":"Notes"}`)
	if !r.clk.WaitPending(1, 5*time.Second) {
		t.Fatal("no movement timer")
	}
	r.desk.CloseWindow(0x3a00007)
	if got := <-res; got != `error: no window matches "Notes"` {
		t.Fatalf("result %q", got)
	}
	if m := r.body.lastMove(); m.motion != Fall {
		t.Fatalf("last move %+v, want a fall", m)
	}
	r.clk.Advance(MaxFall)
	if r.clk.Pending() != 0 {
		t.Fatal("timers left")
	}
}

func TestWindowMovesDuringApproach(t *testing.T) {
	r := newRig(t)
	res := r.start(context.Background(), `{"action":"perch","target_id":"w-3a00007"}`)
	if !r.clk.WaitPending(1, 5*time.Second) {
		t.Fatal("no movement timer")
	}
	r.desk.Move(0x3a00007, image.Rect(400, 600, 1040, 900))
	r.clk.Advance(MaxJump)
	if got := <-res; got != `ok: sitting on "Notes" ("Shopping")` {
		t.Fatalf("result %q", got)
	}
	if m := r.body.lastMove(); m.to != image.Pt(848, 600-256) || m.motion != Sit {
		t.Fatalf("sits at %+v, want the window's new top", m)
	}
}

func TestWalkTimeAtTheCharactersPace(t *testing.T) {
	a := New(Options{WalkSpeed: func() float64 { return 50 }})
	if d := a.walkTime(100); d != 2*time.Second {
		t.Errorf("100 px at 50 px/s: %v", d)
	}
	if d := New(Options{}).walkTime(300); d != time.Second {
		t.Errorf("300 px at the default pace: %v", d)
	}
	if d := a.walkTime(1000); d != MaxWalk {
		t.Errorf("a long walk: %v, want MaxWalk", d)
	}
}
