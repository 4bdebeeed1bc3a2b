package petwindow

import (
	"math/rand/v2"
	"time"

	"yui/pet/character"
)

// Look-around pace: every lookEvery to twice that, an idle character
// glances left, then right, each for lookGlance.
const (
	lookEvery  = 12 * time.Second
	lookGlance = 700 * time.Millisecond
)

// lookAround is the occasional glance around of an idle character, beside
// the idle motion's blink (UI thread only).
type lookAround struct {
	next  time.Time // the next glance starts
	steps []string  // the glance's directions left to show, the current first
	until time.Time // the current direction ends
}

// at returns the direction to look at now, "" for ahead; pause is the
// wait before the next glance, drawn afresh after each.
func (l *lookAround) at(now time.Time, pause func() time.Duration) string {
	if l.next.IsZero() {
		l.next = now.Add(pause())
	}
	if len(l.steps) > 0 && !now.Before(l.until) {
		l.steps = l.steps[1:]
		l.until = now.Add(lookGlance)
		if len(l.steps) == 0 {
			l.next = now.Add(pause())
		}
	}
	if len(l.steps) == 0 && !now.Before(l.next) {
		l.steps = []string{character.GazeLeft, character.GazeRight}
		l.until = now.Add(lookGlance)
	}
	if len(l.steps) > 0 {
		return l.steps[0]
	}
	return ""
}

// reset ends a glance: the pointer came near, or the character is busy.
func (l *lookAround) reset(now time.Time, pause func() time.Duration) {
	l.steps = nil
	l.next = now.Add(pause())
}

// lookPause is a random wait between glances.
func lookPause() time.Duration { return lookEvery + rand.N(lookEvery) }
