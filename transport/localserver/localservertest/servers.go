package localservertest

import (
	"io"
	"net/http"
	"time"
)

// Kokoro is Kokoro-FastAPI (its README: "OpenAI-compatible Speech
// Endpoint", GET /v1/audio/voices): POST /v1/audio/speech with
// response_format pcm answers raw 24 kHz 16-bit PCM, streamed.
type Kokoro struct {
	Voices   []string // nil: af_bella, af_sky, jf_alpha
	Hold     Hold
	Requests Requests // each speech request's fields
	// Delay is how long after a speech request its first chunk is
	// written (the latency benchmark's fixed 150 ms); Timings says when.
	Delay   time.Duration
	Timings Timings
}

func (k *Kokoro) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/v1/audio/voices" && r.Method == http.MethodGet:
		voices := k.Voices
		if voices == nil {
			voices = []string{"af_bella", "af_sky", "jf_alpha"}
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"voices":`+jsonList(voices)+`}`)
	case r.URL.Path == "/v1/models":
		io.WriteString(w, `{"object":"list","data":[{"id":"tts-1","object":"model","owned_by":"kokoro"},{"id":"kokoro","object":"model","owned_by":"kokoro"}]}`)
	case r.URL.Path == "/v1/audio/speech" && r.Method == http.MethodPost:
		req := stringFields(r.Body)
		k.Requests.add(req)
		if req["input"] == "" {
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, `{"detail":[{"loc":["body","input"],"msg":"Field required","type":"missing"}]}`)
			return
		}
		arrived := time.Now()
		sleep(r, k.Delay)
		// The timing is kept before the first audio goes: a client that
		// plays it at once may be asked about it before this handler
		// runs on.
		k.Timings.add(Timing{Text: req["input"], Arrived: arrived, Answered: time.Now(), Cancelled: r.Context().Err() != nil})
		w.Header().Set("Content-Type", "audio/pcm")
		w.Write(Tone(24000, 2400)) // 0.1 s
		w.(http.Flusher).Flush()
		k.Hold.wait(r)
		w.Write(Tone(24000, 21600))
	default:
		http.NotFound(w, r)
	}
}

// GPTSoVITS is GPT-SoVITS's api_v2.py (its doc string): /tts checks its
// parameters first and answers 400 {"message":"… is required"} for a
// missing one (which is how Yui tells it on 9880); with streaming_mode the
// WAV header comes first, with no length, then PCM chunks as they are
// made.
type GPTSoVITS struct {
	Hold     Hold
	Requests Requests
}

func (g *GPTSoVITS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/tts" {
		http.NotFound(w, r)
		return
	}
	req := map[string]string{}
	if r.Method == http.MethodPost {
		req = stringFields(r.Body)
	} else {
		for k := range r.URL.Query() {
			req[k] = r.URL.Query().Get(k)
		}
	}
	if len(req) > 0 {
		g.Requests.add(req)
	}
	w.Header().Set("Content-Type", "application/json")
	for _, k := range []string{"ref_audio_path", "text", "text_lang", "prompt_lang"} {
		if req[k] == "" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"message":"`+k+` is required"}`)
			return
		}
	}
	w.Header().Set("Content-Type", "audio/wav")
	if req["streaming_mode"] != "true" {
		w.Write(WAVHeader(32000, 64000))
		w.Write(Tone(32000, 32000))
		return
	}
	w.Write(WAVHeader(32000, 0))
	w.Write(Tone(32000, 3200)) // 0.1 s
	w.(http.Flusher).Flush()
	g.Hold.wait(r)
	w.Write(Tone(32000, 28800))
}

// WhisperCpp is whisper.cpp's server (examples/server): POST /inference
// with a multipart "file"; without one, a 200 with an error object (which
// is how Yui tells it on 8080). It hears Text whatever the audio.
type WhisperCpp struct {
	Text     string
	Requests Requests // each request's form fields, and "file_bytes"
}

func (s *WhisperCpp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/inference" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	req, ok := formFields(r)
	if !ok {
		io.WriteString(w, `{"error":"no 'file' field in the request"}`)
		return
	}
	s.Requests.add(req)
	io.WriteString(w, `{"text":`+jsonString(" "+s.Text+"\n")+`}`)
}

// Whisper is OpenAI's transcription endpoint as Whisper-compatible servers
// serve it (speaches, faster-whisper-server): POST
// /v1/audio/transcriptions, multipart with "file" and "model", answering
// {"text":…}. It hears Text whatever the audio, Delay after the request
// has arrived whole.
type Whisper struct {
	Text     string
	Delay    time.Duration
	Requests Requests // each request's form fields, and "file_bytes"
	Timings  Timings
}

func (s *Whisper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/audio/transcriptions" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	req, ok := formFields(r)
	if !ok {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"file is required","type":"invalid_request_error"}}`)
		return
	}
	arrived := time.Now()
	s.Requests.add(req)
	sleep(r, s.Delay)
	io.WriteString(w, `{"text":`+jsonString(s.Text)+`}`)
	s.Timings.add(Timing{Text: s.Text, Arrived: arrived, Answered: time.Now(), Cancelled: r.Context().Err() != nil})
}

// formFields reads a multipart upload: its text fields, and the size of
// its "file" as "file_bytes"; false when it has no file.
func formFields(r *http.Request) (map[string]string, bool) {
	f, _, err := r.FormFile("file")
	if err != nil {
		return nil, false
	}
	n, _ := io.Copy(io.Discard, f)
	req := map[string]string{"file_bytes": itoa(n)}
	for k, v := range r.MultipartForm.Value {
		if len(v) > 0 {
			req[k] = v[0]
		}
	}
	return req, true
}
