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

// A streamed GPT-SoVITS answer is heard from its first chunk, before the
// server has sent the rest; the request carries the reference clip.
func TestGPTSoVITSStreamsFromTheFirstChunk(t *testing.T) {
	fake := &localservertest.GPTSoVITS{}
	fake.Hold.Hold()
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
	fake.Hold.Release()
	pump(t, m, "the clip's end", func() bool { return len(done) > 0 })
	if err := <-done; err != nil {
		t.Fatalf("done(%v)", err)
	}
	if secs := float64(st.Written()) / audio.Rate; secs < 0.95 || secs > 1.05 {
		t.Errorf("%.3f s of audio, want 1 s", secs)
	}
	reqs := fake.Requests.All()
	req := reqs[len(reqs)-1]
	want := map[string]string{"text": "Nice to meet you.", "text_lang": "en", "ref_audio_path": "/voices/ref.wav",
		"prompt_text": "Hello there.", "prompt_lang": "en", "streaming_mode": "true", "media_type": "wav"}
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

// The server's refusal is the clip's error, with api_v2's own words: a
// parameter it refuses (400 before the answer begins), and a reference
// clip it cannot use, which breaks the streamed answer after its 200.
func TestGPTSoVITSErrors(t *testing.T) {
	fake := &localservertest.GPTSoVITS{BadRef: localservertest.GPTSoVITSBadRef}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	m := audio.NewMixer()
	for _, c := range []struct {
		synth *GPTSoVITS
		want  string
	}{
		{&GPTSoVITS{BaseURL: srv.URL, RefAudio: "ref.wav", RefLang: "en"},
			`cannot use the reference clip "ref.wav": set refer audio failed: ` + localservertest.GPTSoVITSBadRef},
		{&GPTSoVITS{BaseURL: srv.URL, RefAudio: "ref.wav", RefLang: "xx"}, "400 Bad Request: text_lang: xx is not supported in version v2"},
		{&GPTSoVITS{BaseURL: srv.URL}, "no reference clip"},
		{&GPTSoVITS{BaseURL: "ftp://x", RefAudio: "r"}, "not an http(s) URL"},
	} {
		e := NewAudio(c.synth, m.NewPlayer())
		_, err := play(t, e, m, "Hello.")
		e.Close()
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

// Each of Piper's three HTTP servers is spoken to in its own API, found
// at the first sentence and kept: the WAV each answers (as text/html) is
// heard whole.
func TestPiperHTTPSpeaksOnEveryServer(t *testing.T) {
	first, root, current := &localservertest.PiperFirst{}, &localservertest.PiperRoot{}, &localservertest.Piper{}
	for _, c := range []struct {
		name string
		h    http.Handler
		reqs *localservertest.Requests
		want string // each request's text and voice
	}{
		{"rhasspy", first, &first.Requests, "Hello. |Hello. "},
		{"1.3-1.4", root, &root.Requests, "Hello. en_GB-alan-low|Hello. en_GB-alan-low"},
		{"1.5+", current, &current.Requests, "Hello. en_GB-alan-low|Hello. en_GB-alan-low"},
	} {
		srv := httptest.NewServer(c.h)
		m := audio.NewMixer()
		e := NewAudio(&PiperHTTP{BaseURL: srv.URL, Voice: "en_GB-alan-low", Client: NewServerClient()}, m.NewPlayer())
		for range 2 {
			st, err := play(t, e, m, "Hello.")
			if err != nil {
				t.Fatalf("%s: done(%v)", c.name, err)
			}
			if secs := float64(st.Written()) / audio.Rate; secs < 0.95 || secs > 1.05 {
				t.Errorf("%s: %.3f s of audio, want 1 s", c.name, secs)
			}
		}
		e.Close()
		srv.Close()
		var got []string
		for _, r := range c.reqs.All() {
			got = append(got, r["text"]+" "+r["voice"])
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: requests %q, want %q", c.name, got, c.want)
		}
	}
}

// A refusal is said with what the server said, a web page where a WAV
// was due is named so.
func TestPiperHTTPError(t *testing.T) {
	srv := httptest.NewServer(&localservertest.Piper{})
	defer srv.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!DOCTYPE html><html><head><title>Piper</title></head><body></body></html>")
	}))
	defer page.Close()
	m := audio.NewMixer()
	for _, c := range []struct {
		url, text, want string
	}{
		{srv.URL, " ", "piper: POST /synthesize: 500 Internal Server Error"},
		{page.URL, "Hi.", `piper: POST /synthesize: the server answered a web page ("Piper"), not a WAV`},
	} {
		e := NewAudio(&PiperHTTP{BaseURL: c.url}, m.NewPlayer())
		_, err := play(t, e, m, c.text)
		e.Close()
		if err == nil || err.Error() != c.want {
			t.Errorf("err %v, want %q", err, c.want)
		}
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
