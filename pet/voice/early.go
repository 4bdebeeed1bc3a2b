package voice

import (
	"context"
	"sync"
	"time"
)

// An early transcription (framer.early): once the speech has paused for
// the utterance's tail, the audio the utterance will hold if it ends there
// goes to the transcriber at once, while the VAD's hangover waits to be
// sure the user has finished. When it ends the utterance with no more
// voice, its text is the early one's, which the hangover's wait has
// already paid for; when the voice goes on, the early request is
// cancelled and the utterance's end is transcribed as usual. A pause
// between words costs one wasted request; the end of every turn saves
// the hangover less the tail (300 ms with the defaults) or the whole
// transcription time, whichever is less (docs/hands-free.md).
type early struct {
	cancel context.CancelFunc
	done   chan struct{}
	text   string
	err    error
	took   time.Duration
}

// startEarly transcribes pcm on a goroutine of its own, counted in wg.
func (l *Listener) startEarly(ctx context.Context, wg *sync.WaitGroup, pcm []int16) *early {
	ctx, cancel := context.WithTimeout(ctx, l.o.TranscribeTimeout)
	e := &early{cancel: cancel, done: make(chan struct{})}
	l.o.Logger.Debug("voice_early_transcribe", "ms", len(pcm)*1000/l.rate)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(e.done)
		defer cancel()
		t0 := time.Now()
		e.text, e.err = l.o.Transcriber.Transcribe(ctx, EncodeWAV(pcm, Mono16k))
		e.took = time.Since(t0)
	}()
	return e
}

// void cancels an early transcription the voice went past.
func (e *early) void(l *Listener) {
	if e != nil {
		e.cancel()
		l.o.Logger.Debug("voice_early_void")
	}
}

// wait returns the early transcription's text once it is done.
func (e *early) wait(ctx context.Context) (string, time.Duration, error) {
	select {
	case <-e.done:
		return e.text, e.took, e.err
	case <-ctx.Done():
		e.cancel()
		return "", 0, ctx.Err()
	}
}
