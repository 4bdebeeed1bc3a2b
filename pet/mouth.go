package pet

import (
	"math"
	"time"
)

// SpeechFailedNotice is the pill's note when a sentence could not be
// heard (the speech engine failed): it shows in the bubble only, as the
// speech_failed log line says once.
const SpeechFailedNotice = "speech failed: shown in the bubble only"

// AudioNoticeHold is how long the pill's audio notice shows.
const AudioNoticeHold = 15 * time.Second

// MouthClosedBelow is the level under which the mouth is shut: the breath
// between words, and the noise floor of a synthesiser.
const MouthClosedBelow = 0.08

// MouthFrame is the talk frame for a mouth level (0–1) among n frames. A
// pack's talk motion is a loop from a closed mouth through the widest
// (frame n/2) and back, so the frames 0..n/2 open the mouth wider one by
// one: the level picks among them.
func MouthFrame(level float64, n int) int {
	if n < 2 || level < MouthClosedBelow || math.IsNaN(level) {
		return 0
	}
	widest := n / 2
	return min(widest, 1+int(math.Round(min(1, level)*float64(widest-1))))
}

// MouthFrame is the talk frame the pet's audio asks for among the n frames
// of the talk motion; ok is false while no audio plays (the none engine,
// no device) or the pet is not talking: the motion then plays as it loops.
func (c *Controller) MouthFrame(n int) (frame int, ok bool) {
	if c.hooks.mouth == nil {
		return 0, false
	}
	c.mu.Lock()
	talking := c.stage.motion() == "talk"
	c.mu.Unlock()
	if !talking {
		return 0, false
	}
	level, playing := c.hooks.mouth.Level()
	if !playing {
		return 0, false
	}
	return MouthFrame(level, n), true
}
