package speech

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"yui/pet/audio"
	"yui/transport/localserver"
	"yui/transport/localserver/localservertest"
)

// The contract of every speech server and version in localservertest's
// table (fakes written from each server's code): discovery finds it, the
// engine it names is built as the Speech tab builds it (the found URL,
// engine, model and first voice), and the tone the server made is heard
// at its pitch, within 3%: a rate read wrong is 9% off (22050 Hz played
// at 24 kHz).
func TestSpeechServerContract(t *testing.T) {
	for _, row := range localservertest.Servers() {
		if row.Rate == 0 {
			continue // transcription only: pet/voice's contract test
		}
		t.Run(row.Name, func(t *testing.T) {
			srv := httptest.NewServer(row.New())
			defer srv.Close()
			u, _ := url.Parse(srv.URL)
			port, _ := strconv.Atoi(u.Port())
			found, ok := localserver.FirstAudio(localserver.ScanAudio(context.Background(),
				localserver.AudioOptions{Ports: []int{port}}), localserver.ServiceSpeech)
			if !ok {
				t.Fatal("no speech server found")
			}
			if row.NoSpeech != "" {
				t.Skip(row.NoSpeech)
			}
			synth := synthFor(found)
			body, raw, err := synth.Open(context.Background(), "Hello there.")
			if err != nil {
				t.Fatalf("%s: %v", found.Name(), err)
			}
			st := audio.NewStream()
			err = audio.Decode(body, raw, st)
			body.Close()
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			got := localservertest.Pitch(st.Unread(), audio.Rate)
			if math.Abs(got-localservertest.ToneHz)/localservertest.ToneHz > 0.03 {
				t.Errorf("heard %.1f Hz, the server made %d Hz (its rate %d)", got, localservertest.ToneHz, row.Rate)
			}
		})
	}
}

// synthFor is the engine a found server's preset gets
// (windows/settingswindow/servers.go's useAudioServer, engine.go's New).
func synthFor(s localserver.AudioServer) Synth {
	voice := ""
	if len(s.Offers) > 0 {
		voice = s.Offers[0]
	}
	switch s.Engine {
	case localserver.EnginePiper:
		return &PiperHTTP{BaseURL: s.URL, Voice: voice, Client: NewServerClient()}
	case localserver.EngineAllTalk:
		return &AllTalk{BaseURL: s.URL, Voice: voice, Client: NewServerClient()}
	case localserver.EngineGPTSoVITS:
		return &GPTSoVITS{BaseURL: s.URL, RefAudio: "ref.wav", RefText: "Hello.", RefLang: "en", Client: NewServerClient()}
	}
	return &OpenAI{BaseURL: s.URL, Model: s.Model, Voice: voice}
}

// The error paths of the servers give each server's own reason.
func TestSpeechServerErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		fake  *httptest.Server
		synth func(url string) Synth
		want  string
	}{
		{"Kokoro-FastAPI, a voice it lacks", httptest.NewServer(&localservertest.Kokoro{}),
			func(u string) Synth { return &OpenAI{BaseURL: u + "/v1", Model: "kokoro", Voice: "zz_nobody"} },
			"POST /audio/speech: 400 Bad Request: Voice 'zz_nobody' not found."},
		{"openedai-speech, a voice it lacks", httptest.NewServer(&localservertest.OpenedAI{}),
			func(u string) Synth { return &OpenAI{BaseURL: u + "/v1", Model: "tts-1", Voice: "af_sky"} },
			"POST /audio/speech: 400 Bad Request: Error loading voice: af_sky, KeyError: 'af_sky'"},
		{"AllTalk v2, a voice it does not take", httptest.NewServer(&localservertest.AllTalkV2{}),
			func(u string) Synth { return &OpenAI{BaseURL: u + "/v1", Model: "tts-1", Voice: "female_01.wav"} },
			"POST /audio/speech: 500 Internal Server Error"},
		{"AllTalk v1, a voice not in its folder", httptest.NewServer(&localservertest.AllTalkV1{}),
			func(u string) Synth { return &AllTalk{BaseURL: u, Voice: "nobody.wav"} },
			"GET /api/tts-generate-streaming: the answer broke off before any audio"},
		{"AllTalk v1, no OpenAI endpoint", httptest.NewServer(&localservertest.AllTalkV1{}),
			func(u string) Synth { return &OpenAI{BaseURL: u + "/v1", Model: "tts-1", Voice: "female_01.wav"} },
			"POST /audio/speech: 404 Not Found (no OpenAI speech endpoint at "},
		{"speaches, a model not installed", httptest.NewServer(&localservertest.Speaches{}),
			func(u string) Synth { return &OpenAI{BaseURL: u + "/v1", Model: "tts-1", Voice: "af_heart"} },
			"POST /audio/speech: 404 Not Found: Model 'tts-1' is not installed locally."},
		{"GPT-SoVITS, a clip it cannot use", httptest.NewServer(&localservertest.GPTSoVITS{BadRef: localservertest.GPTSoVITSBadRef}),
			func(u string) Synth { return &GPTSoVITS{BaseURL: u, RefAudio: "ref.wav", RefLang: "en"} },
			`GPT-SoVITS cannot use the reference clip "ref.wav": set refer audio failed: ` + localservertest.GPTSoVITSBadRef},
		{"Piper 1.5+, no text", httptest.NewServer(&localservertest.Piper{}),
			func(u string) Synth { return &PiperHTTP{BaseURL: u} }, "POST /synthesize: 500 Internal Server Error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer c.fake.Close()
			text := "Hello."
			if c.name == "Piper 1.5+, no text" {
				text = " "
			}
			body, raw, err := c.synth(c.fake.URL).Open(context.Background(), text)
			if err == nil {
				err = audio.Decode(body, raw, audio.NewStream())
				body.Close()
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err %v, want %q", err, c.want)
			}
		})
	}
}

// AllTalk v2 refuses pcm with a bare 500: the engine asks for wav, and
// from then on asks for wav first.
func TestOpenAIAsksForWAVAfterPCMIsRefused(t *testing.T) {
	fake := &localservertest.AllTalkV2{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	o := &OpenAI{BaseURL: srv.URL + "/v1", Model: "tts-1", Voice: "nova"}
	for range 2 {
		body, raw, err := o.Open(context.Background(), "Hello.")
		if err != nil {
			t.Fatal(err)
		}
		if err := audio.Decode(body, raw, audio.NewStream()); err != nil {
			t.Fatal(err)
		}
		body.Close()
	}
	var formats []string
	for _, r := range fake.Requests.All() {
		formats = append(formats, r["response_format"])
	}
	if strings.Join(formats, " ") != "pcm wav wav" {
		t.Errorf("formats asked %v, want pcm, wav, then wav", formats)
	}
}

// A GPT-SoVITS stream that breaks while the clip is fine says so, with
// how much had come.
func TestGPTSoVITSBrokenStreamWithAGoodClip(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/set_refer_audio" {
			io.WriteString(w, `{"message":"success"}`)
			return
		}
		w.Header().Set("Content-Type", "audio/wav")
		w.Write(localservertest.WAVHeader(32000, 0))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	defer srv.Close()
	body, raw, err := (&GPTSoVITS{BaseURL: srv.URL, RefAudio: "ref.wav", RefLang: "en"}).Open(context.Background(), "Hi.")
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	err = audio.Decode(body, raw, audio.NewStream())
	if err == nil || !strings.Contains(err.Error(), "GPT-SoVITS broke off its answer after 44 bytes (its console says why)") {
		t.Errorf("err %v", err)
	}
}
