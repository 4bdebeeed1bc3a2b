package desktop

import (
	"image"
	"sync"
	"testing"
	"time"

	"yui/transport/clock"
)

type quietLog struct {
	mu  sync.Mutex
	got []bool
}

func (l *quietLog) add(on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, on)
}

func (l *quietLog) list() []bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]bool(nil), l.got...)
}

func TestQuietFollowsFullscreenAndTheSwitch(t *testing.T) {
	d := NewFake(FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true))
	film := Window{ID: 7, App: "mpv", Frame: image.Rect(0, 0, 1920, 1080), Normal: true}
	notes := Window{ID: 8, App: "Notes", Frame: image.Rect(100, 100, 500, 400), Normal: true}
	d.SetWindows(notes, film)
	d.SetActive(8)
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	var log quietLog
	q := NewQuiet(d, clk, log.add)
	defer q.Close()

	step := func(what string, want []bool, on bool) {
		t.Helper()
		clk.Advance(QuietPoll)
		if got := log.list(); len(got) != len(want) || (len(want) > 0 && got[len(got)-1] != want[len(want)-1]) {
			t.Fatalf("%s: changes %v, want %v", what, got, want)
		}
		if q.On() != on {
			t.Fatalf("%s: On %v", what, q.On())
		}
	}
	step("a normal window active", nil, false)
	film.Fullscreen = true
	d.SetWindows(notes, film)
	d.SetActive(7)
	step("a fullscreen window active", []bool{true}, true)
	step("still fullscreen", []bool{true}, true)
	d.SetActive(8)
	step("back to Notes", []bool{true, false}, false)

	q.SetManual(true)
	if got := log.list(); len(got) != 3 || !got[2] || !q.On() || !q.Manual() {
		t.Fatalf("switched on by hand: %v", got)
	}
	d.SetActive(7)
	step("fullscreen while on by hand", []bool{true, false, true}, true)
	q.SetManual(false)
	if got := log.list(); len(got) != 3 || !q.On() {
		t.Fatalf("switched off by hand during a fullscreen window: %v, On %v", got, q.On())
	}
	d.SetActive(8)
	step("fullscreen ends", []bool{true, false, true, false}, false)

	// A desktop that cannot be read is no fullscreen window.
	d.SetActive(7)
	step("fullscreen again", []bool{true, false, true, false, true}, true)
	d.SetError(errClosed)
	step("desktop unreadable", []bool{true, false, true, false, true, false}, false)

	q.Close()
	if n := clk.Pending(); n != 0 {
		t.Fatalf("%d timers after Close", n)
	}
}
