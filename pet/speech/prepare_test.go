package speech

import (
	"context"
	"io"
	"testing"
	"time"

	"yui/pet/audio"
	"yui/transport/clock/clocktest"
)

// blockedSynth is a backend that never answers until its context ends:
// a hung server, a process that does not start.
type blockedSynth struct{ opened chan struct{} }

func (blockedSynth) Name() string { return "blocked" }

func (b blockedSynth) Open(ctx context.Context, _ string) (io.ReadCloser, audio.Format, error) {
	b.opened <- struct{}{}
	<-ctx.Done()
	return nil, audio.Format{}, ctx.Err()
}

// TestPrepareNeverBlocks holds every engine to the Engine contract: the
// playback queue calls Prepare under its lock, so Prepare returns at once
// even when the synthesis behind it hangs.
func TestPrepareNeverBlocks(t *testing.T) {
	synth := blockedSynth{opened: make(chan struct{}, 1)}
	m := audio.NewMixer()
	engines := map[string]Engine{
		"none":  NewNone(clocktest.NewFake(time.Unix(0, 0))),
		"audio": NewAudio(synth, m.NewPlayer()),
	}
	for name, e := range engines {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := e.Prepare(ctx, "A sentence that takes long to synthesise.")
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: Prepare: %v", name, err)
			}
		case <-time.After(wait):
			t.Fatalf("%s: Prepare blocked on a synthesis that hangs", name)
		}
		cancel()
		if err := e.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
	}
	select {
	case <-synth.opened:
	default:
		t.Error("the audio engine never started the synthesis")
	}
}
