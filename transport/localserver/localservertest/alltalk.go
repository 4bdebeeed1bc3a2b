package localservertest

import (
	"io"
	"net/http"
	"slices"
	"strconv"
)

var (
	allTalkV1Source = Source{Repo: "erew123/alltalk_tts", Version: "main 492dbe5 (v1)",
		File: "tts_server.py", Func: "ready (/ready, /api/ready), get_voices, tts_generate_streaming, generate_audio_internal"}
	allTalkV2Source = Source{Repo: "erew123/alltalk_tts", Version: "alltalkbeta 7a59e9c (v2)",
		File: "tts_server.py", Func: "apifunction_ready, apifunction_get_voices, openai_tts_generate, OpenAIInput.validate_voice, transcode_for_openai"}
)

// AllTalkOpenAIVoices are the only voices AllTalk v2's /v1/audio/speech
// takes (OpenAIInput.validate_voice), each mapped to one of the engine's.
var AllTalkOpenAIVoices = []string{"alloy", "echo", "fable", "nova", "onyx", "shimmer"}

var allTalkV1Voices = []string{"female_01.wav", "male_01.wav"}

// plain writes body with no Content-Type, as Starlette's Response with no
// media_type does.
func plain(w http.ResponseWriter, body string) {
	w.Header()["Content-Type"] = nil
	io.WriteString(w, body)
}

// AllTalkV1 is AllTalk v1 (allTalkV1Source): GET /ready answers "Ready
// endpoint" and GET /api/ready "Ready", both with no Content-Type; GET
// /api/voices is {"voices":[the voices folder's wav files]}. It has no
// /v1/audio/speech. GET /api/tts-generate-streaming takes text, voice,
// language and output_file (each required: FastAPI's 422 without) and
// streams a WAV: Python's wave header at 24 kHz with no frames, then
// XTTS's chunks; a voice not in its folder fails inside the stream.
type AllTalkV1 struct {
	Requests Requests
}

func (a *AllTalkV1) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/api/tts-generate-streaming" && r.Method == http.MethodGet:
		q := r.URL.Query()
		req := map[string]string{}
		for _, k := range []string{"text", "voice", "language", "output_file"} {
			if !q.Has(k) {
				writeJSON(w, http.StatusUnprocessableEntity, `{"detail":[{"type":"missing","loc":["query",`+jsonString(k)+`],"msg":"Field required","input":null}]}`)
				return
			}
			req[k] = q.Get(k)
		}
		a.Requests.add(req)
		w.Header().Set("Content-Type", "audio/wav")
		w.WriteHeader(http.StatusOK)
		if !slices.Contains(allTalkV1Voices, req["voice"]) {
			abort(w) // get_conditioning_latents cannot open the voice's file
		}
		w.Write(pythonWaveHeader(24000))
		w.Write(Tone(24000, 2400))
		w.(http.Flusher).Flush()
		w.Write(Tone(24000, 21600))
	case r.URL.Path == "/ready" && r.Method == http.MethodGet:
		plain(w, "Ready endpoint")
	case r.URL.Path == "/api/ready" && r.Method == http.MethodGet:
		plain(w, "Ready")
	case r.URL.Path == "/api/voices" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"voices":`+jsonList(allTalkV1Voices)+`}`)
	default:
		fastAPINotFound(w)
	}
}

// AllTalkV2 is AllTalk v2 with its default engine, Piper
// (allTalkV2Source): GET /api/ready "Ready" (no Content-Type); GET
// /api/voices {"status":"success","voices":[…]}; POST /v1/audio/speech
// takes only AllTalkOpenAIVoices and a format ffmpeg can make (wav, mp3,
// opus, aac, flac, m4a, ogg: not pcm), and answers the WAV the engine
// made, 22050 Hz for Piper. Every error there is a 500 "Internal Server
// Error": the handler's own error answer calls response.status_code(…),
// an int, and raises.
type AllTalkV2 struct {
	Requests Requests
}

func (a *AllTalkV2) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/api/ready" && r.Method == http.MethodGet:
		plain(w, "Ready")
	case r.URL.Path == "/api/voices" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"status":"success","voices":["en_US-lessac-medium.onnx","en_US-ryan-high.onnx"]}`)
	case r.URL.Path == "/v1/audio/speech" && r.Method == http.MethodPost:
		a.speech(w, r)
	default:
		fastAPINotFound(w)
	}
}

func (a *AllTalkV2) speech(w http.ResponseWriter, r *http.Request) {
	req := stringFields(r.Body)
	a.Requests.add(req)
	format := req["response_format"]
	if format == "" {
		format = "wav"
	}
	speed := 1.0
	if s, ok := req["speed"]; ok {
		speed, _ = strconv.ParseFloat(s, 64)
	}
	_, hasModel := req["model"]
	if !hasModel || req["input"] == "" ||
		!slices.Contains(AllTalkOpenAIVoices, req["voice"]) || speed < 0.25 || speed > 4 ||
		format != "wav" { // the fake makes wav only; pcm is refused by the server too
		starletteServerError(w)
		return
	}
	w.Header().Set("Content-Type", "audio/wav")
	w.Header().Set("Content-Disposition", `attachment; filename="output.wav"`)
	w.Write(WAVHeader(22050, 2*22050))
	w.Write(Tone(22050, 22050))
}
