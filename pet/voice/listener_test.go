package voice

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"yui/pet"
	"yui/pet/character"
	"yui/transport"
	"yui/transport/clock/clocktest"
)

// fakeCapture delivers its audio in 20 ms blocks as fast as the listener
// takes them, then waits for the end; err fails it before any block.
type fakeCapture struct {
	pcm []int16
	err error
}

func (c *fakeCapture) Start(ctx context.Context, f Format, onFrame func([]int16)) error {
	if c.err != nil {
		return c.err
	}
	n := FrameSamples(f.SampleRate)
	for i := 0; i < len(c.pcm); i += n {
		onFrame(c.pcm[i:min(i+n, len(c.pcm))])
	}
	<-ctx.Done()
	return ctx.Err()
}

// fakeTarget records what the listener did, in order.
type fakeTarget struct {
	mu       sync.Mutex
	calls    []string
	speaking bool
	changed  chan struct{}
}

func newFakeTarget() *fakeTarget { return &fakeTarget{changed: make(chan struct{}, 100)} }

func (f *fakeTarget) add(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
	f.changed <- struct{}{}
}
func (f *fakeTarget) VoiceTurn(text string)   { f.add("turn " + text) }
func (f *fakeTarget) BargeIn()                { f.add("barge-in") }
func (f *fakeTarget) SetVoiceStatus(s string) { f.add("status " + s) }
func (f *fakeTarget) SpeechOwed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.speaking
}

// waitFor waits until the target saw a call; it fails after a real-time bound.
func (f *fakeTarget) waitFor(t *testing.T, call string) []string {
	t.Helper()
	limit := time.After(10 * time.Second)
	for {
		f.mu.Lock()
		got := slices.Clone(f.calls)
		f.mu.Unlock()
		if slices.Contains(got, call) {
			return got
		}
		select {
		case <-f.changed:
		case <-limit:
			t.Fatalf("no %q; calls %q", call, got)
		}
	}
}

type transcriberFunc func(ctx context.Context, wav []byte) (string, error)

func (f transcriberFunc) Transcribe(ctx context.Context, wav []byte) (string, error) {
	return f(ctx, wav)
}

// sentence is a speech sample at a conversational level between silences.
func sentence(t testing.TB) []int16 {
	s := loadSpeech(t, "speech-male.wav")
	s = scale(s, -22+(Level(s)-speechLevel(s)))
	pcm := noise(rate+len(s)+2*rate, -60, 9)
	mix(pcm, s, rate)
	return pcm
}

