package speech

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/pet/audio"
)

const wait = 10 * time.Second

// pump reads the mixer in 10 ms blocks until cond holds, as an output
// would, but as fast as the test runs.
func pump(t *testing.T, m *audio.Mixer, what string, cond func() bool) {
	t.Helper()
	buf := make([]float32, audio.Rate/100)
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		m.Read(buf)
		time.Sleep(time.Millisecond)
	}
}

func pcmTone(n int) []byte {
	var b []byte
	for i := range n {
		v := int16(8000 * math.Sin(float64(i)*2*math.Pi*300/24000))
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

// slowTTS streams 100 ms of PCM, then holds the response open until
// release is closed or the client goes away.
type slowTTS struct {
	t       *testing.T
	release chan struct{}
	aborted chan struct{}
	ended   chan struct{}
	mu      sync.Mutex
	req     map[string]any
	auth    string
	path    string
}

func newSlowTTS(t *testing.T) *slowTTS {
	return &slowTTS{t: t, release: make(chan struct{}), aborted: make(chan struct{}), ended: make(chan struct{})}
}

func (s *slowTTS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost { // the model card Open asks for the rate: none here
		http.NotFound(w, r)
		return
	}
	defer close(s.ended)
	var req map[string]any
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	s.req, s.auth, s.path = req, r.Header.Get("Authorization"), r.URL.Path
	s.mu.Unlock()
	w.Header().Set("Content-Type", "audio/pcm")
	w.Write(pcmTone(2400))
	w.(http.Flusher).Flush()
	select {
	case <-s.release:
		w.Write(pcmTone(2400))
	case <-r.Context().Done():
		close(s.aborted)
	}
}

func TestOpenAIStreamsPlaybackBeforeTheResponseEnds(t *testing.T) {
	tts := newSlowTTS(t)
	srv := httptest.NewServer(tts)
	defer srv.Close()
	m := audio.NewMixer()
	p := m.NewPlayer()
	e := NewAudio(&OpenAI{BaseURL: srv.URL + "/v1/", Key: "sk-test", Model: "kokoro", Voice: "af_sky", Speed: 1.5}, p)
	defer e.Close()

	clip, err := e.Prepare(context.Background(), "Hello there.")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	clip.(Starter).Start(func(err error) { done <- err })
	pump(t, m, "the first audio at the player", func() bool { return p.Handed() > 0 })
	select {
	case <-tts.ended:
		t.Fatal("the response had ended before the first sample played")
	default:
	}
	lvl, playing := p.Level()
	if !playing || lvl == 0 {
		t.Fatalf("level %.2f playing %v while the first audio plays", lvl, playing)
	}
	close(tts.release)
	pump(t, m, "the clip's end", func() bool { return len(done) > 0 })
	if err := <-done; err != nil {
		t.Fatalf("done(%v)", err)
	}
	if n := p.Handed(); n != 4800 {
		t.Fatalf("played %d samples, want 4800", n)
	}
	tts.mu.Lock()
	defer tts.mu.Unlock()
	if tts.path != "/v1/audio/speech" || tts.auth != "Bearer sk-test" {
		t.Fatalf("request to %s with %q", tts.path, tts.auth)
	}
	want := map[string]any{"model": "kokoro", "voice": "af_sky", "speed": 1.5, "response_format": "pcm", "input": "Hello there."}
	for k, v := range want {
		if tts.req[k] != v {
			t.Errorf("request %s = %v, want %v", k, tts.req[k], v)
		}
	}
}

func TestOpenAIStopAbortsTheRequest(t *testing.T) {
	tts := newSlowTTS(t)
	srv := httptest.NewServer(tts)
	defer srv.Close()
	m := audio.NewMixer()
	p := m.NewPlayer()
	e := NewAudio(&OpenAI{BaseURL: srv.URL}, p)
	defer e.Close()

	// As the playback queue does: a context per sentence, cancelled on stop.
	ctx, cancel := context.WithCancel(context.Background())
	clip, _ := e.Prepare(ctx, "A long sentence the user will cut.")
	stop := clip.(Starter).Start(func(err error) { t.Errorf("done(%v) after stop", err) })
	pump(t, m, "the first audio", func() bool { return p.Handed() > 0 })
	stop()
	cancel()
	buf := make([]float32, 480)
	m.Read(buf)
	for _, x := range buf {
		if x != 0 {
			t.Fatal("audio after the stop")
		}
	}
	select {
	case <-tts.aborted:
	case <-time.After(wait):
		t.Fatal("the server's request was not aborted")
	}
}

func TestOpenAIErrorAnswerFailsTheClip(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided"}}`)
	}))
	defer srv.Close()
	m := audio.NewMixer()
	e := NewAudio(&OpenAI{BaseURL: srv.URL, Key: "sk-bad"}, m.NewPlayer())
	defer e.Close()
	clip, _ := e.Prepare(context.Background(), "Hi.")
	done := make(chan error, 1)
	clip.(Starter).Start(func(err error) { done <- err })
	pump(t, m, "the failure", func() bool { return len(done) > 0 })
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "Incorrect API key") {
		t.Fatalf("done(%v), want the 401 and its message", err)
	}
	if strings.Contains(err.Error(), "sk-bad") {
		t.Fatal("the key is in the error")
	}
}

