package pet

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/pet/audio"
	"yui/pet/speech"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/push"
	"yui/transport/pushsim"
)

const audioWait = 10 * time.Second

// pipeSynth is a synthesiser the test feeds by hand: each sentence is a
// pipe the test writes PCM to; cancelling the sentence's context closes it.
type pipeSynth struct {
	mu      sync.Mutex
	opened  []string
	writers map[string]*io.PipeWriter
	ctxs    map[string]context.Context
	changed chan struct{}
	// ready holds audio to answer at once; closed hears when the engine
	// has read it all and closed it.
	ready  map[string][]byte
	closed chan string
}

func newPipeSynth() *pipeSynth {
	return &pipeSynth{writers: map[string]*io.PipeWriter{}, ctxs: map[string]context.Context{}, changed: make(chan struct{}, 64)}
}

func (s *pipeSynth) Name() string { return "pipe" }

func (s *pipeSynth) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	if b, ok := s.ready[text]; ok {
		return &signalCloser{Reader: bytes.NewReader(b), text: text, closed: s.closed}, audio.Format{Rate: audio.Rate, Channels: 1}, nil
	}
	pr, pw := io.Pipe()
	context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) })
	s.mu.Lock()
	s.opened = append(s.opened, text)
	s.writers[text] = pw
	s.ctxs[text] = ctx
	s.mu.Unlock()
	s.changed <- struct{}{}
	return pr, audio.Format{Rate: audio.Rate, Channels: 1}, nil
}

type signalCloser struct {
	io.Reader
	text   string
	closed chan string
}

func (c *signalCloser) Close() error {
	c.closed <- c.text
	return nil
}

func (s *pipeSynth) waitOpened(t *testing.T, text string) (*io.PipeWriter, context.Context) {
	t.Helper()
	deadline := time.After(audioWait)
	for {
		s.mu.Lock()
		w, ctx := s.writers[text], s.ctxs[text]
		s.mu.Unlock()
		if w != nil {
			return w, ctx
		}
		select {
		case <-s.changed:
		case <-deadline:
			t.Fatalf("synthesis of %q never started", text)
		}
	}
}

// loud is n samples of a tone at amplitude a as 16-bit PCM.
func loudPCM(n int, a float64) []byte {
	var b []byte
	for i := range n {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(a*32767*math.Sin(float64(i)*0.2))))
	}
	return b
}

// drain reads the mixer in 10 ms blocks until cond holds.
func drain(t *testing.T, m *audio.Mixer, what string, cond func() bool) {
	t.Helper()
	buf := make([]float32, audio.Rate/100)
	deadline := time.Now().Add(audioWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		m.Read(buf)
		time.Sleep(time.Millisecond)
	}
}

func TestStopSilencesAudioAndCancelsSynthesisMidSentence(t *testing.T) {
	m := audio.NewMixer()
	p := m.NewPlayer()
	synth := newPipeSynth()
	eng := speech.NewAudio(synth, p)
	defer eng.Close()
	e := newEnv(t, func(o *Options) { o.Speech = eng; o.Mouth = p; o.Pack.FillerLines = nil })

	e.ev(render("r1", false, say("First sentence here. Second one follows.")))
	w1, ctx1 := synth.waitOpened(t, "First sentence here.")
	// Pipelining: the second sentence is synthesised while the first plays.
	_, ctx2 := synth.waitOpened(t, "Second one follows.")
	go w1.Write(loudPCM(audio.Rate, 0.5)) // a second of audio, still open
	drain(t, m, "the first sentence playing", func() bool { return p.Handed() > audio.Rate/10 })
	if v := e.view(); v.Bubble != "First sentence here." || v.Motion != "talk" {
		t.Fatalf("view while speaking: bubble %q motion %q", v.Bubble, v.Motion)
	}

	e.c.Stop()
	buf := make([]float32, audio.Rate/100)
	m.Read(buf)
	for _, x := range buf {
		if x != 0 {
			t.Fatal("audio played after the stop")
		}
	}
	for i, ctx := range []context.Context{ctx1, ctx2} {
		select {
		case <-ctx.Done():
		case <-time.After(audioWait):
			t.Fatalf("synthesis %d was not cancelled by the stop", i+1)
		}
	}
	rec := e.c.LastPlayback()
	if rec.Outcome != transport.PlaybackInterrupted || !strings.Contains(rec.Unspoken, "Second one follows.") {
		t.Fatalf("record %+v, want interrupted with the rest owed", rec)
	}
	if _, ok := e.c.MouthFrame(4); ok {
		t.Fatal("the mouth still follows audio after the stop")
	}
}

