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
	c.update(func() {
		if c.mood.sleepy == on {
			return
		}
		c.mood.sleepy = on
		c.applyMoodLocked()
	})
}

// Pat is a press-and-hold on the character's head: a happy reaction for
// PatTime, shown locally; no turn starts. It wakes a sleepy character for
// that time.
func (c *Controller) Pat() {
	if c.isClosed() {
		return
	}
	c.update(func() {
		c.mood.patted = true
		c.applyMoodLocked()
		c.tmr.pat.Arm(c.clock, PatTime, func(gen int) {
			c.update(func() {
				if c.tmr.pat.Current(gen) {
					c.tmr.pat.Stop()
					c.mood.patted = false
					c.applyMoodLocked()
				}
			})
		})
	})
}

// applyMoodLocked shows the emotion the mood asks for, the pack having it:
// a pat's over sleepy over the rest. c.mu is held.
func (c *Controller) applyMoodLocked() {
	want := ""
	switch {
	case c.mood.patted:
		want = PatEmotion
	case c.mood.sleepy:
		want = SleepyEmotion
	}
	if _, ok := c.pack.Emotions[want]; !ok {
		want = ""
	}
	switch {
	case want != "" && c.mood.rest == "":
		c.mood.rest = c.view.Emotion
		c.view.Emotion = want
	case want != "":
		c.view.Emotion = want
	case c.mood.rest != "":
		c.view.Emotion = c.mood.rest
		c.mood.rest = ""
	}
}
