package petwindow

import (
	"image"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet/character"
	"yui/windows/native"
)

// gazePoll is how often the eyes check where the pointer is.
const gazePoll = 150 * time.Millisecond

// startGaze starts following the pointer with the eyes (PetOptions.Gaze)
// until the window is disposed. The pointer is read off the UI goroutine
// (an X QueryPointer is a round trip to the server) and handed to the UI
// with fyne.Do. It runs once the native shim is bound (attachNative):
// before, the X11 shim has no connection and each pet would poll the
// pointer on its own instead of sharing the connection's one poller.
func (w *PetWindow) startGaze() {
	if w.gazeStop == nil || w.closed.Load() {
		return
	}
	var still pointerThrottle // the poller's goroutine only
	deliver := func(p image.Point, ok bool) {
		if still.pass(p, ok) {
			fyne.Do(func() { w.followPointer(p, ok) })
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
	}(w.gazeStop)
}

// stillEvery is how many polls of a pointer that has not moved go by
// before the UI hears of it again: the eyes have nothing new to follow,
// and the look-around (lookaround.go) needs only a tick now and then.
const stillEvery = 3

// pointerThrottle passes a pointer reading on to the UI when the pointer
// moved, or its reading failed or came back, and otherwise every
// stillEvery-th reading: each reading passed on wakes the UI goroutine,
// for every pet, several times a second.
type pointerThrottle struct {
	last    image.Point
	lastOK  bool
	seen    bool
	skipped int
}

// pass reports whether the reading p, ok goes to the UI.
func (t *pointerThrottle) pass(p image.Point, ok bool) bool {
	if t.seen && p == t.last && ok == t.lastOK && t.skipped < stillEvery-1 {
		t.skipped++
		return false
	}
	t.seen, t.last, t.lastOK, t.skipped = true, p, ok, 0
	return true
}

// pollPointer reads the pointer through n every period on a goroutine of
// its own until stop is called, for shims that share no poller.
func pollPointer(n native.Window, every time.Duration, f func(image.Point, bool)) (stop func()) {
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

// followPointer turns the eyes towards the pointer at ptr (known when ok)
// while it is near the standing character, on a pack with gaze frames, and
// lets it look around now and then otherwise. UI thread.
func (w *PetWindow) followPointer(ptr image.Point, ok bool) {
	if w.closed.Load() || !w.visible || w.opts.Pack == nil || len(w.opts.Pack.Gaze) == 0 {
		return
	}
	dir := ""
	if !w.drag.active && ok {
		dir = character.GazeAt(w.bodyRect().Add(w.pos), ptr)
	}
	// With the pointer away, an idle character glances around now and then.
	now := time.Now()
	if dir != "" || w.drag.active || w.view.Running {
		w.look.reset(now, lookPause)
	} else {
		dir = w.look.at(now, lookPause)
	}
	if dir != w.gaze {
		w.gaze = dir
		w.log.Debug("pet_gaze", "name", w.opts.Name, "dir", dir)
		w.updateFrames()
	}
}

// gazeFrames replaces the neutral idle frames with the gaze frame the
// eyes turn to, when there is one.
func (w *PetWindow) gazeFrames(set character.FrameSet, emotion string) character.FrameSet {
	if w.gaze == "" || set.Motion != "idle" || (emotion != "" && emotion != "neutral") {
		return set
	}
	img := w.opts.Pack.Gaze[w.gaze]
	if img == nil {
		return set
	}
	return character.FrameSet{Frames: []image.Image{img}, Motion: "idle"}
}
