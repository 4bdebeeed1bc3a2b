package petwindow

import (
	"fmt"
	"image"
	"time"
	"yui/pet/character"
	"yui/windows/widgets"
)

// player plays the frames the pack has for what the pet does: it asks
// the pack for them (character.Pack.Frames) and the animator shows them
// in turn. UI thread.
type player struct {
	w      *PetWindow
	anim   *animator
	key    string        // motion|emotion|gaze|mirrored the frames playing were chosen for
	frames []image.Image // what the pack gave for key (Pack.Frames)
}

// motion is the motion whose frames show: the one on screen, or
// what a pack with the optional motions has for the moment (held by the
// pointer, landing from a fall, sitting on a window's edge).
func (pl *player) motion() string {
	w := pl.w
	pack := w.opts.Pack
	m := w.shownMotion()
	switch {
	case w.placer.drag.active && pack.Has(character.MotionDrag):
		return character.MotionDrag
	case w.move.landing && pack.Has(character.MotionLand):
		return character.MotionLand
	case m == "sit" && w.move.motion == "sit":
		// The body tool sits the pet on a window; Frames falls back to
		// sit when the pack has no edge pose.
		return character.MotionSitEdge
	}
	return m
}

// update asks the pack what to show for the view's motion and
// emotion (character.Pack.Frames) and plays it.
func (pl *player) update() {
	w := pl.w
	pack := w.opts.Pack
	if pack == nil {
		return
	}
	v := w.view
	v.Motion = pl.motion()
	mirrored := pack.Mirrored(w.move.right)
	key := fmt.Sprint(v.Motion, "|", v.Emotion, "|", w.eyes.dir, "|", mirrored)
	if key == pl.key && len(pl.frames) > 0 {
		return
	}
	pl.key = key
	pack = pack.Turned(mirrored)
	set := w.eyes.frames(pack.Frames(v.Motion, v.Emotion), v.Emotion)
	pl.frames = set.Frames
	// Keep the idle motion's frames ready: the pet comes back to it after
	// every other motion. Keep each emotion's and gaze's still once shown
	// (an idle pet glances around every few seconds): a reply
	// changes the emotion every turn or two, and an image decoded again
	// is a texture made again, which the GL driver's heap does not give
	// back (the 10,000-turn benchmark).
	w.char.keep(set.Frames, pack.Motions["idle"].Frames, w.char.shownStills(pack.Emotions), w.char.shownStills(pack.Gaze))
	if len(set.Frames) > 0 {
		w.char.show(set.Frames[0])
	}
	pl.showBackdrop()
	// Lip-sync: while the talk motion plays, the audio's loudness picks
	// the mouth frame.
	pl.anim.pick = nil
	if ms, ok := w.opts.Actions.(MouthSource); ok && set.Motion == "talk" {
		n := len(set.Frames)
		pl.anim.pick = func() (int, bool) { return ms.MouthFrame(n) }
	}
	// The idle cycle is what a pet shows nearly all the time, and each of
	// its frame changes costs a repaint: it changes at most maxIdleFPS
	// times a second, and slower still while nobody watches (SetIdlePace).
	pace := 1.0
	if set.Motion == "idle" {
		pace = max(pl.anim.idlePace, frameRate(set)/maxIdleFPS)
	}
	pl.anim.pace = max(pace, 1)
	pl.anim.play(len(set.Frames), set.FPS, set.Loop, set.Durations)
}

// frameRate is how many frame changes a second a frame set asks for: its
// fps, or its frames over their durations when each has its own.
func frameRate(set character.FrameSet) float64 {
	if len(set.Durations) == len(set.Frames) && len(set.Frames) > 0 {
		var total time.Duration
		for _, d := range set.Durations {
			total += d
		}
		if total > 0 {
			return float64(len(set.Frames)) / total.Seconds()
		}
	}
	return set.FPS
}

// maxIdleFPS caps the idle motion's frame changes a second, whatever
// the pack asks: each costs a repaint of the whole window (see
// docs/performance.md), and breathing reads as breathing at two.
const maxIdleFPS = 2

// showBackdrop draws the backdrop under the character only when the frame
// is not composited over it already.
func (pl *player) showBackdrop() {
	w := pl.w
	widgets.SetShown(w.backdrop, w.char.frame != nil && !w.char.opaque)
}

// show shows frame i of the motion playing (the animator's tick),
// with a status pill change held for it; it redraws only when the frame
// image changes.
func (pl *player) show(i int) {
	w := pl.w
	if w.closed.Load() || i >= len(pl.frames) {
		return
	}
	if w.char.show(pl.frames[i]) {
		pl.showBackdrop()
	}
	if w.draw.hasPending {
		w.render(w.draw.pending)
	} else {
		w.shape.update()
	}
}

// prepare sets the shape of frame i of the motion playing, a tick
// before show shows it (animator).
func (pl *player) prepare(i int) {
	w := pl.w
	if w.closed.Load() || i >= len(pl.frames) {
		return
	}
	w.shape.set(pl.frames[i])
}
