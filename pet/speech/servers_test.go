package speech

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"yui/pet/audio"
	"yui/transport/localserver/localservertest"
)

// knownWAV is a 16-bit mono WAV of n samples at rate: a 300 Hz tone.
// dataSize is the data chunk's size field; a streamed WAV gives 0 there.
func knownWAV(rate, n int, dataSize uint32) []byte {
	return append(localservertest.WAVHeader(rate, dataSize), tone(rate, n)...)
}

func tone(rate, n int) []byte {
	var b []byte
	for i := range n {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(8000*math.Sin(float64(i)*2*math.Pi*300/float64(rate)))))
	}
	return b
}

// gptSoVITS is a fake of GPT-SoVITS's api_v2.py POST /tts (api_v2.py's
// doc string): check_params answers 400 {"message":…} for a missing
// parameter; a failed synthesis is 400 {"message":"tts failed",
// "Exception":…}; with streaming_mode the WAV header comes first, with
// no length, then raw PCM chunks as they are made. Here the first chunk
// is 0.1 s and the rest waits for release.
type gptSoVITS struct {
	release chan struct{}
	mu      sync.Mutex
	req     map[string]any
	fail    string
}

func (g *gptSoVITS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/tts" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	var req map[string]any
	json.NewDecoder(r.Body).Decode(&req)
	g.mu.Lock()
	g.req = req
	g.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	for _, k := range []string{"ref_audio_path", "text", "text_lang", "prompt_lang"} {
		if s, _ := req[k].(string); s == "" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"message":"`+k+` is required"}`)
			return
		}
	}
	if g.fail != "" {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"message":"tts failed","Exception":"`+g.fail+`"}`)
		return
	}
	w.Header().Set("Content-Type", "audio/wav")
	if req["streaming_mode"] != true {
		w.Write(knownWAV(32000, 32000, 64000))
		return
	}
	w.Write(knownWAV(32000, 3200, 0))
	w.(http.Flusher).Flush()
	select {
	case <-g.release:
		w.Write(tone(32000, 28800))
	case <-r.Context().Done():
	}
}

func (g *gptSoVITS) request() map[string]any {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.req
}

// A streamed GPT-SoVITS answer is heard from its first chunk, before the
// server has sent the rest; the request carries the reference clip.
func TestGPTSoVITSStreamsFromTheFirstChunk(t *testing.T) {
	fake := &gptSoVITS{release: make(chan struct{})}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	m := audio.NewMixer()
	e := NewAudio(&GPTSoVITS{BaseURL: srv.URL, RefAudio: "/voices/ref.wav", RefText: "Hello there.", RefLang: "en",
		Client: NewServerClient()}, m.NewPlayer())
	defer e.Close()
	clip, _ := e.Prepare(context.Background(), "Nice to meet you.")
	st := clip.(*audioClip).Stream()
	done := make(chan error, 1)
	clip.(Starter).Start(func(err error) { done <- err })
	<-st.Ready()
	buf := make([]float32, audio.Rate/100)
	m.Read(buf)
	if st.Closed() || peak(buf) < 0.05 {
		t.Fatalf("nothing heard before the answer ended (closed %v, peak %.3f)", st.Closed(), peak(buf))
	}
	close(fake.release)
	pump(t, m, "the clip's end", func() bool { return len(done) > 0 })
	if err := <-done; err != nil {
		t.Fatalf("done(%v)", err)
	}
	if secs := float64(st.Written()) / audio.Rate; secs < 0.95 || secs > 1.05 {
		t.Errorf("%.3f s of audio, want 1 s", secs)
	}
	req := fake.request()
	want := map[string]any{"text": "Nice to meet you.", "text_lang": "en", "ref_audio_path": "/voices/ref.wav",
		"prompt_text": "Hello there.", "prompt_lang": "en", "streaming_mode": true, "media_type": "wav"}
	for k, v := range want {
		if req[k] != v {
			t.Errorf("%s = %v, want %v", k, req[k], v)
		}
	}
}

func peak(b []float32) float64 {
	var p float64
	for _, v := range b {
		p = max(p, math.Abs(float64(v)))
	}
	return p
}

