package localservertest

import (
	"net/http"
	"slices"
	"strings"
)

var speachesSource = Source{Repo: "speaches-ai/speaches", Version: "v0.9.0-rc.3-23-g870e1e1",
	File: "src/speaches/routers/speech.py", Func: "synthesize; routers/models.py list_local_models, get_local_model, list_local_audio_models, list_local_audio_voices; routers/misc.py health, get_running_models; routers/stt.py transcribe_file; executors/kokoro.py, piper.py, silero_vad_v5.py model cards"}

var speachesKokoroVoices = []string{"af_heart", "af_bella", "am_adam"}

// speachesModel is one installed model as its executor's registry lists
// it: every card has a task; a speech model has its sample_rate and voices.
type speachesModel struct {
	id, owner, task string
	rate            int
	voices          []string
	lang            string
}

func (m speachesModel) json() string {
	s := `{"id":` + jsonString(m.id) + `,"created":1740000000,"object":"model","owned_by":` + jsonString(m.owner) +
		`,"language":[` + jsonString(m.lang) + `],"task":` + jsonString(m.task)
	if m.task == "text-to-speech" {
		var vs []string
		for _, v := range m.voices {
			vs = append(vs, m.voice(v))
		}
		s += `,"sample_rate":` + itoa(int64(m.rate)) + `,"voices":[` + strings.Join(vs, ",") + `]`
	}
	return s + "}"
}

func (m speachesModel) voice(v string) string {
	if m.rate == 24000 { // a Kokoro voice has a gender
		return `{"name":` + jsonString(v) + `,"language":"en-us","gender":"female","id":` + jsonString(v) + `}`
	}
	return `{"name":` + jsonString(v) + `,"language":` + jsonString(m.lang) + `,"id":` + jsonString(v) + `}`
}

// Speaches is speaches (speachesSource: github.com/speaches-ai/speaches
// src/speaches/routers/speech.py synthesize, routers/models.py
// list_local_models and get_local_model, routers/stt.py transcribe_file) with a speech model, a Whisper
// model and Silero's voice-activity model installed. GET /v1/models lists
// every model with its task; GET /v1/audio/models is the speech models as
// {"models":[…],"object":"list"}; GET /v1/audio/voices is {"voices":[{"name",
// "id",…}],"object":"list"}; POST /v1/audio/speech answers pcm as raw
// 16-bit mono at the model's own rate (24 kHz for Kokoro, 22050 Hz for a
// medium Piper voice), Content-Type audio/pcm with no rate; POST
// /v1/audio/transcriptions is OpenAI's. A model not installed is 404 with
// FastAPI's {"detail":…}.
type Speaches struct {
	// Piper installs a Piper voice (speaches-ai/piper-en_US-amy-medium)
	// instead of Kokoro.
	Piper    bool
	Text     string // what transcription hears; "" is "hello there"
	Requests Requests
}

func (s *Speaches) models() []speachesModel {
	tts := speachesModel{id: "speaches-ai/Kokoro-82M-v1.0-ONNX", owner: "speaches-ai", task: "text-to-speech",
		rate: 24000, voices: speachesKokoroVoices, lang: "en"}
	if s.Piper {
		tts = speachesModel{id: "speaches-ai/piper-en_US-amy-medium", owner: "speaches-ai", task: "text-to-speech",
			rate: 22050, voices: []string{"amy"}, lang: "en_US"}
	}
	return []speachesModel{
		tts,
		{id: "Systran/faster-distil-whisper-small.en", owner: "Systran", task: "automatic-speech-recognition", lang: "en"},
		{id: "silero_vad_v5", owner: "snakers4", task: "voice-activity-detection", lang: "en"},
	}
}

func (s *Speaches) find(id string) (speachesModel, bool) {
	i := slices.IndexFunc(s.models(), func(m speachesModel) bool { return m.id == id })
	if i < 0 {
		return speachesModel{}, false
	}
	return s.models()[i], true
}

