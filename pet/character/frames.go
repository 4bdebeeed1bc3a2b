package character

import (
	"image"
	"time"
)

// FrameSet is what to show for a motion and an emotion: Frames shown in
// turn at FPS frames a second, looping or stopping on the last one. A
// still image is one frame with FPS 0.
type FrameSet struct {
	Frames []image.Image
	FPS    float64
	Loop   bool
	// Motion is the motion whose frames these are; "" for a still image.
	Motion string
	// Durations, when set, is each frame's time (Motion.Durations).
	Durations []time.Duration
}

// Frames picks what to show for a motion and an emotion ("" is neutral).
// A motion other than idle plays its frames; idle plays its frames while
// the emotion is neutral; any other emotion shows its still image. Talking
// with a feeling shows the feeling: the pack's talk loop for that emotion
// when it has one (talk_by_emotion, meta.go), else the feeling's still,
// for the talk frames have a neutral face and the emotion a cue set is
// what the reply means to show.
//
// The fallbacks: an unknown motion, or one with no frames, stands as idle;
// an emotion the pack has no image for shows the neutral image (and talk
// plays its frames); a pack with no neutral image plays idle. A nil pack,
// or one with nothing to show, gives an empty FrameSet. The frames are the
// pack's own slices: callers must not change them.
func (p *Pack) Frames(motion, emotion string) FrameSet {
	if p == nil {
		return FrameSet{}
	}
	if emotion == "" {
		emotion = "neutral"
	}
	if fb := FallbackMotion(motion); fb != "" && !p.Has(motion) {
		motion = fb
	}
	m, hasMotion := p.Motions[motion]
	idle, hasIdle := p.Motions["idle"]
	if motion == "talk" {
		if loop, ok := p.TalkByEmotion[emotion]; ok && p.Has(loop) {
			// A talk loop with this emotion's face (or the plain talk
			// loop for an emotion whose face shuts the mouth): it plays
			// as talk, so the mouth follows the audio (pet/mouth.go).
			t := p.Motions[loop]
			return FrameSet{Frames: t.Frames, FPS: t.FPS, Loop: t.Loop, Motion: "talk", Durations: t.Durations}
		}
	}
	switch {
	case hasMotion && motion != "idle" && len(m.Frames) > 0 &&
		!(motion == "talk" && emotion != "neutral" && p.Emotions[emotion] != nil):
		return FrameSet{Frames: m.Frames, FPS: m.FPS, Loop: m.Loop, Motion: motion, Durations: m.Durations}
	case emotion == "neutral" && hasIdle && len(idle.Frames) > 0:
		return FrameSet{Frames: idle.Frames, FPS: idle.FPS, Loop: idle.Loop, Motion: "idle", Durations: idle.Durations}
	case p.Emotions[emotion] != nil:
		return FrameSet{Frames: []image.Image{p.Emotions[emotion]}}
	case p.Emotions["neutral"] != nil:
		return FrameSet{Frames: []image.Image{p.Emotions["neutral"]}}
	case hasIdle && len(idle.Frames) > 0:
		return FrameSet{Frames: idle.Frames, FPS: idle.FPS, Loop: idle.Loop, Motion: "idle", Durations: idle.Durations}
	}
	return FrameSet{}
}

// Outline returns a copy of p that keeps its ids, frame counts, rates and
// texts but no image: what the pet's controller reads of a pack. Holding
// the outline instead of the pack lets the full-size images go once the
// window has its scaled copy.
func (p *Pack) Outline() *Pack {
	if p == nil {
		return nil
	}
	q := *p
	q.Emotions = make(map[string]image.Image, len(p.Emotions))
	for id := range p.Emotions {
		q.Emotions[id] = outlineImage
	}
	q.Motions = make(map[string]Motion, len(p.Motions))
	for id, m := range p.Motions {
		m.Frames = make([]image.Image, len(m.Frames)) // the rest (rate, durations) stays
		for i := range m.Frames {
			m.Frames[i] = outlineImage
		}
		q.Motions[id] = m
	}
	q.Mirror = nil // the flipped images: drawing only
	q.Gaze = make(map[string]image.Image, len(p.Gaze))
	for id := range p.Gaze {
		q.Gaze[id] = outlineImage
	}
	return &q
}

// outlineImage stands for every image of an outline: an empty image, so
// that code asking whether a frame exists still finds one.
var outlineImage image.Image = image.NewNRGBA(image.Rectangle{})
