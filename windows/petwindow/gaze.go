package petwindow

import (
	"image"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet/character"
	"yui/windows/native"
)

// eyes follow the pointer, or glance around now and then, on a pack with
// gaze frames. UI thread, but for stop, which Dispose closes.
type eyes struct {
	w    *PetWindow
	dir  string        // where the eyes look: character.GazeLeft, GazeRight or ""
	stop chan struct{} // ends the pointer polling; nil without gaze
	look lookAround    // the occasional glance around (lookaround.go)
}

// gazePoll is how often the eyes check where the pointer is.
const gazePoll = 150 * time.Millisecond

// start starts following the pointer with the eyes (Options.Gaze)
// until the window is disposed. The pointer is read off the UI goroutine
// (an X QueryPointer is a round trip to the server) and handed to the UI
// with fyne.Do. It runs once the native shim is bound (attachNative):
// before, the X11 shim has no connection and each pet would poll the
// pointer on its own instead of sharing the connection's one poller.
func (e *eyes) start() {
	w := e.w
	if e.stop == nil || w.closed.Load() {
		return
	}
	var still pointerThrottle // the poller's goroutine only
	deliver := func(p image.Point, ok bool) {
		if still.pass(p, ok, time.Now()) {
			fyne.Do(func() { e.follow(p, ok) })
		}
	}
	var stop func()
	if pw, ok := w.native.(native.PointerWatcher); ok {
		stop, ok = pw.WatchPointer(gazePoll, deliver)
		if !ok {
			stop = nil
		}
	}
	if stop == nil {
		stop = pollPointer(w.native, gazePoll, deliver)
	}
	go func(end <-chan struct{}) {
		<-end
		stop()
	}(e.stop)
}

// stillTick is how long a pointer that has not moved goes unreported
// before the UI hears of it again: the eyes have nothing new to follow,
// and the look-around (lookaround.go) needs only a tick now and then.
// It is a time, not a count of readings, because the X poller reads a
// still pointer less often (tools/xconn/pointer.go): at 150 ms a reading,
// every third passes; at 450 ms, each does.
const stillTick = 400 * time.Millisecond

// pointerThrottle passes a pointer reading on to the UI when the pointer
// moved, or its reading failed or came back, and otherwise once stillTick
// has gone by since the last it passed: each reading passed on wakes the
// UI goroutine, for every pet.
type pointerThrottle struct {
	last   image.Point
	lastOK bool
	seen   bool
	passed time.Time // when the last reading went to the UI
}

// pass reports whether the reading p, ok, taken at now, goes to the UI.
func (t *pointerThrottle) pass(p image.Point, ok bool, now time.Time) bool {
	if t.seen && p == t.last && ok == t.lastOK && now.Sub(t.passed) < stillTick {
		return false
	}
	t.seen, t.last, t.lastOK, t.passed = true, p, ok, now
	return true
}

// pollPointer reads the pointer through n every period on a goroutine of
// its own until stop is called, for shims that share no poller.
func pollPointer(n native.Screen, every time.Duration, f func(image.Point, bool)) (stop func()) {
	end := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-end:
				return
			case <-t.C:
				p, err := n.Pointer()
				f(p, err == nil)
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(end) }) }
}

// follow turns the eyes towards the pointer at ptr (known when ok)
// while it is near the standing character, on a pack with gaze frames, and
// lets it look around now and then otherwise. UI thread.
func (e *eyes) follow(ptr image.Point, ok bool) {
	w := e.w
	if w.closed.Load() || !w.visible || w.opts.Pack == nil || len(w.opts.Pack.Gaze) == 0 {
		return
	}
	dir := ""
	if !w.placer.drag.active && ok {
		dir = character.GazeAt(w.geo.bodyRect(w.shim).Add(w.placer.pos), ptr)
	}
	// With the pointer away, an idle character glances around now and then.
	now := time.Now()
	if dir != "" || w.placer.drag.active || w.view.Running {
		e.look.reset(now, lookPause)
	} else {
		dir = e.look.at(now, lookPause)
	}
	if dir != e.dir {
		e.dir = dir
		w.log.Debug("pet_gaze", "name", w.opts.Name, "dir", dir)
		w.play.update()
	}
}

// frames replaces the neutral idle frames with the gaze frame the
// eyes turn to, when there is one.
func (e *eyes) frames(set character.FrameSet, emotion string) character.FrameSet {
	w := e.w
	if e.dir == "" || set.Motion != "idle" || (emotion != "" && emotion != "neutral") {
		return set
	}
	img := w.opts.Pack.Gaze[e.dir]
	if img == nil {
		return set
	}
	return character.FrameSet{Frames: []image.Image{img}, Motion: "idle"}
}
