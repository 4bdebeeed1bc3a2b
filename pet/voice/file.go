package voice

import (
	"context"
	"fmt"
	"os"
	"time"

	"yui/transport/clock"
)

// File is a Capture that plays a WAV file as if a microphone heard it
// (--voice-in, and tests): resampled to the capture format, delivered one
// FrameDuration block per FrameDuration of the clock, then silence until
// the capture stops.
type File struct {
	samples []int16
	rate    int
	clock   clock.Clock
	// OnEnd, when set before Start, is called once, on Start's goroutine,
	// after the block holding the file's last sample was delivered.
	OnEnd func()
}

// OpenFile reads a WAV file of any rate and channel count (DecodeWAV).
// Blocks are paced on c; nil is the wall clock.
func OpenFile(path string, c clock.Clock) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("voice input file: %w", err)
	}
	pcm, rate, err := DecodeWAV(data)
	if err != nil {
		return nil, fmt.Errorf("voice input file %s: %w", path, err)
	}
	return NewFile(pcm, rate, c), nil
}

// NewFile is a File playing mono pcm recorded at rate.
func NewFile(pcm []int16, rate int, c clock.Clock) *File {
	if c == nil {
		c = clock.Real{}
	}
	return &File{samples: pcm, rate: rate, clock: c}
}

// Start delivers the file, then silence, until ctx ends.
func (f *File) Start(ctx context.Context, fm Format, onFrame func(pcm []int16)) error {
	pcm := Resample(f.samples, f.rate, fm.SampleRate)
	ch := max(fm.Channels, 1)
	n := FrameSamples(fm.SampleRate)
	block := make([]int16, n*ch)
	tick := make(chan struct{}, 1)
	// Each block is due a whole number of frames after the start, as a
	// microphone's are: a block timed from the one before it would come a
	// little later each time (the time each takes to hand on), and a long
	// file would play slower than it sounds.
	start := f.clock.Now()
	for pos, k := 0, 1; ; pos, k = pos+n, k+1 {
		wait := start.Add(time.Duration(k) * FrameDuration).Sub(f.clock.Now())
		t := f.clock.AfterFunc(max(wait, 0), func() { tick <- struct{}{} })
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-tick:
		}
		clear(block)
		for i := 0; i < n && pos+i < len(pcm); i++ {
			for c := range ch {
				block[i*ch+c] = pcm[pos+i]
			}
		}
		onFrame(block)
		if pos < len(pcm) && pos+n >= len(pcm) && f.OnEnd != nil {
			f.OnEnd()
		}
	}
}
