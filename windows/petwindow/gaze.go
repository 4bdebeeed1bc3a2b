package petwindow

import (
	"image"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet/character"
)

// gazePoll is how often the eyes check where the pointer is.
const gazePoll = 150 * time.Millisecond

// startGaze starts following the pointer with the eyes (PetOptions.Gaze)
// until the window is disposed.
func (w *PetWindow) startGaze() {
	if !w.opts.Gaze {
		return
	}
	w.gazeStop = make(chan struct{})
	go func(stop <-chan struct{}) {
		t := time.NewTicker(gazePoll)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				fyne.Do(w.followPointer)
			}
		}
	}(w.gazeStop)
}

// followPointer turns the eyes towards the pointer while it is near the
// standing character, on a pack with gaze frames, and lets it look around
// now and then otherwise. UI thread.
func (w *PetWindow) followPointer() {
	if w.closed.Load() || !w.visible || w.opts.Pack == nil || len(w.opts.Pack.Gaze) == 0 {
		return
	}
	dir := ""
	if !w.drag.active {
		if ptr, err := w.native.Pointer(); err == nil {
			dir = character.GazeAt(w.bodyRect().Add(w.pos), ptr)
		}
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
