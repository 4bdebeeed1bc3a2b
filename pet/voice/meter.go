package voice

import (
	"context"
	"math"
	"sync"
	"time"
)

// Reading is one step of a level meter, in dBFS: the loudest frame since
// the last reading, the noise floor the voice-activity detector estimates,
// and the level speech must reach to count as voice (floor + threshold).
type Reading struct {
	Level, Floor, Threshold float64
}

// MeterEvery is how often Meter reports: often enough for a meter that
// moves with the voice, rarely enough to cost nothing.
const MeterEvery = 100 * time.Millisecond

// Meter captures from c in Mono16k and calls fn with a Reading about every
// MeterEvery of audio (counted in samples, so a file plays as it would),
// until ctx ends or the capture stops; cfg's threshold is what Reading
// reports. fn runs on the capture's goroutine: it must return quickly.
func Meter(ctx context.Context, c Capture, cfg VADConfig, fn func(Reading)) error {
	cfg = cfg.withDefaults()
	vad := NewVAD(Mono16k.SampleRate, cfg)
	frame := FrameSamples(Mono16k.SampleRate)
	per := Mono16k.SampleRate * int(MeterEvery/time.Millisecond) / 1000
	var (
		mu      sync.Mutex
		pending []int16
		loud    = math.Inf(-1)
		counted int
	)
	err := c.Start(ctx, Mono16k, func(pcm []int16) {
		mu.Lock()
		defer mu.Unlock()
		pending = append(pending, pcm...)
		for len(pending) >= frame {
			f := pending[:frame]
			vad.Frame(f)
			loud = math.Max(loud, vad.LastLevel())
			pending = pending[frame:]
			counted += frame
			if counted >= per {
				floor := vad.Floor()
				fn(Reading{Level: loud, Floor: floor, Threshold: floor + cfg.Threshold})
				loud, counted = math.Inf(-1), 0
			}
		}
		// Keep the tail in a buffer of its own: pcm is the capture's.
		pending = append([]int16(nil), pending...)
	})
	if ctx.Err() != nil {
		return nil
	}
	return err
}