// The server's refusal is the clip's error, with api_v2's own words.
func TestGPTSoVITSErrors(t *testing.T) {
	fake := &gptSoVITS{release: make(chan struct{}), fail: "the reference clip is outside 3 to 10 seconds"}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	m := audio.NewMixer()
	for _, c := range []struct {
		synth *GPTSoVITS
		want  string
	}{
		{&GPTSoVITS{BaseURL: srv.URL, RefAudio: "ref.wav", RefLang: "en"}, "tts failed: the reference clip is outside 3 to 10 seconds"},
		{&GPTSoVITS{BaseURL: srv.URL, RefAudio: "ref.wav"}, ""}, // auto languages: a request the fake takes
		{&GPTSoVITS{BaseURL: srv.URL}, "no reference clip"},
		{&GPTSoVITS{BaseURL: "ftp://x", RefAudio: "r"}, "not an http(s) URL"},
	} {
		e := NewAudio(c.synth, m.NewPlayer())
		_, err := play(t, e, m, "Hello.")
		e.Close()
		if c.want == "" {
			if !strings.Contains(errString(err), "tts failed") {
				t.Errorf("err %v", err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "gpt-sovits: ") {
			t.Errorf("err %v, want %q", err, c.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// piperServer is a fake of Piper's HTTP server: the first one
// (GET /?text=, a WAV) or, with post, the current one (POST / with a JSON
// body, 405 to a GET; Piper's HTTP API documentation). Each answers a known
// 22,050 Hz WAV of one second.
type piperServer struct {
	post bool
	mu   sync.Mutex
	got  []string // "GET text" or "POST text voice"
}

func (p *piperServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	var text, voice string
	switch {
	case r.Method == http.MethodGet && !p.post:
		text = r.URL.Query().Get("text")
	case r.Method == http.MethodPost && p.post:
		var req struct{ Text, Voice string }
		if json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		text, voice = req.Text, req.Voice
	default:
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	p.mu.Lock()
	p.got = append(p.got, r.Method+" "+text+" "+voice)
	p.mu.Unlock()
	if text == "" {
		http.Error(w, "No text provided", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "audio/wav")
	w.Write(knownWAV(22050, 22050, 44100))
}

func TestPiperHTTPSpeaksOnBothServers(t *testing.T) {
	for _, post := range []bool{false, true} {
		fake := &piperServer{post: post}
		srv := httptest.NewServer(fake)
		m := audio.NewMixer()
		e := NewAudio(&PiperHTTP{BaseURL: srv.URL, Voice: "en_US-lessac-medium", Client: NewServerClient()}, m.NewPlayer())
		for range 2 {
			st, err := play(t, e, m, "Hello.")
			if err != nil {
				t.Fatalf("post %v: done(%v)", post, err)
			}
			if secs := float64(st.Written()) / audio.Rate; secs < 0.95 || secs > 1.05 {
				t.Errorf("post %v: %.3f s of audio, want 1 s", post, secs)
			}
		}
		e.Close()
		srv.Close()
		want := "GET Hello. |GET Hello. "
		if post {
			// One GET refused, then every sentence posted.
			want = "POST Hello. en_US-lessac-medium|POST Hello. en_US-lessac-medium"
		}
		if got := strings.Join(fake.got, "|"); got != want {
			t.Errorf("post %v: requests %q, want %q", post, got, want)
		}
	}
}

func TestPiperHTTPError(t *testing.T) {
	srv := httptest.NewServer(&piperServer{})
	defer srv.Close()
	m := audio.NewMixer()
	e := NewAudio(&PiperHTTP{BaseURL: srv.URL}, m.NewPlayer())
	defer e.Close()
	if _, err := play(t, e, m, ""); err == nil || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "No text provided") {
		t.Errorf("err %v", err)
	}
}

// The Piper program needs only the model path: its rate comes from the
// model's config, and it speaks through the command engine.
func TestPiperCommand(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "en_US-lessac-medium.onnx")
	os.WriteFile(model, []byte("onnx"), 0o600)
	c, err := PiperCommand("", model)
	if err != nil || c.Rate != PiperDefaultRate || strings.Join(c.Args, " ") != "piper --model "+model+" --output-raw" {
		t.Fatalf("command %+v, %v", c, err)
	}
	os.WriteFile(model+".json", []byte(`{"audio":{"sample_rate":16000}}`), 0o600)
	if c, _ := PiperCommand("/opt/piper/piper", model); c.Rate != 16000 || c.Args[0] != "/opt/piper/piper" {
		t.Errorf("command %+v", c)
	}
	if _, err := PiperCommand("", ""); err == nil || !strings.Contains(err.Error(), "speech.piper_model") {
		t.Errorf("no model: %v", err)
	}
	if _, err := PiperCommand("", filepath.Join(dir, "missing.onnx")); err == nil {
		t.Error("a missing model was taken")
	}

	// The fake program (TestMain) plays Piper: one second at 22,050 Hz.
	fake, _ := fakeCommand(t, "raw", 0)
	os.WriteFile(model+".json", []byte(`{"audio":{"sample_rate":22050}}`), 0o600)
	c, _ = PiperCommand(fake.Args[0], model)
	m := audio.NewMixer()
	e := NewAudio(c, m.NewPlayer())
	defer e.Close()
	st, err := play(t, e, m, "Hello.")
	if err != nil {
		t.Fatalf("done(%v)", err)
	}
	if secs := float64(st.Written()) / audio.Rate; secs < 0.95 || secs > 1.05 {
		t.Errorf("%.3f s of audio, want 1 s", secs)
	}
}

// Kokoro-FastAPI's voice mixes go to the server as written.
func TestOpenAISendsAVoiceMix(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewDecoder(r.Body).Decode(&got)
		w.Write(tone(24000, 2400))
	}))
	defer srv.Close()
	m := audio.NewMixer()
	e := NewAudio(&OpenAI{BaseURL: srv.URL + "/v1", Model: "kokoro", Voice: "af_bella+af_sky"}, m.NewPlayer())
	defer e.Close()
	if _, err := play(t, e, m, "Hi."); err != nil {
		t.Fatal(err)
	}
	if got["voice"] != "af_bella+af_sky" || got["model"] != "kokoro" {
		t.Errorf("request %v", got)
	}
}
