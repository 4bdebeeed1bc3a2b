package windows

import (
	"image"
)

// updateFrames picks the frames to show for the view's motion and emotion.
// A motion other than idle plays its frames; idle plays its frames while
// the emotion is neutral; any other emotion shows its still image. Talking
// with a feeling shows the feeling: the talk frames have a neutral face,
// and the emotion a cue set is what the reply means to show.
func (w *PetWindow) updateFrames() {
	pack := w.opts.Pack
	if pack == nil {
		return
	}
	v := w.view
	key := v.Motion + "|" + v.Emotion
	if key == w.animKey && len(w.frames) > 0 {
		return
	}
	w.animKey = key
	var frames []image.Image
	fps, loop := 0.0, false
	emotion := v.Emotion
	if emotion == "" {
		emotion = "neutral"
	}
	m, hasMotion := pack.Motions[v.Motion]
	idle, hasIdle := pack.Motions["idle"]
	switch {
	case hasMotion && v.Motion != "idle" && len(m.Frames) > 0 &&
		!(v.Motion == "talk" && emotion != "neutral" && pack.Emotions[emotion] != nil):
		frames, fps, loop = m.Frames, m.FPS, m.Loop
	case emotion == "neutral" && hasIdle && len(idle.Frames) > 0:
		frames, fps, loop = idle.Frames, idle.FPS, idle.Loop
	case pack.Emotions[emotion] != nil:
		frames = []image.Image{pack.Emotions[emotion]}
	case pack.Emotions["neutral"] != nil:
		frames = []image.Image{pack.Emotions["neutral"]}
	case hasIdle && len(idle.Frames) > 0:
		frames, fps, loop = idle.Frames, idle.FPS, idle.Loop
	}
	w.frames, w.frame, w.loop = frames, 0, loop
	// Keep the idle motion's frames ready: the pet comes back to it after
	// every other motion.
	w.char.keep(frames, idle.Frames)
	if len(frames) > 0 {
		w.char.show(frames[0])
	}
	w.showBackdrop()
	w.anim.play(len(frames), fps, loop)
}

// showBackdrop draws the backdrop under the character only when the frame
// is not composited over it already.
func (w *PetWindow) showBackdrop() {
	setShown(w.backdrop, w.char.current != nil && !w.char.opaque)
}

// showFrame shows frame i of the motion playing (the animator's tick),
// with a status pill change held for it; it redraws only when the frame
// image changes.
func (w *PetWindow) showFrame(i int) {
	if w.closed.Load() || i >= len(w.frames) {
		return
	}
	w.frame = i
	if w.char.show(w.frames[i]) {
		w.showBackdrop()
	}
	if w.hasPending {
		w.render(w.pending)
	} else {
		w.updateShape()
	}
}

// prepareFrame sets the shape of frame i of the motion playing, a tick
// before showFrame shows it (animator).
func (w *PetWindow) prepareFrame(i int) {
	if w.closed.Load() || i >= len(w.frames) {
		return
	}
	w.setShape(w.frames[i])
}
