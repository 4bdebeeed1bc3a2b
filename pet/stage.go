package pet

import (
	"time"

	"yui/pet/character"
	"yui/pet/playback"
	"yui/transport"
	"yui/transport/clock"
)

// stage is what the pet shows of her playback: the motion (thinking, a
// cue's, talk or idle), the bubble, the last cue's emotion, badge and
// caption, the local moods laid over that emotion (mood.go) and the
// pill's audio notice. The playback queue drives it through its
// playback.Stage methods.
//
// It is part of the controller's state, under mu, and writes the
// controller's view: its playback.Stage methods and its timers take mu
// through update, as every change does (see the package doc); its other
// methods are called with mu held.
type stage struct {
	view   *View // the controller's view
	pack   *character.Pack
	hold   time.Duration // how long the bubble stays after playback
	timers lockedTimers

	anim     motionState
	mood     mood       // sleepy and pat, laid over the turns' emotion
	audioTmr clock.Slot // the audio notice clears
	patTmr   clock.Slot // a pat's reaction ends
}

var _ playback.Stage = (*stage)(nil)

// motion is the motion playing: thinking wins, then a cue's motion,
// then talk while a sentence plays, else idle.
func (s *stage) motion() string {
	switch {
	case s.anim.thinking:
		return "thinking"
	case s.anim.cueMotion != "":
		return s.anim.cueMotion
	case s.anim.speaking:
		return "talk"
	}
	return "idle"
}

// Cue renders one cue: its emotion, badge, caption and motion.
func (s *stage) Cue(_ string, cue transport.Cue) {
	s.timers.update(func() {
		if cue.EmotionID != "" {
			s.view.Emotion = cue.EmotionID
			s.mood.rest = "" // a turn's emotion outlasts the local mood
		}
		s.view.EmotionText = cue.EmotionText
		s.view.Caption = cue.Caption
		if cue.MotionID != "" {
			s.setCueMotion(cue.MotionID)
		}
	})
}

// setCueMotion plays a cue's motion: a looping one until the next cue
// motion or thinking or until the reply's bubble clears, a non-looping
// one once, then back to talk or idle.
func (s *stage) setCueMotion(id string) {
	s.anim.motionTmr.Stop()
	s.anim.cueMotion = id
	m, ok := s.pack.Motions[id]
	if ok && m.Loop {
		return
	}
	d := time.Second // a motion the pack lacks: show its id briefly
	if l := m.Length(); ok && l > 0 {
		d = l
	}
	s.timers.arm(&s.anim.motionTmr, d, func() { s.anim.cueMotion = "" })
}

// clearCueMotion ends a cue's motion now.
func (s *stage) clearCueMotion() {
	s.anim.motionTmr.Stop()
	s.anim.cueMotion = ""
}

// Speech shows the sentence starting to play in the bubble; text ""
// (playback went idle) keeps the bubble for the hold, then clears it.
func (s *stage) Speech(_, text string) {
	s.timers.update(func() {
		s.anim.bubbleTmr.Stop()
		if text != "" {
			s.anim.speaking = true
			s.view.Bubble = text
			return
		}
		s.anim.speaking = false
		s.timers.arm(&s.anim.bubbleTmr, s.hold, func() {
			s.view.Bubble = ""
			s.anim.bubbleTmr.Stop()
			// A looping cue motion belongs to the reply: when the reply
			// is over the character settles back to idle, unless the
			// motion is a posture it holds (sitting).
			if s.anim.cueMotion != "" && s.anim.cueMotion != "sit" {
				s.clearCueMotion()
			}
		})
	})
}

// Thinking plays the thinking motion, which ends a cue's motion.
func (s *stage) Thinking(on bool) {
	s.timers.update(func() {
		s.anim.thinking = on
		if on {
			s.clearCueMotion()
		}
	})
}

// SpeechFailed says in the pill that a sentence shows in the bubble only.
func (s *stage) SpeechFailed(string) {
	s.timers.update(func() { s.showAudioNotice(SpeechFailedNotice) })
}

// showAudioNotice shows text in the status pill for AudioNoticeHold.
func (s *stage) showAudioNotice(text string) {
	s.view.Pill.Audio = text
	s.timers.arm(&s.audioTmr, AudioNoticeHold, func() { s.view.Pill.Audio = "" })
}
