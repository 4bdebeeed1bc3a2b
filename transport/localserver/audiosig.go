package localserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// audioSignature is one server's own question and how to read its answer:
// probe returns what the server offers, nil when the answer is not that
// server's. Every question is harmless: a GET that synthesises nothing,
// loads no model and changes no state (each probe says why). Each reads
// its answers defensively (FuzzAudioAnswers), and each must match only
// its own server: TestEveryProbeOnlyItsServer asks every probe of every
// fake in localservertest's table, fakes written from the servers' code.
type audioSignature struct {
	kind  Kind
	probe func(ctx context.Context, c *http.Client, root string) []AudioServer
}

// audioSignatures are in the order a port's name is chosen when several
// match. speaches comes before Kokoro-FastAPI: both answer
// /v1/audio/voices, and only speaches marks its models with a task.
func audioSignatures() []audioSignature {
	return []audioSignature{
		{Speaches, probeSpeaches},
		{Kokoro, probeKokoro},
		{OpenedAISpeech, probeOpenedAI},
		{GPTSoVITS, probeGPTSoVITS},
		{AllTalk, probeAllTalk},
		{Piper, probePiper},
		{WhisperCpp, probeWhisperCpp},
	}
}

// askAudio asks every signature of one port at once; the first in order
// that matched names it.
func askAudio(ctx context.Context, c *http.Client, root string, port int) []AudioServer {
	sigs := audioSignatures()
	hits := make([][]AudioServer, len(sigs))
	var wg sync.WaitGroup
	for i, sg := range sigs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hits[i] = sg.probe(ctx, c, root)
		}()
	}
	wg.Wait()
	for i, h := range hits {
		if h == nil {
			continue
		}
		for j := range h {
			h[j].Kind, h[j].Port = sigs[i].kind, port
		}
		return h
	}
	return nil
}

