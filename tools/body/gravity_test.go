package body

import (
	"context"
	"image"
	"testing"
	"time"

	"yui/tools/desktop"
	"yui/tools/desktop/desktoptest"
)

func TestCatchBandScalesWithSize(t *testing.T) {
	for _, c := range []struct{ h, want int }{{256, 128}, {512, 256}, {64, 32}, {4, 8}} {
		if got := CatchBand(c.h); got != c.want {
			t.Errorf("CatchBand(%d) = %d, want %d", c.h, got, c.want)
		}
	}
}

func TestLandingChoice(t *testing.T) {
	ms := []desktop.Monitor{desktoptest.FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true)}
	// A pet 192x256 with its feet at y 500 and its centre at x 596.
	pet := image.Rect(500, 244, 692, 500)
	win := func(id desktop.ID, frame image.Rectangle) desktop.Window {
		return desktop.Window{ID: id, App: "app", Frame: frame, Normal: true, PID: 100}
	}
	for _, c := range []struct {
		name string
		ws   []desktop.Window // topmost first
		want desktop.ID       // 0: the floor
	}{
		{"edge at the feet", []desktop.Window{win(1, image.Rect(400, 500, 1000, 900))}, 1},
		{"edge inside the band below", []desktop.Window{win(1, image.Rect(400, 500+128, 1000, 900))}, 1},
		{"edge inside the band above", []desktop.Window{win(1, image.Rect(400, 500-128, 1000, 900))}, 1},
		{"edge below the band", []desktop.Window{win(1, image.Rect(400, 500+129, 1000, 900))}, 0},
		{"edge above the band", []desktop.Window{win(1, image.Rect(400, 500-129, 1000, 900))}, 0},
		{"centre beside the window", []desktop.Window{win(1, image.Rect(600, 500, 1000, 900))}, 0},
		{"topmost of two in the band", []desktop.Window{
			win(2, image.Rect(300, 540, 900, 800)), win(1, image.Rect(400, 480, 1000, 900))}, 2},
		{"a higher window hides the lower one's edge", []desktop.Window{
			win(2, image.Rect(300, 300, 900, 800)), win(1, image.Rect(400, 520, 1000, 900))}, 0},
		{"the lower window's edge shows beside the higher one", []desktop.Window{
			win(2, image.Rect(0, 300, 560, 800)), win(1, image.Rect(400, 520, 1000, 900))}, 1},
		{"minimised and foreign kinds neither catch nor cover", []desktop.Window{
			{ID: 3, Frame: image.Rect(300, 300, 900, 800), Normal: true, Minimized: true},
			{ID: 4, Frame: image.Rect(300, 490, 900, 800)},
			win(1, image.Rect(400, 520, 1000, 900))}, 1},
		{"the pet's own windows neither catch nor cover", []desktop.Window{
			{ID: 5, Frame: image.Rect(500, 100, 692, 510), Normal: true, PID: ownPID},
			win(1, image.Rect(400, 510, 1000, 900))}, 1},
	} {
		w, ok := Landing(ms, c.ws, pet, ownPID)
		if got := map[bool]desktop.ID{true: w.ID}[ok]; got != c.want {
			t.Errorf("%s: lands on %d, want %d", c.name, got, c.want)
		}
	}
}

// land runs Land to its end on the rig's fake clock.
func (r *rig) land(t *testing.T) {
	t.Helper()
	done := make(chan struct{})
	go func() { r.actor.Land(context.Background()); close(done) }()
	for range 100 {
		select {
		case <-done:
			return
		default:
		}
		if r.clk.Pending() > 0 {
			r.clk.Advance(time.Second)
			continue
		}
		select {
		case <-done:
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatal("Land did not return")
}

func TestLandSitsOnTheWindowAndFollowsIt(t *testing.T) {
	r := newRig(t)
	// Dropped with its feet 40 px above Notes' top edge (y 500).
	r.body.MoveTo(image.Pt(600, 204), 0, Idle)
	r.land(t)
	moves := r.body.moves
	if fall := moves[len(moves)-2]; fall.to != image.Pt(600, 244) || fall.motion != Fall || fall.d != MinFall {
		t.Fatalf("the fall: %+v", fall)
	}
	if m := r.body.lastMove(); m.to != image.Pt(600, 244) || m.motion != Sit {
		t.Fatalf("landed: %+v", m)
	}
	if p, ok := r.actor.Perch(); !ok || p.App != "Notes" {
		t.Fatalf("Perch %+v %v", p, ok)
	}
	if got := r.actor.Place(); got != `sitting on "Notes"` {
		t.Fatalf("Place %q", got)
	}
	r.desk.Move(0x3a00007, image.Rect(100, 600, 740, 1000))
	if m := r.body.lastMove(); m.to != image.Pt(300, 344) || m.motion != Sit {
		t.Fatalf("after the window moved: %+v", m)
	}
	r.desk.CloseWindow(0x3a00007)
	if m := r.body.lastMove(); m.motion != Fall || m.to.Y != 1040-256 {
		t.Fatalf("after close: %+v", m)
	}
}

func TestLandInMidAirFallsToTheWorkArea(t *testing.T) {
	r := newRig(t)
	r.body.MoveTo(image.Pt(1300, 100), 0, Idle)
	r.land(t)
	moves := r.body.moves
	if fall := moves[len(moves)-1]; fall.to != image.Pt(1300, 1040-256) || fall.motion != Fall || fall.d != fallTime(684) {
		t.Fatalf("the fall: %+v", fall)
	}
	if got := r.body.motion(); got != string(Idle) {
		t.Fatalf("motion after landing %q", got)
	}
	if got := r.actor.Place(); got != PlaceTaskbar {
		t.Fatalf("Place %q", got)
	}
	if _, ok := r.actor.Perch(); ok {
		t.Fatal("perched after a fall to the floor")
	}
}

func TestDragDuringTheFallLetsGo(t *testing.T) {
	r := newRig(t)
	r.body.MoveTo(image.Pt(600, 204), 0, Idle)
	done := make(chan struct{})
	go func() { r.actor.Land(context.Background()); close(done) }()
	if !r.clk.WaitPending(1, 5*time.Second) {
		t.Fatal("the fall's timer never armed")
	}
	r.actor.UserDragged()
	<-done
	if _, ok := r.actor.Perch(); ok {
		t.Fatal("perched after the user took the pet mid-fall")
	}
}