func TestOpenAIRefusesABadBaseURL(t *testing.T) {
	_, _, err := (&OpenAI{BaseURL: "ftp://example"}).Open(context.Background(), "x")
	if err == nil {
		t.Fatal("an ftp base URL was accepted")
	}
}

// systemSynth is the real system voice; make test installs espeak-ng.
func systemSynth(t *testing.T) *System {
	t.Helper()
	s, ok := FindSystem("", 1)
	if !ok {
		t.Fatal("no system voice: install espeak-ng (.ci/deps.sh test)")
	}
	return s
}

func TestSystemVoiceSpeaksNonSilentAudioOfPlausibleLength(t *testing.T) {
	m := audio.NewMixer()
	p := m.NewPlayer()
	e := NewAudio(systemSynth(t), p)
	defer e.Close()
	text := "Hello there. This is the system voice, speaking a sentence of ordinary length."
	clip, _ := e.Prepare(context.Background(), text)
	st := clip.(*audioClip).Stream()
	done := make(chan error, 1)
	clip.(Starter).Start(func(err error) { done <- err })
	var sum float64
	var n int
	buf := make([]float32, audio.Rate/50)
	deadline := time.Now().Add(30 * time.Second)
	for len(done) == 0 && time.Now().Before(deadline) {
		m.Read(buf)
		for _, x := range buf {
			sum += float64(x) * float64(x)
		}
		n += len(buf)
	}
	if err := <-done; err != nil {
		t.Fatalf("done(%v)", err)
	}
	secs := float64(st.Written()) / audio.Rate
	rms := math.Sqrt(sum / float64(n))
	t.Logf("%.2f s of speech, rms %.3f", secs, rms)
	// 13 words at 175 a minute: about 4.5 s.
	if secs < 2 || secs > 12 {
		t.Fatalf("%.2f s of audio for %d words", secs, len(strings.Fields(text)))
	}
	// The mix is read as fast as the loop runs, so a slow machine reads
	// stretches of silence between sentences' blocks: the bar is "not
	// silent", well under a voice's level and well over zero.
	if rms < 0.003 {
		t.Fatalf("rms %.4f: silent", rms)
	}
}

func TestSystemVoiceTakesTextThatLooksLikeAnOption(t *testing.T) {
	e := NewAudio(systemSynth(t), audio.NewMixer().NewPlayer())
	defer e.Close()
	clip, _ := e.Prepare(context.Background(), "--help me")
	st := clip.(*audioClip).Stream()
	select {
	case <-st.Ready():
	case <-time.After(wait):
		t.Fatal("no audio")
	}
	waitClosed(t, st)
	if err := st.Err(); err != nil || st.Written() < audio.Rate/4 {
		t.Fatalf("err %v, %d samples", err, st.Written())
	}
}

