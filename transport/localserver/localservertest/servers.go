package localservertest

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

var kokoroSource = Source{Repo: "remsky/Kokoro-FastAPI", Version: "v0.8.0-rc1-27-g26eec06",
	File: "api/src/routers/openai_compatible.py", Func: "create_speech, list_voices, list_models, retrieve_model; api/src/main.py health_check"}

var kokoroVoices = []string{"af_bella", "af_sky", "am_adam", "jf_alpha"}

// kokoroModels are its /v1/models (list_models): the OpenAI names and its
// own, all owned_by "kokoro".
var kokoroModels = []string{"tts-1", "tts-1-hd", "kokoro", "gpt-4o-mini-tts"}

// kokoroAliases is its OpenAI voice mapping (api/src/core/openai_mappings.json).
var kokoroAliases = map[string]string{"alloy": "am_adam", "echo": "af_bella", "fable": "af_sarah",
	"onyx": "bm_george", "nova": "bf_isabella", "shimmer": "af_sky"}

// Kokoro is Kokoro-FastAPI (kokoroSource): GET /v1/audio/voices is
// {"voices":[{"id","name"}…]} ({"voices":[names]} with ?legacy=true);
// POST /v1/audio/speech validates the model and the voice before it
// streams, answering 400 {"detail":{"error","message","type"}}, and sends
// pcm as raw 24 kHz 16-bit mono, Content-Type audio/pcm with no rate.
type Kokoro struct {
	Voices   []string // nil: kokoroVoices
	Hold     Hold
	Requests Requests // each speech request's fields
	// Delay is how long after a speech request its first chunk is
	// written (the latency benchmark's fixed 150 ms); Timings says when.
	Delay   time.Duration
	Timings Timings
}

func (k *Kokoro) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	voices := k.Voices
	if voices == nil {
		voices = kokoroVoices
	}
	switch p := r.URL.Path; {
	case p == "/health" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"status":"healthy"}`)
	case p == "/v1/audio/voices" && r.Method == http.MethodGet:
		if r.URL.Query().Get("legacy") == "true" {
			writeJSON(w, http.StatusOK, `{"voices":`+jsonList(voices)+`}`)
			return
		}
		var objs []string
		for _, v := range voices {
			objs = append(objs, `{"id":`+jsonString(v)+`,"name":`+jsonString(v)+`}`)
		}
		writeJSON(w, http.StatusOK, `{"voices":[`+strings.Join(objs, ",")+`]}`)
	case p == "/v1/models" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"object":"list","data":[`+kokoroModelList(kokoroModels)+`]}`)
	case strings.HasPrefix(p, "/v1/models/") && r.Method == http.MethodGet:
		m := strings.TrimPrefix(p, "/v1/models/")
		if !slices.Contains(kokoroModels[:3], m) { // retrieve_model knows three
			writeJSON(w, http.StatusNotFound, `{"detail":{"error":"model_not_found","message":"Model '`+m+`' not found","type":"invalid_request_error"}}`)
			return
		}
		writeJSON(w, http.StatusOK, kokoroModelList([]string{m}))
	case p == "/v1/audio/speech" && r.Method == http.MethodPost:
		k.speech(w, r, voices)
	default:
		fastAPINotFound(w)
	}
}

func kokoroModelList(ids []string) string {
	var out []string
	for _, id := range ids {
		out = append(out, `{"id":`+jsonString(id)+`,"object":"model","created":1686935002,"owned_by":"kokoro"}`)
	}
	return strings.Join(out, ",")
}