func TestLipSyncFollowsTheEnvelope(t *testing.T) {
	m := audio.NewMixer()
	p := m.NewPlayer()
	synth := newPipeSynth()
	eng := speech.NewAudio(synth, p)
	defer eng.Close()
	e := newEnv(t, func(o *Options) { o.Speech = eng; o.Mouth = p; o.Pack.FillerLines = nil })

	// A synthetic envelope in 20 ms blocks: silence, loud, medium, a pause.
	block := audio.Rate / 50
	var pcm []byte
	pcm = append(pcm, make([]byte, 2*block)...)
	pcm = append(pcm, loudPCM(block, 0.5)...)
	pcm = append(pcm, loudPCM(block, 0.5)...)
	pcm = append(pcm, loudPCM(block, 0.01)...)
	pcm = append(pcm, make([]byte, 2*4*block)...)
	synth.ready = map[string][]byte{"La la la.": pcm}
	synth.closed = make(chan string, 1)
	e.ev(render("r1", false, say("La la la.")))
	select {
	case <-synth.closed:
	case <-time.After(audioWait):
		t.Fatal("synthesis did not end")
	}

	var frames []int
	buf := make([]float32, block)
	for range 8 {
		m.Read(buf)
		f, ok := e.c.MouthFrame(4)
		if !ok {
			break
		}
		frames = append(frames, f)
	}
	// The mouth snaps open and closes over a few blocks (the envelope's release).
	want := []int{0, 2, 2, 1, 1, 0, 0}
	if len(frames) < len(want) {
		t.Fatalf("mouth frames %v", frames)
	}
	for i, f := range want {
		if frames[i] != f {
			t.Fatalf("mouth frames %v, want %v…", frames, want)
		}
	}
}

func TestMouthFrameMapsLevelsToTheOpeningHalfOfTheTalkLoop(t *testing.T) {
	tests := []struct {
		level float64
		n     int
		want  int
	}{
		{0, 4, 0}, {0.05, 4, 0}, {0.2, 4, 1}, {0.6, 4, 2}, {1, 4, 2},
		{0.5, 2, 1}, {0.01, 2, 0}, {1, 1, 0}, {math.NaN(), 4, 0},
		{0.3, 6, 2}, {1, 6, 3},
	}
	for _, tt := range tests {
		if got := MouthFrame(tt.level, tt.n); got != tt.want {
			t.Errorf("MouthFrame(%v, %d) = %d, want %d", tt.level, tt.n, got, tt.want)
		}
	}
}

func TestNoAudioNoticeShowsInThePillOnce(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.AudioNotice = "no audio device: speech shows in the bubble only" })
	if got := e.view().Pill.Audio; got == "" {
		t.Fatal("no notice in the pill")
	}
	e.clock.Advance(AudioNoticeHold)
	if got := e.view().Pill.Audio; got != "" {
		t.Fatalf("notice %q still shows after %v", got, AudioNoticeHold)
	}
	// With no audio the pet carries on: the none engine paces the bubble.
	e.ev(render("r1", false, say("Still here.")))
	if v := e.view(); v.Bubble != "Still here." || v.Motion != "talk" {
		t.Fatalf("bubble %q motion %q", v.Bubble, v.Motion)
	}
	if _, ok := e.c.MouthFrame(2); ok {
		t.Fatal("lip-sync with no audio")
	}
}

// TestEngineErrorSavesFailedAndSendsPlayback runs a pet on the push
// transport against a fake backend, with the openai engine pointed at a
// TTS server that fails: the sentence still shows in the bubble, the
// record is failed, and the backend gets its playback frame.
func TestEngineErrorSavesFailedAndSendsPlayback(t *testing.T) {
	tts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"voice not found"}}`, http.StatusBadRequest)
	}))
	defer tts.Close()
	srv, err := pushsim.Start(pushsim.Options{Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	tr, err := push.New(transport.Options{
		ChatBaseURL: srv.URL, Key: "k", ChatID: "yui-0000beef",
		Vocabulary: testPack().Vocabulary(), Clock: clock.Real{}, Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()

	m := audio.NewMixer()
	out := audio.NewPaced(m, clock.Real{}, nil)
	defer out.Close()
	p := m.NewPlayer()
	eng := speech.NewAudio(&speech.OpenAI{BaseURL: tts.URL, Voice: "nobody"}, p)
	defer eng.Close()
	var mu sync.Mutex
	var bubbles []string
	c := New(Options{Transport: tr, Pack: testPack(), Speech: eng, Mouth: p, Clock: clock.Real{},
		OnChange: func(v View) {
			mu.Lock()
			bubbles = append(bubbles, v.Bubble)
			mu.Unlock()
		}})
	defer c.Close()
	go c.Run()
	tr.Start()

	conn := srv.NextConn(t, 30*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	waitUntil(t, func() bool { return tr.State().State == transport.StateReady })
	c.SendText("hi", nil)
	f, err := conn.NextOfType(ctx, "turn")
	if err != nil {
		t.Fatal(err)
	}
	var turn struct {
		TurnID string `json:"turn_id"`
	}
	f.Decode(&turn)
	conn.Send(map[string]any{"type": "render", "turn_id": turn.TurnID, "source": "test",
		"segments": []map[string]any{{"speech": "You will not hear this."}}})
	conn.Send(map[string]any{"type": "turn_end", "turn_id": turn.TurnID})

	f, err = conn.NextOfType(ctx, "playback")
	if err != nil {
		t.Fatalf("no playback frame: %v", err)
	}
	var pb struct {
		TurnID string `json:"turn_id"`
		Ended  string `json:"ended"`
	}
	f.Decode(&pb)
	if pb.TurnID != turn.TurnID || pb.Ended != "failed" {
		t.Fatalf("playback frame %s", f.Raw)
	}
	rec := c.LastPlayback()
	if rec.Outcome != transport.PlaybackFailed || !strings.Contains(rec.Reason, "400") {
		t.Fatalf("record %+v, want failed with the server's answer", rec)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(bubbles, "|"), "You will not hear this.") {
		t.Fatalf("the failed sentence never showed in the bubble: %q", bubbles)
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(audioWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