func waitClosed(t *testing.T, st *audio.Stream) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		// A closed stream takes no more samples: Closed is the event.
		if st.Closed() {
			return
		}
		time.Sleep(time.Millisecond)
		if time.Now().After(deadline) {
			t.Fatal("synthesis did not end")
		}
	}
}

func TestCancelKillsTheSystemVoiceMidSentence(t *testing.T) {
	m := audio.NewMixer()
	p := m.NewPlayer()
	e := NewAudio(systemSynth(t), p)
	ctx, cancel := context.WithCancel(context.Background())
	clip, _ := e.Prepare(ctx, strings.Repeat("This sentence goes on and on and on. ", 40))
	st := clip.(*audioClip).Stream()
	stop := clip.(Starter).Start(func(err error) { t.Errorf("done(%v) after stop", err) })
	pump(t, m, "the first audio", func() bool { return p.Handed() > 0 })
	stop()
	cancel()
	closedAt := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(closedAt); d > 2*time.Second {
		t.Fatalf("synthesis took %v to end after the stop", d)
	}
	if !errors.Is(st.Err(), context.Canceled) {
		t.Fatalf("stream ended with %v, want cancelled", st.Err())
	}
	if p.Playing() {
		t.Fatal("the player still plays")
	}
}

func TestParseVoices(t *testing.T) {
	espeak := "Pty Language       Age/Gender VoiceName          File                 Other Languages\n" +
		" 5  af              --/M      Afrikaans          gmw/af\n 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)\n"
	want := []Voice{{"af", "af", "Afrikaans"}, {"en-us", "en-us", "English (America)"}}
	if got := parseVoices(kindEspeak, []byte(espeak)); !slices.Equal(got, want) {
		t.Fatalf("espeak voices %v", got)
	}
	say := "Alex                en_US    # Most people recognize me by my voice.\nBad News            en_US    # The light you see...\n"
	want = []Voice{{"Alex", "en_US", "Alex"}, {"Bad News", "en_US", "Bad News"}}
	if got := parseVoices(kindSay, []byte(say)); !slices.Equal(got, want) {
		t.Fatalf("say voices %v", got)
	}
	sapi := "Microsoft David Desktop\ten-US\r\nMicrosoft Hedda Desktop\tde-DE\r\n"
	want = []Voice{{"Microsoft David Desktop", "en-US", "Microsoft David Desktop"}, {"Microsoft Hedda Desktop", "de-DE", "Microsoft Hedda Desktop"}}
	if got := parseVoices(kindSAPI, []byte(sapi)); !slices.Equal(got, want) {
		t.Fatalf("SAPI voices %v", got)
	}
}

func TestVoicesOfEachEngine(t *testing.T) {
	vs, err := Voices(context.Background(), EngineOpenAI)
	if err != nil || len(vs) < 6 || vs[0].ID != "alloy" {
		t.Fatalf("openai voices %v, %v", vs, err)
	}
	for _, e := range []string{EngineNone, EngineCommand} {
		if vs, err := Voices(context.Background(), e); err != nil || len(vs) != 0 {
			t.Fatalf("%s voices %v, %v", e, vs, err)
		}
	}
	if _, err := Voices(context.Background(), "bogus"); err == nil {
		t.Fatal("an unknown engine listed voices")
	}
}

func TestClosedEngineFailsItsClips(t *testing.T) {
	m := audio.NewMixer()
	e := NewAudio(systemSynth(t), m.NewPlayer())
	e.Close()
	clip, _ := e.Prepare(context.Background(), "Hi.")
	done := make(chan error, 1)
	clip.(Starter).Start(func(err error) { done <- err })
	pump(t, m, "the failure", func() bool { return len(done) > 0 })
	if err := <-done; err == nil {
		t.Fatal("a closed engine's clip played")
	}
}
