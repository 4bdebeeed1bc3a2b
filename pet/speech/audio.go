package speech

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"

	"yui/pet/audio"
)

// Synth is one TTS backend behind the Audio engine.
type Synth interface {
	// Name is the backend's name in logs ("espeak-ng", "openai").
	Name() string
	// Open starts synthesising text and returns its audio as it is made:
	// a WAV stream, or raw 16-bit little-endian PCM in format raw. The
	// Audio engine calls it on a goroutine of its own, never under a lock,
	// and closes body. Cancelling ctx ends the synthesis: the process is
	// killed, the request aborted, and body's reads fail.
	Open(ctx context.Context, text string) (body io.ReadCloser, raw audio.Format, err error)
}

var (
	errEngineClosed = errors.New("speech engine closed")
	errStall        = fmt.Errorf("no audio for %v", SynthStall)
)

// SynthStall is how long a synthesis may send nothing before it is given
// up as failed: a server that stops mid-sentence must not hold the queue.
const SynthStall = 20 * time.Second

// Audio is an engine that plays what its Synth makes on a pet's player.
// Prepare starts the synthesis at once on a goroutine of its own, so the
// next sentence is synthesised while the current one plays, and playback
// starts with the first samples rather than at the end of the synthesis.
type Audio struct {
	synth  Synth
	player *audio.Player

	ctx    context.Context // ends on Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewAudio returns the engine playing s on p.
func NewAudio(s Synth, p *audio.Player) *Audio {
	ctx, cancel := context.WithCancel(context.Background())
	return &Audio{synth: s, player: p, ctx: ctx, cancel: cancel}
}

// Name is the synth's name.
func (e *Audio) Name() string { return e.synth.Name() }

// Prepare starts synthesising text into a stream and returns the clip
// playing it. It never blocks and never fails: a synthesis error ends the
// clip's playback with that error.
func (e *Audio) Prepare(ctx context.Context, text string) (Clip, error) {
	st := audio.NewStream()
	st.Label = text
	if err := e.ctx.Err(); err != nil {
		st.Close(errEngineClosed)
		return &audioClip{player: e.player, stream: st}, nil
	}
	ctx, cancel := context.WithCancelCause(ctx)
	stopOnClose := context.AfterFunc(e.ctx, func() { cancel(errEngineClosed) })
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer stopOnClose()
		defer cancel(nil)
		e.synthesise(ctx, cancel, text, st)
	}()
	return &audioClip{player: e.player, stream: st}, nil
}

// synthesise runs the synth for one sentence into st.
func (e *Audio) synthesise(ctx context.Context, cancel context.CancelCauseFunc, text string, st *audio.Stream) {
	body, raw, err := e.synth.Open(ctx, text)
	if err != nil {
		st.Close(fmt.Errorf("%s: %w", e.synth.Name(), err))
		return
	}
	r := &stallReader{r: body, timer: time.AfterFunc(SynthStall, func() { cancel(errStall) })}
	err = audio.Decode(r, raw, st)
	r.timer.Stop()
	// A process that failed tells so by its exit status, after its output;
	// a program that exited with an error says why better than what it
	// left on its output does.
	var exit *exec.ExitError
	if cerr := body.Close(); err == nil || errors.As(cerr, &exit) && exit.Exited() {
		err = cmp.Or(cerr, err)
	}
	switch {
	case ctx.Err() != nil:
		err = fmt.Errorf("%s: %w", e.synth.Name(), context.Cause(ctx))
	case err != nil:
		err = fmt.Errorf("%s: %w", e.synth.Name(), err)
	}
	st.Close(err)
}

// Close abandons every synthesis and waits for them.
func (e *Audio) Close() error {
	e.cancel()
	e.wg.Wait()
	return nil
}

// stallReader re-arms timer at each read that returns data.
type stallReader struct {
	r     io.Reader
	timer *time.Timer
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.timer.Reset(SynthStall)
	}
	return n, err
}

// audioClip plays one sentence's stream on the pet's player.
type audioClip struct {
	player *audio.Player
	stream *audio.Stream
}

// Stream is the clip's audio, for tests.
func (c *audioClip) Stream() *audio.Stream { return c.stream }

// Start plays the stream; stop silences it at once.
func (c *audioClip) Start(done func(error)) (stop func()) {
	return c.player.Start(c.stream, done)
}

// Play blocks until the stream has played or ctx ends.
func (c *audioClip) Play(ctx context.Context) error {
	errc := make(chan error, 1)
	stop := c.Start(func(err error) { errc <- err })
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		stop()
		return ctx.Err()
	}
}

// Speak plays one sentence on e and waits for it: the settings window's
// Test button. It returns the synthesis or playback error.
func Speak(ctx context.Context, e Engine, text string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	clip, err := e.Prepare(ctx, text)
	if err != nil {
		return err
	}
	return clip.Play(ctx)
}
