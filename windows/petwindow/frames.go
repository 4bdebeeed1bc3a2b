package petwindow

import "yui/windows/widgets"

// updateFrames asks the pack what to show for the view's motion and
// emotion (character.Pack.Frames) and plays it.
func (w *PetWindow) updateFrames() {
	pack := w.opts.Pack
	if pack == nil {
		return
	}
	v := w.view
	v.Motion = w.shownMotion()
	key := v.Motion + "|" + v.Emotion + "|" + w.gaze
	if key == w.draw.animKey && len(w.draw.frames) > 0 {
		return
	}
	w.draw.animKey = key
	set := w.gazeFrames(pack.Frames(v.Motion, v.Emotion), v.Emotion)
	w.draw.frames = set.Frames
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
	w.showBackdrop()
	w.anim.play(len(set.Frames), set.FPS, set.Loop)
	// Lip-sync: while the talk motion plays, the audio's loudness picks
	// the mouth frame.
	w.anim.pick = nil
	if ms, ok := w.opts.Actions.(MouthSource); ok && set.Motion == "talk" {
		n := len(set.Frames)
		w.anim.pick = func() (int, bool) { return ms.MouthFrame(n) }
	}
}

// showBackdrop draws the backdrop under the character only when the frame
// is not composited over it already.
func (w *PetWindow) showBackdrop() {
	widgets.SetShown(w.backdrop, w.char.current != nil && !w.char.opaque)
}

// showFrame shows frame i of the motion playing (the animator's tick),
// with a status pill change held for it; it redraws only when the frame
// image changes.
func (w *PetWindow) showFrame(i int) {
	if w.closed.Load() || i >= len(w.draw.frames) {
		return
	}
	if w.char.show(w.draw.frames[i]) {
		w.showBackdrop()
	}
	if w.draw.hasPending {
		w.render(w.draw.pending)
	} else {
		w.updateShape()
	}
}

// prepareFrame sets the shape of frame i of the motion playing, a tick
// before showFrame shows it (animator).
func (w *PetWindow) prepareFrame(i int) {
	if w.closed.Load() || i >= len(w.draw.frames) {
		return
	}
	w.setShape(w.draw.frames[i])
}
