package voice

import (
	"context"
	"math"
	"sync"
	"time"

	"yui/transport/clock"
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

// MeterOptions tunes Meter.
type MeterOptions struct {
	// VAD's threshold is what Reading reports.
	VAD VADConfig
	// FarEnd, when set, is what the speakers play: the meter reads the
	// microphone cleaned against it, as the listener hears it with the
	// echo canceller on (echo.go), so the level and the sensitivity it is
	// set against are the detector's (issue 35). Nil: the raw microphone.
	FarEnd FarEnd
	// Clock stamps captured blocks for the far end; nil: the wall clock.
	Clock clock.Clock
}

// Meter captures from c in Mono16k and calls fn with a Reading about every
// MeterEvery of audio (counted in samples, so a file plays as it would),
// until ctx ends or the capture stops. fn runs on the capture's
// goroutine: it must return quickly.
func Meter(ctx context.Context, c Capture, o MeterOptions, fn func(Reading)) error {
	cfg := o.VAD.withDefaults()
	var echo *echoPath
	if o.FarEnd != nil {
		echo = newEchoPath(o.FarEnd, nil)
	}
	clk := o.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	tl := captureTimeline{rate: Mono16k.SampleRate}
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
		if echo != nil {
			pcm = echo.process(pcm, tl.stamp(len(pcm), clk.Now()))
		}
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
