package desktop_test

import (
	"image"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"yui/tools/desktop"
	"yui/tools/desktop/desktoptest"
	"yui/transport/clock/clocktest"
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

// windowsOnly hides the Fake's WindowStates: Quiet reads Windows and
// Active, as on a desktop without the cheaper read (Windows).
type windowsOnly struct{ desktop.Desktop }

// quietPaths runs a test on both of Quiet's reads: WindowStates (X11) and
// Windows with Active.
func quietPaths(t *testing.T, test func(t *testing.T, d *desktoptest.Fake, wrap func(*desktoptest.Fake) desktop.Desktop)) {
	for _, p := range []struct {
		name string
		wrap func(*desktoptest.Fake) desktop.Desktop
	}{
		{"states", func(f *desktoptest.Fake) desktop.Desktop { return f }},
		{"windows and active", func(f *desktoptest.Fake) desktop.Desktop { return windowsOnly{f} }},
	} {
		t.Run(p.name, func(t *testing.T) {
			test(t, desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true),
				desktoptest.FakeMonitor(image.Rect(1920, 0, 3200, 720), 0, false)), p.wrap)
		})
	}
}

func TestQuietFollowsFullscreenAndTheSwitch(t *testing.T) { quietPaths(t, testQuietFollows) }

func testQuietFollows(t *testing.T, d *desktoptest.Fake, wrap func(*desktoptest.Fake) desktop.Desktop) {
	film := desktop.Window{ID: 7, App: "mpv", Frame: image.Rect(0, 0, 1920, 1080), Normal: true}
	notes := desktop.Window{ID: 8, App: "Notes", Frame: image.Rect(100, 100, 500, 400), Normal: true}
	d.SetWindows(notes, film)
	d.SetActive(8)
	clk := clocktest.NewFake(time.Unix(1_700_000_000, 0))
	var log quietLog
	q := desktop.NewQuiet(wrap(d), clk, log.add)
	defer q.Close()

	step := func(what string, want []bool, on bool) {
		t.Helper()
		clk.Advance(desktop.QuietPoll)
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
	// Still on, now for the fullscreen window's monitor only: told, so
	// that pets elsewhere come back.
	if got := log.list(); len(got) != 4 || !got[3] || !q.On() {
		t.Fatalf("switched off by hand during a fullscreen window: %v, On %v", got, q.On())
	}
	d.SetActive(8)
	step("fullscreen ends", []bool{true, false, true, true, false}, false)

	// A desktop that cannot be read is no fullscreen window.
	d.SetActive(7)
	step("fullscreen again", []bool{true, false, true, true, false, true}, true)
	d.SetError(desktop.ErrClosed)
	step("desktop unreadable", []bool{true, false, true, true, false, true, false}, false)

	q.Close()
	if n := clk.Pending(); n != 0 {
		t.Fatalf("%d timers after Close", n)
	}
}

// Two monitors: a fullscreen film on the second hides only the pets
// there; the user working on the first (the active window) changes
// nothing.
func TestQuietPerMonitor(t *testing.T) { quietPaths(t, testQuietPerMonitor) }

func testQuietPerMonitor(t *testing.T, d *desktoptest.Fake, wrap func(*desktoptest.Fake) desktop.Desktop) {
	left, right := image.Rect(0, 0, 1920, 1080), image.Rect(1920, 0, 3200, 720)
	notes := desktop.Window{ID: 8, App: "Notes", Frame: image.Rect(100, 100, 500, 400), Normal: true}
	film := desktop.Window{ID: 7, App: "mpv", Frame: right, Normal: true, Fullscreen: true}
	d.SetWindows(notes, film)
	d.SetActive(8)
	clk := clocktest.NewFake(time.Unix(1_700_000_000, 0))
	var log quietLog
	q := desktop.NewQuiet(wrap(d), clk, log.add)
	defer q.Close()
	petLeft, petRight := image.Rect(1500, 800, 1692, 1056), image.Rect(2500, 400, 2692, 656)
	if q.Hides(petLeft) || q.Hides(petRight) {
		t.Fatal("quiet before the first poll")
	}
	clk.Advance(desktop.QuietPoll)
	if got := log.list(); len(got) != 1 || !got[0] {
		t.Fatalf("changes %v", got)
	}
	if q.Hides(petLeft) || !q.Hides(petRight) || !q.Hides(image.Rectangle{}) {
		t.Fatalf("film on the right: hides left %v, right %v", q.Hides(petLeft), q.Hides(petRight))
	}
	// The film moves to the left monitor: told again, the sides swap.
	film.Frame = left
	d.SetWindows(notes, film)
	d.SetActive(7)
	clk.Advance(desktop.QuietPoll)
	if got := log.list(); len(got) != 2 || !got[1] || !q.Hides(petLeft) || q.Hides(petRight) {
		t.Fatalf("film on the left: changes %v, hides left %v, right %v", got, q.Hides(petLeft), q.Hides(petRight))
	}
	// A window of this process (a pet) over the film does not uncover it.
	d.SetWindows(desktop.Window{ID: 9, App: "Yui", Frame: petLeft, Normal: true, PID: os.Getpid()}, film)
	d.SetActive(9)
	clk.Advance(desktop.QuietPoll)
	if !q.Hides(petLeft) || len(log.list()) != 2 {
		t.Fatalf("a pet above the film: hides %v, changes %v", q.Hides(petLeft), log.list())
	}
	q.SetManual(true)
	if !q.Hides(petRight) {
		t.Fatal("on by hand: the right pet shows")
	}
}

// counting is a Fake that counts its changes as the X11 desktop does
// (changeCounter), and the reads Quiet makes of it.
type counting struct {
	*desktoptest.Fake
	changes, reads atomic.Uint64
}

func (c *counting) Changes() uint64 { return c.changes.Load() }

func (c *counting) WindowStates() ([]desktop.Window, desktop.ID, error) {
	c.reads.Add(1)
	return c.Fake.WindowStates()
}

// On a desktop that counts its changes, Quiet reads the windows only
// after a change, or QuietRecheck after its last read.
func TestQuietReadsAfterAChange(t *testing.T) {
	screen := image.Rect(0, 0, 1920, 1080)
	d := &counting{Fake: desktoptest.NewFake(desktoptest.FakeMonitor(screen, 40, true))}
	film := desktop.Window{ID: 7, App: "mpv", Frame: screen, Normal: true, Fullscreen: true}
	notes := desktop.Window{ID: 8, App: "Notes", Frame: image.Rect(100, 100, 500, 400), Normal: true}
	d.SetWindows(film, notes)
	d.SetActive(7)
	clk := clocktest.NewFake(time.Unix(1_700_000_000, 0))
	var log quietLog
	q := desktop.NewQuiet(d, clk, log.add)
	defer q.Close()

	poll := func(what string, reads uint64, on bool) {
		t.Helper()
		clk.Advance(desktop.QuietPoll)
		if got := d.reads.Load(); got != reads || q.On() != on {
			t.Fatalf("%s: %d reads, On %v; want %d, %v", what, got, q.On(), reads, on)
		}
	}
	poll("the first poll", 1, true)
	poll("nothing changed", 1, true)
	poll("still nothing", 1, true)
	// What the count does not see waits for the recheck.
	d.SetActive(8)
	d.SetWindows(notes, desktop.Window{ID: 7, App: "mpv", Frame: screen, Normal: true})
	poll("a change the count did not see", 1, true)
	d.changes.Add(1)
	poll("a counted change", 2, false)
	if got := log.list(); len(got) != 2 || !got[0] || got[1] {
		t.Fatalf("changes told %v", got)
	}
	// Unchanged since: one read every QuietRecheck.
	polls := int(desktop.QuietRecheck / desktop.QuietPoll)
	for i := 1; i < polls; i++ {
		poll("within the recheck", 2, false)
	}
	poll("the recheck", 3, false)
}
