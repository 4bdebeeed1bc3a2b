package pet

import "time"

// Local moods: what the character shows by itself, without a turn.
const (
	// SleepyEmotion is shown while the user is away (SetSleepy).
	SleepyEmotion = "sleepy"
	// PatEmotion is the reaction to a pat, for PatTime.
	PatEmotion = "happy"
	PatTime    = 2 * time.Second
)

// mood is the local part of the view: the sleepy look and a pat's
// reaction, laid over the emotion the turns left (rest).
type mood struct {
	sleepy bool
	patted bool
	rest   string // the emotion to go back to; "" while none is laid over
}

// SetSleepy shows the sleepy emotion while the user is away (the app's
// idle tracker) and takes it away when they return. A pack without it
// keeps its face. A turn's emotions still show: sleepy is laid over
// whatever the last one left.
func (c *Controller) SetSleepy(on bool) {
	if c.isClosed() {
		return
	}
	c.update(func() { c.stage.setSleepy(on) })
}

// Pat is a press-and-hold on the character's head: a happy reaction for
// PatTime, shown locally; no turn starts. It wakes a sleepy character for
// that time.
func (c *Controller) Pat() {
	if c.isClosed() {
		return
	}
	c.update(c.stage.pat)
}

// setSleepy lays the sleepy emotion over the rest, or takes it away.
func (s *stage) setSleepy(on bool) {
	if s.mood.sleepy == on {
		return
	}
	s.mood.sleepy = on
	s.applyMood()
}

// pat shows a pat's reaction for PatTime.
func (s *stage) pat() {
	s.mood.patted = true
	s.applyMood()
	s.timers.arm(&s.patTmr, PatTime, func() {
		s.patTmr.Stop()
		s.mood.patted = false
		s.applyMood()
	})
}

// applyMood shows the emotion the mood asks for, the pack having it: a
// pat's over sleepy over the rest.
func (s *stage) applyMood() {
	want := ""
	switch {
	case s.mood.patted:
		want = PatEmotion
	case s.mood.sleepy:
		want = SleepyEmotion
	}
	if _, ok := s.pack.Emotions[want]; !ok {
		want = ""
	}
	switch {
	case want != "" && s.mood.rest == "":
		s.mood.rest = s.view.Emotion
		s.view.Emotion = want
	case want != "":
		s.view.Emotion = want
	case s.mood.rest != "":
		s.view.Emotion = s.mood.rest
		s.mood.rest = ""
	}
}