// json200 is an answer's JSON object when it is a 200; nil otherwise.
func (a answer) json200() map[string]json.RawMessage {
	if a.status != http.StatusOK {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(a.body, &obj) != nil {
		return nil
	}
	return obj
}

// OpenAIVoices are the six voice names of OpenAI's speech API: the only
// ones AllTalk v2's OpenAI endpoint takes (tts_server.py's
// OpenAIInput.validate_voice) and the ones openedai-speech's default voice
// map has (voice_to_speaker.default.yaml). Neither lists them.
var OpenAIVoices = []string{"alloy", "echo", "fable", "nova", "onyx", "shimmer"}

// speachesTasks are speaches' ModelTask values (src/speaches/api_types.py):
// every model its /v1/models lists carries one.
var speachesTasks = []string{"automatic-speech-recognition", "text-to-speech", "speaker-embedding",
	"voice-activity-detection", "speaker-diarization"}

// speachesModel is one entry of speaches' /v1/models: a speech model has
// its sample_rate and voices (executors/kokoro.py, executors/piper.py).
type speachesModel struct {
	ID         string            `json:"id"`
	Task       string            `json:"task"`
	SampleRate int               `json:"sample_rate"`
	Voices     []json.RawMessage `json:"voices"`
}

// probeSpeaches is speaches' GET /v1/models (routers/models.py
// list_local_models), a list of the installed models each with its task:
// one server, speech when a text-to-speech model is installed (its voices
// are that model's), transcription when a recognition model is.
func probeSpeaches(ctx context.Context, c *http.Client, root string) []AudioServer {
	obj := fetch(ctx, c, root+"/v1/models", maxBody).json200()
	var list []speachesModel
	if obj == nil || json.Unmarshal(obj["data"], &list) != nil || len(list) == 0 {
		return nil
	}
	var tts *speachesModel
	var asr []string
	for i, m := range list {
		switch {
		case !slices.Contains(speachesTasks, m.Task):
			return nil // not every entry a speaches model card
		case m.Task == "text-to-speech" && tts == nil:
			tts = &list[i]
		case m.Task == "automatic-speech-recognition":
			asr = append(asr, m.ID)
		}
	}
	var out []AudioServer
	if tts != nil {
		out = append(out, AudioServer{Service: ServiceSpeech, URL: root + "/v1", Engine: EngineOpenAI,
			Model: tts.ID, Offers: names(tts.Voices)})
	}
	if len(asr) > 0 {
		out = append(out, AudioServer{Service: ServiceTranscription, URL: root + "/v1", Engine: EngineOpenAI,
			Model: asr[0], Offers: asr})
	}
	return out
}

// probeKokoro is Kokoro-FastAPI (api/src/routers/openai_compatible.py):
// its /v1/models lists its own model "kokoro" owned_by "kokoro"
// (list_models), and GET /v1/audio/voices is {"voices":[…]}
// (list_voices: {"id","name"} objects since 0.3, names before).
func probeKokoro(ctx context.Context, c *http.Client, root string) []AudioServer {
	var models, voices answer
	var wg sync.WaitGroup
	wg.Go(func() { models = fetch(ctx, c, root+"/v1/models", maxBody) })
	wg.Go(func() { voices = fetch(ctx, c, root+"/v1/audio/voices", maxBody) })
	wg.Wait()
	obj := models.json200()
	var list []listed
	if obj == nil || json.Unmarshal(obj["data"], &list) != nil ||
		!slices.ContainsFunc(list, func(m listed) bool { return m.ID == "kokoro" && m.OwnedBy == "kokoro" }) {
		return nil
	}
	if voices.status != http.StatusOK {
		return nil
	}
	v, ok := ParseVoices(voices.body)
	if !ok {
		return nil
	}
	return []AudioServer{{Service: ServiceSpeech, URL: root + "/v1", Engine: EngineOpenAI, Model: "kokoro", Offers: v}}
}

// ParseVoices reads a voice list, {"voices":[…]}, whose entries are names
// or objects with a name or id; false when body is not such a list. The
// Speech tab's picker and `yui voices` read a configured server's list
// with it too (pet/speech's ServerVoices).
func ParseVoices(body []byte) ([]string, bool) {
	var v struct {
		Voices *[]json.RawMessage `json:"voices"`
	}
	if json.Unmarshal(body, &v) != nil || v.Voices == nil {
		return nil, false
	}
	return names(*v.Voices), true
}

// names reads a list of voice names: strings, or objects with a name or id.
func names(list []json.RawMessage) []string {
	out := []string{}
	for _, raw := range list {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			var o struct {
				Name string `json:"name"`
				ID   string `json:"id"`
			}
			if json.Unmarshal(raw, &o) != nil {
				continue
			}
			s = o.Name
			if s == "" {
				s = o.ID
			}
		}
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// probeOpenedAI is openedai-speech: its /v1/models lists tts-1 (speech.py
// registers tts-1 and tts-1-hd), and the OpenAI stub it runs on answers
// GET /v1/billing/usage with {"total_usage":0} (openedai.py's
// handle_billing_usage), which no other server here has. It lists no
// voices: its default map has OpenAI's six.
func probeOpenedAI(ctx context.Context, c *http.Client, root string) []AudioServer {
	var models, usage answer
	var wg sync.WaitGroup
	wg.Go(func() { models = fetch(ctx, c, root+"/v1/models", maxBody) })
	wg.Go(func() { usage = fetch(ctx, c, root+"/v1/billing/usage", maxBody) })
	wg.Wait()
	obj := models.json200()
	var list []listed
	if obj == nil || json.Unmarshal(obj["data"], &list) != nil ||
		!slices.ContainsFunc(list, func(m listed) bool { return m.ID == "tts-1" }) {
		return nil
	}
	if u := usage.json200(); u == nil || u["total_usage"] == nil {
		return nil
	}
	return []AudioServer{{Service: ServiceSpeech, URL: root + "/v1", Engine: EngineOpenAI, Model: "tts-1",
		Offers: slices.Clone(OpenAIVoices)}}
}

// probeGPTSoVITS is GPT-SoVITS api_v2.py's GET /control with no command:
// 400 {"message":"command is required"}, and nothing done (control
// returns before handle_control). GET /tts is no question to ask: with no
// query it answers 500 (tts_get_endpoint calls .lower() on None).
func probeGPTSoVITS(ctx context.Context, c *http.Client, root string) []AudioServer {
	a := fetch(ctx, c, root+"/control", maxBody)
	if a.status != http.StatusBadRequest {
		return nil
	}
	var v struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(a.body, &v) != nil || v.Message != "command is required" {
		return nil
	}
	return []AudioServer{{Service: ServiceSpeech, URL: root, Engine: EngineGPTSoVITS}}
}

// probeAllTalk is AllTalk's GET /api/ready, "Ready" or "Unloaded" with
// no Content-Type (tts_server.py, v1's ready and v2's
// apifunction_ready). v1 also answers GET /ready with "Ready endpoint";
// v2 has no /ready. Yui speaks through v2's OpenAI endpoint, which takes
// OpenAI's six voice names only; v1 has no such endpoint and is spoken to
// in its own API (the alltalk engine), with its voices' wav files.
func probeAllTalk(ctx context.Context, c *http.Client, root string) []AudioServer {
	var ready, v1 answer
	var wg sync.WaitGroup
	wg.Go(func() { ready = fetch(ctx, c, root+"/api/ready", maxBody) })
	wg.Go(func() { v1 = fetch(ctx, c, root+"/ready", maxBody) })
	wg.Wait()
	if r := string(bytes.TrimSpace(ready.body)); ready.status != http.StatusOK || (r != "Ready" && r != "Unloaded") {
		return nil
	}
	if v1.status == http.StatusOK && string(v1.body) == "Ready endpoint" {
		var offers []string
		if obj := fetch(ctx, c, root+"/api/voices", maxBody).json200(); obj != nil {
			var list []json.RawMessage
			if json.Unmarshal(obj["voices"], &list) == nil {
				offers = names(list)
			}
		}
		return []AudioServer{{Service: ServiceSpeech, Version: "v1", URL: root, Engine: EngineAllTalk, Offers: offers}}
	}
	return []AudioServer{{Service: ServiceSpeech, Version: "v2", URL: root + "/v1", Engine: EngineOpenAI,
		Model: "tts-1", Offers: slices.Clone(OpenAIVoices)}}
}

// Piper's HTTP servers, by the version discovery names (pet/speech's
// PiperHTTP speaks each one's API).
const (
	// PiperFirst is rhasspy/piper's server (src/python_run/piper/
	// http_server.py): "/" only, GET ?text= or POST raw text.
	PiperFirst = "rhasspy"
	// PiperRoot is OHF-Voice/piper1-gpl's before 1.5: GET /voices, POST /
	// with a JSON body.
	PiperRoot = "1.3-1.4"
	// PiperSynthesize is piper1-gpl's since 1.5: GET / is a web page,
	// GET /info, GET /voices, POST /synthesize with a JSON body.
	PiperSynthesize = "1.5+"
)

// probePiper tells Piper's three servers apart (all Flask): since 1.5
// GET /info is {"voice":{"name",…},"last":…}; before 1.5 GET /voices is
// a map of voice name to its config, each with an "audio" block, and
// there is no /info; the first server has neither, and GET / with no
// text raises: Werkzeug's 500 page. None of these synthesises.
func probePiper(ctx context.Context, c *http.Client, root string) []AudioServer {
	var info, voices, index answer
	var wg sync.WaitGroup
	wg.Go(func() { info = fetch(ctx, c, root+"/info", maxBody) })
	wg.Go(func() { voices = fetch(ctx, c, root+"/voices", maxBody) })
	wg.Go(func() { index = fetch(ctx, c, root+"/", maxBody) })
	wg.Wait()
	s := AudioServer{Service: ServiceSpeech, URL: root, Engine: EnginePiper}
	list, haveVoices := []string(nil), false
	if voices.status == http.StatusOK {
		list, haveVoices = parsePiperVoices(voices.body)
	}
	if obj := info.json200(); obj != nil {
		var v struct {
			Name string `json:"name"`
		}
		if _, last := obj["last"]; last && json.Unmarshal(obj["voice"], &v) == nil && v.Name != "" && haveVoices {
			s.Version, s.Offers = PiperSynthesize, list
			return []AudioServer{s}
		}
		return nil
	}
	if haveVoices {
		s.Version, s.Offers = PiperRoot, list
		return []AudioServer{s}
	}
	if index.status == http.StatusInternalServerError && voices.status == http.StatusNotFound &&
		strings.HasPrefix(index.header.Get("Server"), "Werkzeug/") {
		s.Version = PiperFirst
		return []AudioServer{s}
	}
	return nil
}

func parsePiperVoices(body []byte) ([]string, bool) {
	var v map[string]struct {
		Audio *json.RawMessage `json:"audio"`
	}
	if json.Unmarshal(body, &v) != nil || v == nil {
		return nil, false
	}
	out := []string{}
	for name, cfg := range v {
		if cfg.Audio == nil {
			return nil, false // not a voice config: not Piper's list
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out, true
}

// probeWhisperCpp is whisper.cpp's server (examples/server/server.cpp):
// every answer carries Server: whisper.cpp (set_default_headers), and GET
// /health is {"status":"ok"} once its model is loaded (404 while loading:
// its error handler turns a 503 into that). Nothing is transcribed.
func probeWhisperCpp(ctx context.Context, c *http.Client, root string) []AudioServer {
	a := fetch(ctx, c, root+"/health", maxBody)
	if a.status == 0 || a.header.Get("Server") != "whisper.cpp" {
		return nil
	}
	return []AudioServer{{Service: ServiceTranscription, URL: root, Engine: EngineWhisperCpp}}
}
