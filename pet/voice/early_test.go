package voice

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
)

// framerActions runs pcm through a hands-free framer in 20 ms blocks and
// returns its actions with the sample position at which each came.
func framerActions(pcm []int16) (acts []action, at []int) {
	f := newFramer(rate, VADConfig{}, ModeHandsFree)
	n := FrameSamples(rate)
	for i := 0; i < len(pcm); i += n {
		for _, a := range f.feed(pcm[i:min(i+n, len(pcm))], func() bool { return false }) {
			acts = append(acts, a)
			at = append(at, i+n)
		}
	}
	return acts, at
}

// Speech, a pause, the end: the utterance is cut early once the pause is
// a tail long, with exactly the audio the utterance then ends with, a
// hangover less a tail before the end.
func TestEarlyCutIsTheUtterance(t *testing.T) {
	acts, at := framerActions(sentence(t))
	var kinds []actionKind
	for _, a := range acts {
		kinds = append(kinds, a.kind)
	}
	iEarly := slices.Index(kinds, actEarly)
	iEnd := slices.Index(kinds, actUtterance)
	if iEarly < 0 || iEnd < 0 || iEarly > iEnd {
		t.Fatalf("actions %v: want an early cut before the utterance", kinds)
	}
	last := slices.Index(kinds[iEarly+1:], actEarly)
	for last >= 0 { // the last early cut before the end counts
		iEarly += last + 1
		last = slices.Index(kinds[iEarly+1:iEnd], actEarly)
	}
	if slices.Contains(kinds[iEarly:iEnd], actEarlyVoid) {
		t.Fatalf("actions %v: the last early cut was voided before the end", kinds)
	}
	end := acts[iEnd]
	if !end.early || !slices.Equal(end.pcm, acts[iEarly].pcm) {
		t.Fatalf("the utterance (early %v, %d samples) is not the early cut (%d samples)", end.early, len(end.pcm), len(acts[iEarly].pcm))
	}
	want := DefaultVADConfig.Hangover - tailPad
	if got := ms(at[iEnd] - at[iEarly]); got < want-2*FrameDuration || got > want+2*FrameDuration {
		t.Errorf("the early cut came %v before the end, want about %v", got, want)
	}
}

// A pause longer than the tail and shorter than the hangover, then more
// speech: the early cut is voided and the utterance holds both parts.
func TestEarlyCutVoidedWhenSpeechGoesOn(t *testing.T) {
	s := loadSpeech(t, "speech-male.wav")
	from, to := truth(s)
	s = s[from:to]
	s = scale(s, -22+(Level(s)-speechLevel(s)))
	pause := rate * 300 / 1000 // over the 200 ms tail, under the 500 ms hangover
	pcm := noise(rate+2*len(s)+pause+2*rate, -60, 3)
	mix(pcm, s, rate)
	mix(pcm, s, rate+len(s)+pause)
	acts, _ := framerActions(pcm)
	var kinds []actionKind
	var utt []action
	for _, a := range acts {
		kinds = append(kinds, a.kind)
		if a.kind == actUtterance {
			utt = append(utt, a)
		}
	}
	if len(utt) != 1 {
		t.Fatalf("actions %v: want one utterance", kinds)
	}
	if !slices.Contains(kinds, actEarlyVoid) {
		t.Fatalf("actions %v: the pause's early cut was not voided", kinds)
	}
	if d := ms(len(utt[0].pcm)); d < 2*ms(len(s)) {
		t.Errorf("the utterance lasts %v, shorter than both parts (%v each)", d, ms(len(s)))
	}
}

// logBuffer collects a logger's JSON records from any goroutine.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// The listener sends the early cut at once and uses its text when the
// utterance ends, asking nothing more.
func TestListenerUsesTheEarlyTranscription(t *testing.T) {
	tg := newFakeTarget()
	logs := &logBuffer{}
	startListener(t, ListenerOptions{
		Mode:    ModeHandsFree,
		Capture: &fakeCapture{pcm: sentence(t)},
		Transcriber: transcriberFunc(func(ctx context.Context, wav []byte) (string, error) {
			return "what is the weather", nil
		}),
		Target: tg,
		Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	tg.waitFor(t, "turn what is the weather")
	out := logs.String()
	if !strings.Contains(out, `"msg":"voice_utterance","ms":`) || !strings.Contains(out, `"early":true`) {
		t.Fatalf("the utterance did not take the early transcription:\n%s", out)
	}
	if n := strings.Count(out, `"msg":"voice_transcribed"`); n != 1 {
		t.Fatalf("%d transcriptions used, want 1:\n%s", n, out)
	}
	if strings.Contains(out, `"msg":"voice_transcribed","chars":19,"stt_ms"`) && !strings.Contains(out, `"early":true}`) {
		t.Fatalf("a second transcription was asked:\n%s", out)
	}
}