func (s *Speaches) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/health" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"message":"OK"}`)
	case p == "/api/ps" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"models":[]}`)
	case p == "/v1/models" && r.Method == http.MethodGet:
		var list []string
		for _, m := range s.models() {
			if t := r.URL.Query().Get("task"); t == "" || t == m.task {
				list = append(list, m.json())
			}
		}
		writeJSON(w, http.StatusOK, `{"data":[`+strings.Join(list, ",")+`],"object":"list"}`)
	case strings.HasPrefix(p, "/v1/models/") && r.Method == http.MethodGet:
		id := strings.TrimPrefix(p, "/v1/models/")
		m, ok := s.find(id)
		if !ok {
			writeJSON(w, http.StatusNotFound, `{"detail":`+jsonString("Model '"+id+"' not found")+`}`)
			return
		}
		writeJSON(w, http.StatusOK, m.json())
	case p == "/v1/audio/models" && r.Method == http.MethodGet:
		// list_local_audio_models: the text-to-speech models, under "models".
		var list []string
		for _, m := range s.models() {
			if m.task == "text-to-speech" {
				list = append(list, m.json())
			}
		}
		writeJSON(w, http.StatusOK, `{"models":[`+strings.Join(list, ",")+`],"object":"list"}`)
	case p == "/v1/audio/voices" && r.Method == http.MethodGet:
		var vs []string
		for _, m := range s.models() {
			for _, v := range m.voices {
				vs = append(vs, m.voice(v))
			}
		}
		writeJSON(w, http.StatusOK, `{"voices":[`+strings.Join(vs, ",")+`],"object":"list"}`)
	case p == "/v1/audio/speech" && r.Method == http.MethodPost:
		s.speech(w, r)
	case p == "/v1/audio/transcriptions" && r.Method == http.MethodPost:
		r.ParseMultipartForm(64 << 20)
		if m, ok := s.find(r.FormValue("model")); r.FormValue("model") != "" && (!ok || m.task != "automatic-speech-recognition") {
			writeJSON(w, http.StatusNotFound, `{"detail":`+jsonString("Model '"+r.FormValue("model")+"' is not installed locally. You can download the model using `POST /v1/models`")+`}`)
			return
		}
		text := s.Text
		if text == "" {
			text = "hello there"
		}
		(&Whisper{Text: text}).ServeHTTP(w, r)
	default:
		fastAPINotFound(w)
	}
}

func (s *Speaches) speech(w http.ResponseWriter, r *http.Request) {
	req := stringFields(r.Body)
	s.Requests.add(req)
	for _, f := range []string{"model", "input", "voice"} { // CreateSpeechRequestBody's required fields
		if _, ok := req[f]; !ok {
			fastAPIMissing(w, f)
			return
		}
	}
	m, ok := s.find(req["model"])
	if !ok || m.task != "text-to-speech" {
		writeJSON(w, http.StatusNotFound, `{"detail":`+jsonString("Model '"+req["model"]+"' is not installed locally. You can download the model using `POST /v1/models`")+`}`)
		return
	}
	if !slices.Contains(m.voices, req["voice"]) {
		starletteServerError(w) // the executor raises on a voice its model lacks
		return
	}
	format := req["response_format"]
	if format == "" {
		format = "mp3" // DEFAULT_SPEECH_RESPONSE_FORMAT
	}
	if format != "pcm" && format != "wav" {
		writeJSON(w, http.StatusBadRequest, `{"detail":"the fake sends pcm and wav only"}`)
		return
	}
	w.Header().Set("Content-Type", "audio/"+format)
	if format == "wav" {
		w.Write(ffmpegWAVHeader(m.rate)) // ffmpeg writing a WAV to a pipe
	}
	w.Write(Tone(m.rate, m.rate/10))
	w.(http.Flusher).Flush()
	w.Write(Tone(m.rate, m.rate-m.rate/10))
}

// ffmpegWAVHeader is a WAV header as ffmpeg writes it to a pipe, where it
// cannot go back: both sizes are the placeholder 0xFFFFFFFF.
func ffmpegWAVHeader(rate int) []byte {
	h := WAVHeader(rate, 0)
	copy(h[4:8], []byte{0xff, 0xff, 0xff, 0xff})
	copy(h[40:44], []byte{0xff, 0xff, 0xff, 0xff})
	return h
}

var openedAISource = Source{Repo: "matatonic/openedai-speech", Version: "0.18.2-1-g31f0335",
	File: "speech.py", Func: "generate_speech, map_voice_to_speaker, build_ffmpeg_args; openedai.py OpenAIStub (handle_billing_usage, get_model_list, exception handlers)"}

// OpenedAIVoices are voice_to_speaker.default.yaml's tts-1 voices that
// carry OpenAI's names; openedai-speech lists its voices nowhere.
var OpenedAIVoices = AllTalkOpenAIVoices

// OpenedAI is openedai-speech (openedAISource) with its default voice map:
// GET /v1/models lists tts-1 and tts-1-hd owned_by "user"; GET
// /v1/billing/usage is {"total_usage":0}; POST /v1/audio/speech with
// tts-1 runs Piper and sends pcm as Content-Type audio/pcm;rate=22050
// (tts-1-hd: XTTS, rate=24000); errors are {"message","code","type",
// "param"} with the status in code.
type OpenedAI struct {
	Requests Requests
}

func (o *OpenedAI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; {
	case (p == "/v1/billing/usage" || p == "/v1/dashboard/billing/usage") && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"total_usage":0}`)
	case p == "/health" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"status":"ok"}`)
	case p == "/v1/models" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, `{"object":"list","data":[{"id":"tts-1","object":"model","created":0,"owned_by":"user"},{"id":"tts-1-hd","object":"model","created":0,"owned_by":"user"}]}`)
	case strings.HasPrefix(p, "/v1/models/") && r.Method == http.MethodGet:
		// get_model_info's parameter is model_id, the path's is model:
		// FastAPI wants model_id as a query parameter.
		writeJSON(w, http.StatusUnprocessableEntity, `{"detail":[{"type":"missing","loc":["query","model_id"],"msg":"Field required","input":null}]}`)
	case p == "/v1/audio/speech" && r.Method == http.MethodPost:
		o.speech(w, r)
	default:
		fastAPINotFound(w)
	}
}

func (o *OpenedAI) openAIError(w http.ResponseWriter, status int, msg, param string) {
	typ := "BadRequestError"
	if status == http.StatusServiceUnavailable {
		typ = "ServiceUnavailableError"
	}
	p := "null"
	if param != "" {
		p = jsonString(param)
	}
	writeJSON(w, status, `{"message":`+jsonString(msg)+`,"code":`+itoa(int64(status))+`,"type":"`+typ+`","param":`+p+`}`)
}

func (o *OpenedAI) speech(w http.ResponseWriter, r *http.Request) {
	req := stringFields(r.Body)
	o.Requests.add(req)
	if _, ok := req["input"]; !ok {
		fastAPIMissing(w, "input")
		return
	}
	if strings.TrimSpace(req["input"]) == "" {
		o.openAIError(w, http.StatusBadRequest, "Empty Input", "input")
		return
	}
	model, voice, format := req["model"], req["voice"], strings.ToLower(req["response_format"])
	if model == "" {
		model = "tts-1"
	}
	if voice == "" {
		voice = "alloy"
	}
	if format == "" {
		format = "mp3"
	}
	rate := map[string]int{"tts-1": 22050, "tts-1-hd": 24000}[model]
	if rate == 0 {
		o.openAIError(w, http.StatusBadRequest, "No such model, must be tts-1 or tts-1-hd.", "model")
		return
	}
	if !slices.Contains(OpenedAIVoices, voice) {
		o.openAIError(w, http.StatusBadRequest, "Error loading voice: "+voice+", KeyError: '"+voice+"'", "voice")
		return
	}
	switch format {
	case "pcm":
		w.Header().Set("Content-Type", "audio/pcm;rate="+itoa(int64(rate)))
	case "wav":
		w.Header().Set("Content-Type", "audio/wav")
		w.Write(ffmpegWAVHeader(rate))
	default:
		o.openAIError(w, http.StatusBadRequest, "the fake sends pcm and wav only", "response_format")
		return
	}
	w.Write(Tone(rate, rate/10))
	w.(http.Flusher).Flush()
	w.Write(Tone(rate, rate-rate/10))
}
