package voice

import (
	"context"
	"testing"
)

// BenchmarkEndOfSpeechToTurn is what the client adds between the end of
// speech and the turn, on top of the speech-to-text engine's own time
// (here an engine that answers at once): the VAD's hangover, reported as
// hangover-ms, which is audio the listener waits through, plus ns/op, the
// work from the block that closes the utterance to Target.VoiceTurn (cut,
// WAV encoding, the hand-over to the transcriber goroutine and back).
// Sending the turn is the transport's (cmd/yui/e2e's benchmarks).
func BenchmarkEndOfSpeechToTurn(b *testing.B) {
	pcm := sentence(b)
	n := FrameSamples(rate)
	// Which block closes the utterance: the VAD is deterministic.
	closing := -1
	fr := newFramer(rate, VADConfig{}, ModeHandsFree)
	for i := 0; closing < 0 && i*n < len(pcm); i++ {
		for _, a := range fr.feed(pcm[i*n:(i+1)*n], func() bool { return false }) {
			if a.kind == actUtterance {
				closing = i
			}
		}
	}
	if closing < 0 {
		b.Fatal("no utterance in the sample")
	}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		blocks := make(chan []int16)
		turned := make(chan struct{}, 1)
		processed := make(chan struct{}, 1)
		l := NewListener(ListenerOptions{
			Mode: ModeHandsFree,
			Capture: captureFunc(func(ctx context.Context, _ Format, onFrame func([]int16)) error {
				for {
					select {
					case blk := <-blocks:
						onFrame(blk)
					case <-ctx.Done():
						return ctx.Err()
					}
				}
			}),
			Transcriber: transcriberFunc(func(context.Context, []byte) (string, error) { return "hello", nil }),
			Target:      benchTarget{turned: turned},
		})
		l.afterBlock = func() { processed <- struct{}{} }
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { l.Run(ctx); close(done) }()
		for i := range closing {
			blocks <- pcm[i*n : (i+1)*n]
			<-processed
		}
		b.StartTimer()
		blocks <- pcm[closing*n : (closing+1)*n]
		<-turned
		b.StopTimer()
		<-processed
		cancel()
		<-done
	}
	b.ReportMetric(float64(DefaultVADConfig.Hangover.Milliseconds()), "hangover-ms")
}

type benchTarget struct{ turned chan struct{} }

func (t benchTarget) VoiceTurn(string)    { t.turned <- struct{}{} }
func (benchTarget) BargeIn()              {}
func (benchTarget) SetVoiceStatus(string) {}
func (benchTarget) SpeechOwed() bool      { return false }