func (k *Kokoro) speech(w http.ResponseWriter, r *http.Request, voices []string) {
	req := stringFields(r.Body)
	k.Requests.add(req)
	for _, f := range []string{"input", "voice"} { // OpenAISpeechRequest's required fields
		if _, ok := req[f]; !ok && f == "input" {
			fastAPIMissing(w, f)
			return
		}
	}
	model := req["model"]
	if model == "" {
		model = "kokoro" // OpenAISpeechRequest's default
	}
	if !slices.Contains(kokoroModels, model) {
		writeJSON(w, http.StatusBadRequest, `{"detail":{"error":"invalid_model","message":"Unsupported model: `+model+`","type":"invalid_request_error"}}`)
		return
	}
	voice := req["voice"]
	if voice == "" {
		voice = "af_heart"
	}
	if a, ok := kokoroAliases[voice]; ok {
		voice = a
	}
	if !slices.Contains(voices, voice) {
		msg := "Voice '" + voice + "' not found. Available voices: " + strings.Join(voices, ", ")
		writeJSON(w, http.StatusBadRequest, `{"detail":{"error":"validation_error","message":`+jsonString(msg)+`,"type":"invalid_request_error"}}`)
		return
	}
	format := req["response_format"]
	if format == "" {
		format = "mp3"
	}
	if format != "pcm" && format != "wav" {
		// It encodes mp3, opus, aac and flac too; Yui asks for none.
		writeJSON(w, http.StatusBadRequest, `{"detail":{"error":"validation_error","message":"the fake sends pcm and wav only","type":"invalid_request_error"}}`)
		return
	}
	arrived := time.Now()
	sleep(r, k.Delay)
	// The timing is kept before the first audio goes: a client that
	// plays it at once may be asked about it before this handler runs on.
	k.Timings.add(Timing{Text: req["input"], Arrived: arrived, Answered: time.Now(), Cancelled: r.Context().Err() != nil})
	w.Header().Set("Content-Type", "audio/"+format)
	if format == "wav" {
		w.Write(WAVHeader(24000, 0)) // StreamingAudioWriter's streamed header
	}
	w.Write(Tone(24000, 2400)) // 0.1 s
	w.(http.Flusher).Flush()
	k.Hold.wait(r)
	w.Write(Tone(24000, 21600))
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

var gptSoVITSSource = Source{Repo: "RVC-Boss/GPT-SoVITS", Version: "20250606v2pro-80-g48b1a01",
	File: "api_v2.py", Func: "control, tts_get_endpoint, tts_post_endpoint, check_params, tts_handle, set_refer_aduio; GPT_SoVITS/TTS_infer_pack/TTS.py run, _set_prompt_semantic"}

// gptSoVITSLanguages are tts_infer.yaml's v2 languages (TTS_Config).
var gptSoVITSLanguages = []string{"auto", "auto_yue", "en", "zh", "ja", "yue", "ko", "all_zh", "all_ja", "all_yue", "all_ko"}

// GPTSoVITSBadRef is TTS.py's reason for a reference clip outside 3 to
// 10 seconds (_set_prompt_semantic), in English.
const GPTSoVITSBadRef = "Reference audio is outside the 3-10 second range, please choose another one!"

// GPTSoVITS is GPT-SoVITS's api_v2.py (gptSoVITSSource).
//   - GET /control with no command is 400 {"message":"command is
//     required"}, and nothing is done: the harmless question that tells it.
//   - GET /tts without text_lang or prompt_lang raises calling .lower() on
//     None: 500 "Internal Server Error".
//   - /tts checks its parameters in check_params' order: 400 {"message":…}.
//   - streaming_mode true is 1 in tts_handle (return_fragment): a WAV
//     header written by Python's wave module with no frames (sizes 0 and
//     36), then raw PCM fragments at the model's rate.
//   - A reference clip it cannot use (BadRef) fails in TTS.run before any
//     audio: streamed, the answer has begun (200, audio/wav) and breaks;
//     not streamed, 400 {"message":"tts failed","Exception":…}.
//   - GET /set_refer_audio loads the clip: 400 {"message":"set refer audio
//     failed","Exception":…} for a bad one.
type GPTSoVITS struct {
	// Rate is the model's (32000 for v1, v2 and v2Pro; 24000 for v3;
	// 48000 for v4); 0 is 32000.
	Rate int
	// BadRef, when set, is the reason every reference clip is refused.
	BadRef   string
	Hold     Hold
	Requests Requests
}

func (g *GPTSoVITS) rate() int {
	if g.Rate == 0 {
		return 32000
	}
	return g.Rate
}

func (g *GPTSoVITS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch {
	case r.URL.Path == "/control" && r.Method == http.MethodGet:
		if !q.Has("command") {
			writeJSON(w, http.StatusBadRequest, `{"message":"command is required"}`)
			return
		}
		writeJSON(w, http.StatusOK, `null`) // restart and exit end the process; the fake does neither
	case r.URL.Path == "/set_refer_audio" && r.Method == http.MethodGet:
		if g.BadRef != "" {
			writeJSON(w, http.StatusBadRequest, `{"message":"set refer audio failed","Exception":`+jsonString(g.BadRef)+`}`)
			return
		}
		writeJSON(w, http.StatusOK, `{"message":"success"}`)
	case r.URL.Path == "/tts" && r.Method == http.MethodGet:
		if !q.Has("text_lang") || !q.Has("prompt_lang") {
			starletteServerError(w)
			return
		}
		req := map[string]string{}
		for k := range q {
			req[k] = q.Get(k)
		}
		req["text_lang"], req["prompt_lang"] = strings.ToLower(req["text_lang"]), strings.ToLower(req["prompt_lang"])
		g.tts(w, r, req)
	case r.URL.Path == "/tts" && r.Method == http.MethodPost:
		g.tts(w, r, stringFields(r.Body))
	case r.URL.Path == "/tts" || r.URL.Path == "/control":
		fastAPIMethodNotAllowed(w)
	default:
		fastAPINotFound(w)
	}
}

func (g *GPTSoVITS) tts(w http.ResponseWriter, r *http.Request, req map[string]string) {
	g.Requests.add(req)
	if msg := g.check(req); msg != "" {
		writeJSON(w, http.StatusBadRequest, `{"message":`+jsonString(msg)+`}`)
		return
	}
	var stream bool
	switch req["streaming_mode"] {
	case "", "false", "0":
	case "true", "1", "2", "3":
		stream = true
	default:
		writeJSON(w, http.StatusBadRequest, `{"message":"the value of streaming_mode must be 0, 1, 2, 3(int) or true/false(bool)"}`)
		return
	}
	media := req["media_type"]
	if media == "" {
		media = "wav"
	}
	if media != "wav" && media != "raw" {
		writeJSON(w, http.StatusBadRequest, `{"message":"the fake sends wav and raw only"}`)
		return
	}
	rate := g.rate()
	if !stream {
		if g.BadRef != "" {
			writeJSON(w, http.StatusBadRequest, `{"message":"tts failed","Exception":`+jsonString(g.BadRef)+`}`)
			return
		}
		w.Header().Set("Content-Type", "audio/"+media)
		if media == "wav" {
			w.Write(WAVHeader(rate, uint32(2*rate)))
		}
		w.Write(Tone(rate, rate))
		return
	}
	w.Header().Set("Content-Type", "audio/"+media)
	w.WriteHeader(http.StatusOK)
	if g.BadRef != "" {
		abort(w) // TTS.run raised at its first step, after the answer began
	}
	if media == "wav" {
		w.Write(pythonWaveHeader(rate))
	}
	w.Write(Tone(rate, rate/10)) // 0.1 s
	w.(http.Flusher).Flush()
	g.Hold.wait(r)
	w.Write(Tone(rate, rate-rate/10))
}

// check is check_params: the first missing or unsupported parameter's
// message, "" when it takes the request.
func (g *GPTSoVITS) check(req map[string]string) string {
	switch {
	case req["ref_audio_path"] == "":
		return "ref_audio_path is required"
	case req["text"] == "":
		return "text is required"
	case req["text_lang"] == "":
		return "text_lang is required"
	case !slices.Contains(gptSoVITSLanguages, strings.ToLower(req["text_lang"])):
		return "text_lang: " + req["text_lang"] + " is not supported in version v2"
	case req["prompt_lang"] == "":
		return "prompt_lang is required"
	case !slices.Contains(gptSoVITSLanguages, strings.ToLower(req["prompt_lang"])):
		return "prompt_lang: " + req["prompt_lang"] + " is not supported in version v2"
	}
	return ""
}

// pythonWaveHeader is what api_v2.py's wave_header_chunk writes: Python's
// wave module closing a file of no frames, so both sizes say empty.
func pythonWaveHeader(rate int) []byte {
	return WAVHeader(rate, 0)
}

var whisperCppSource = Source{Repo: "ggml-org/whisper.cpp", Version: "v1.9.3-50-g233fe1fc9",
	File: "examples/server/server.cpp", Func: "main: set_default_headers, Post(inference_path), Get(/health), set_error_handler"}

// WhisperCpp is whisper.cpp's server (whisperCppSource). Every answer
// carries Server: whisper.cpp. POST /inference takes a multipart "file"
// (a WAV without --convert) and answers {"text":…} for response_format
// json. Its error handler rewrites every answer of status 400 to
// "Invalid request" (text/plain), so "no 'file' field" and "failed to read
// audio data" are both that, and every other status from 400 up but 500
// to 404 "File Not Found (path)"; a 500 keeps its JSON.
type WhisperCpp struct {
	Text string
	// Fail makes the model fail on every file: 500 {"error":"failed to
	// process audio"}.
	Fail     bool
	Requests Requests // each request's form fields, and "file_bytes"
}

func (s *WhisperCpp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Server", "whisper.cpp")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Headers", "content-type, authorization")
	errorHandler := func(status int) {
		w.Header().Set("Content-Type", "text/plain")
		if status == http.StatusBadRequest {
			w.WriteHeader(status)
			io.WriteString(w, "Invalid request")
			return
		}
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "File Not Found ("+r.URL.Path+")")
	}
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head><title>Whisper.cpp Server</title></head><body><h1>Whisper.cpp Server</h1></body></html>")
	case r.URL.Path == "/health" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`)
	case r.URL.Path == "/inference" && r.Method == http.MethodPost:
		req, file, ok := formFile(r)
		if !ok || !bytes.HasPrefix(file, []byte("RIFF")) {
			errorHandler(http.StatusBadRequest)
			return
		}
		s.Requests.add(req)
		if s.Fail {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":"failed to process audio"}`)
			return
		}
		switch req["response_format"] {
		case "text":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, " "+s.Text+"\n")
		default: // json, and any format it does not know
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"text":`+jsonString(" "+s.Text+"\n")+`}`)
		}
	default:
		errorHandler(http.StatusNotFound)
	}
}

// Whisper is OpenAI's transcription endpoint as speaches serves it
// (speachesSource's routers/stt.py transcribe_file): POST
// /v1/audio/transcriptions, multipart with "file" and "model", answering
// {"text":…}. It hears Text whatever the audio, Delay after the request
// has arrived whole. Speaches is the whole server.
type Whisper struct {
	Text     string
	Delay    time.Duration
	Requests Requests // each request's form fields, and "file_bytes"
	Timings  Timings
}

func (s *Whisper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/audio/transcriptions" || r.Method != http.MethodPost {
		fastAPINotFound(w)
		return
	}
	req, _, ok := formFile(r)
	if !ok {
		fastAPIMissing(w, "file")
		return
	}
	if req["model"] == "" {
		fastAPIMissing(w, "model")
		return
	}
	arrived := time.Now()
	s.Requests.add(req)
	sleep(r, s.Delay)
	writeJSON(w, http.StatusOK, `{"text":`+jsonString(s.Text)+`}`)
	s.Timings.add(Timing{Text: s.Text, Arrived: arrived, Answered: time.Now(), Cancelled: r.Context().Err() != nil})
}

// formFile reads a multipart upload: its text fields, the size of its
// "file" as "file_bytes", and the file; false when it has no file.
func formFile(r *http.Request) (map[string]string, []byte, bool) {
	f, _, err := r.FormFile("file")
	if err != nil {
		return nil, nil, false
	}
	b, _ := io.ReadAll(io.LimitReader(f, 64<<20))
	req := map[string]string{"file_bytes": itoa(int64(len(b)))}
	for k, v := range r.MultipartForm.Value {
		if len(v) > 0 {
			req[k] = v[0]
		}
	}
	return req, b, true
}