func startListener(t *testing.T, o ListenerOptions) (*Listener, chan error) {
	t.Helper()
	l := NewListener(o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return l, done
}

func TestHandsFreeUtteranceBecomesAVoiceTurn(t *testing.T) {
	tg := newFakeTarget()
	var got []int16
	startListener(t, ListenerOptions{
		Mode:    ModeHandsFree,
		Capture: &fakeCapture{pcm: sentence(t)},
		Transcriber: transcriberFunc(func(_ context.Context, wav []byte) (string, error) {
			got, _, _ = DecodeWAV(wav)
			return "what is the weather", nil
		}),
		Target: tg,
	})
	calls := tg.waitFor(t, "turn what is the weather")
	want := []string{"status listening", "status transcribing", "turn what is the weather"}
	if !slices.Equal(calls, want) {
		t.Fatalf("calls %q, want %q", calls, want)
	}
	// The utterance sent is the sentence with a little audio around it.
	if d := ms(len(got)); d < 2*time.Second || d > 4*time.Second {
		t.Fatalf("utterance of %v", d)
	}
}

func TestFailedTranscriptionShowsItsReason(t *testing.T) {
	tg := newFakeTarget()
	startListener(t, ListenerOptions{
		Mode:    ModeHandsFree,
		Capture: &fakeCapture{pcm: sentence(t)},
		Transcriber: transcriberFunc(func(context.Context, []byte) (string, error) {
			return "", errors.New("transcription server: 503 Service Unavailable: loading")
		}),
		Target: tg,
	})
	tg.waitFor(t, "status transcription failed: transcription server: 503 Service Unavailable: loading")
}

func TestNoMicrophone(t *testing.T) {
	tg := newFakeTarget()
	_, done := startListener(t, ListenerOptions{
		Mode: ModeHandsFree, Capture: &fakeCapture{err: errors.New("no capture device")}, Target: tg,
	})
	if err := <-done; !errors.Is(err, ErrNoMicrophone) {
		t.Fatalf("Run = %v", err)
	}
	done <- nil // for the cleanup
	if calls := tg.waitFor(t, "status no microphone"); len(calls) != 1 {
		t.Fatalf("calls %q", calls)
	}
}

func TestModeOffCapturesNothing(t *testing.T) {
	c := &fakeCapture{err: errors.New("must not start")}
	if err := NewListener(ListenerOptions{Mode: ModeOff, Capture: c}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Push-to-talk: audio between press and release is one utterance; the
// VAD does not open one by itself.
func TestPushToTalk(t *testing.T) {
	tg := newFakeTarget()
	pcm := sentence(t)
	blocks := make(chan []int16)
	capture := captureFunc(func(ctx context.Context, f Format, onFrame func([]int16)) error {
		for {
			select {
			case b := <-blocks:
				onFrame(b)
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	})
	var gotLen int
	l, _ := startListener(t, ListenerOptions{
		Mode: ModePushToTalk, Capture: capture, Target: tg,
		Transcriber: transcriberFunc(func(_ context.Context, wav []byte) (string, error) {
			p, _, _ := DecodeWAV(wav)
			gotLen = len(p)
			return "open my notes", nil
		}),
	})
	processed := make(chan struct{}, 1000)
	l.afterBlock = func() { processed <- struct{}{} }
	feed := func(p []int16) {
		n := FrameSamples(rate)
		for i := 0; i < len(p); i += n {
			blocks <- p[i:min(i+n, len(p))]
			<-processed
		}
	}
	feed(pcm) // not held: nothing
	for !l.running.Load() {
		// Run sets running before Start delivers the first block, which
		// feed waited for.
		t.Fatal("not running")
	}
	// A tap is too short to hold speech: the pill clears.
	l.Press()
	feed(pcm[:FrameSamples(rate)])
	l.Release()
	tg.waitFor(t, "status ")
	tg.mu.Lock()
	tg.calls = nil
	tg.mu.Unlock()

	l.Press()
	feed(pcm)
	l.Release()
	calls := tg.waitFor(t, "turn open my notes")
	want := []string{"status listening", "status transcribing", "turn open my notes"}
	if !slices.Equal(calls, want) {
		t.Fatalf("calls %q, want %q", calls, want)
	}
	if d := ms(gotLen); d < ms(len(pcm)) || d > ms(len(pcm))+preRoll+50*time.Millisecond {
		t.Fatalf("utterance of %v for a hold of %v", d, ms(len(pcm)))
	}
}

type captureFunc func(ctx context.Context, f Format, onFrame func([]int16)) error

func (c captureFunc) Start(ctx context.Context, f Format, onFrame func([]int16)) error {
	return c(ctx, f, onFrame)
}

// --- barge-in against the real pet controller ---

// petTransport is the least transport a pet.Controller needs.
type petTransport struct {
	mu     sync.Mutex
	events chan transport.Event
	calls  []string
	n      int
}

func (p *petTransport) Start() {}
func (p *petTransport) Send(t transport.Turn) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.calls = append(p.calls, "send "+string(t.Trigger)+" "+t.Text)
	return fmt.Sprint("t", p.n)
}
func (p *petTransport) Interrupt(notify bool) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, fmt.Sprint("interrupt ", notify))
	return nil
}
func (p *petTransport) Reset()                             {}
func (p *petTransport) SetVocabulary(transport.Vocabulary) {}
func (p *petTransport) Reconnect()                         {}
func (p *petTransport) Events() <-chan transport.Event     { return p.events }
func (p *petTransport) Close() error                       { return nil }
func (p *petTransport) ReportPlaybackFailed(string)        {}
func (p *petTransport) State() transport.StateEvent {
	return transport.StateEvent{State: transport.StateReady}
}
func (p *petTransport) takeCalls() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.calls
	p.calls = nil
	return c
}

// speakingPet is a controller playing a long sentence on a fake clock
// that never advances: it speaks until something stops it.
func speakingPet(t *testing.T) (*pet.Controller, *petTransport) {
	tr := &petTransport{events: make(chan transport.Event, 4)}
	views := make(chan struct{}, 100)
	c := pet.New(pet.Options{
		Transport: tr, Pack: character.Default(), Clock: clocktest.NewFake(time.Unix(0, 0)),
		OnChange: func(pet.View) {
			select {
			case views <- struct{}{}:
			default:
			}
		},
	})
	go c.Run()
	t.Cleanup(c.Close)
	tr.events <- &transport.RenderEvent{Kind: transport.KindRender, TurnID: "b1",
		Segments: []transport.Segment{{Speech: "Here is a long report about everything that happened today."}}}
	for limit := time.After(10 * time.Second); !c.SpeechOwed(); {
		select {
		case <-views:
		case <-limit:
			t.Fatal("the pet never spoke")
		}
	}
	tr.takeCalls()
	return c, tr
}

// feedAll runs a listener on pcm and returns once every block is processed.
func feedAll(t *testing.T, o ListenerOptions, pcm []int16) {
	t.Helper()
	blocks := (len(pcm) + FrameSamples(rate) - 1) / FrameSamples(rate)
	all := make(chan struct{})
	n := 0
	l := NewListener(o)
	l.afterBlock = func() {
		if n++; n == blocks {
			close(all)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	select {
	case <-all:
	case <-time.After(20 * time.Second):
		t.Fatal("blocks not processed")
	}
	cancel()
	<-done
}

func TestBargeInStopsPlayback(t *testing.T) {
	c, tr := speakingPet(t)
	user := loadSpeech(t, "speech-female.wav")
	user = scale(user, -22+(Level(user)-speechLevel(user)))
	pcm := noise(rate+len(user), -60, 4)
	mix(pcm, user, rate)
	never := transcriberFunc(func(ctx context.Context, _ []byte) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	feedAll(t, ListenerOptions{Mode: ModeHandsFree, Capture: &fakeCapture{pcm: pcm}, Transcriber: never, Target: c}, pcm)
	if c.SpeechOwed() {
		t.Fatal("the pet still speaks")
	}
	if got := tr.takeCalls(); !slices.Equal(got, []string{"interrupt false"}) {
		t.Fatalf("transport calls %q", got)
	}
	if rec := c.LastPlayback(); rec.Outcome != transport.PlaybackInterrupted {
		t.Fatalf("playback record %+v", rec)
	}
}

// The pet's own voice, heard by the microphone at normal volume, in
// hands-free mode: no barge-in and no utterance.
func TestPetVoiceDoesNotBargeIn(t *testing.T) {
	c, tr := speakingPet(t)
	petVoice := loadSpeech(t, "speech-slow.wav")
	petVoice = scale(petVoice, -42+(Level(petVoice)-speechLevel(petVoice)))
	pcm := noise(rate+2*len(petVoice), -60, 5) // under maxBlocks: fakeCapture does not pace
	for i := range 2 {
		mix(pcm, petVoice, rate+i*len(petVoice))
	}
	tg := &recordingTarget{Target: c}
	feedAll(t, ListenerOptions{Mode: ModeHandsFree, Capture: &fakeCapture{pcm: pcm},
		Transcriber: transcriberFunc(func(context.Context, []byte) (string, error) { return "echo", nil }), Target: tg}, pcm)
	if !c.SpeechOwed() {
		t.Fatal("the pet stopped speaking")
	}
	if got := tr.takeCalls(); len(got) != 0 {
		t.Fatalf("transport calls %q", got)
	}
	if got := tg.statuses(); len(got) != 0 {
		t.Fatalf("statuses %q", got)
	}
}

type recordingTarget struct {
	Target
	mu sync.Mutex
	ss []string
}

func (r *recordingTarget) SetVoiceStatus(s string) {
	r.mu.Lock()
	r.ss = append(r.ss, s)
	r.mu.Unlock()
	r.Target.SetVoiceStatus(s)
}

func (r *recordingTarget) statuses() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ss)
}

func TestRecordAndTranscribe(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	f := NewFile(sentence(t), rate, fc)
	go func() {
		for range 200 {
			if !fc.WaitPending(1, 10*time.Second) {
				return
			}
			fc.Advance(FrameDuration)
		}
	}()
	var n int
	text, err := RecordAndTranscribe(context.Background(), f, transcriberFunc(func(_ context.Context, wav []byte) (string, error) {
		p, r, _ := DecodeWAV(wav)
		n = len(p) * 1000 / r
		return "test words", nil
	}), 3*time.Second)
	if err != nil || text != "test words" || n != 3000 {
		t.Fatalf("RecordAndTranscribe = %q, %v; %d ms", text, err, n)
	}
}
