package localservertest

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
)

// The versions discovery names Piper's three HTTP servers by.
const (
	PiperFirstVersion = "rhasspy" // rhasspy/piper: GET /?text=, POST / raw text
	PiperRootVersion  = "1.3-1.4" // piper1-gpl before 1.5: POST / JSON
	PiperVersion      = "1.5+"    // piper1-gpl since 1.5: POST /synthesize JSON
)

var (
	piperFirstSource = Source{Repo: "rhasspy/piper", Version: "73c04d8 (master, 2025-08)",
		File: "src/python_run/piper/http_server.py", Func: "main: app_synthesize"}
	piperRootSource = Source{Repo: "OHF-Voice/piper1-gpl", Version: "v1.4.2",
		File: "src/piper/http_server.py", Func: "main: app_voices, app_synthesize (POST /)"}
	piperSource = Source{Repo: "OHF-Voice/piper1-gpl", Version: "v1.7.0-1-gb275826",
		File: "src/piper/http_server.py", Func: "main: app_index, app_info, app_voices, app_synthesize (POST /synthesize)"}
)

// piperVoices are the voice configs a data directory holds, as GET /voices
// lists them (name → the model's .onnx.json).
var piperVoices = map[string]string{
	"en_US-lessac-medium": `{"audio":{"sample_rate":22050,"quality":"medium"},"espeak":{"voice":"en-us"},"num_speakers":1,"speaker_id_map":{}}`,
	"en_GB-alan-low":      `{"audio":{"sample_rate":16000,"quality":"low"},"espeak":{"voice":"en-gb"},"num_speakers":1,"speaker_id_map":{}}`,
}

func piperVoiceNames() []string {
	var out []string
	for k := range piperVoices {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// piperWAV is what every Piper server sends: the whole sentence as a WAV
// written by Python's wave module at the voice's rate, returned from a
// Flask view as bytes, so its Content-Type is Flask's default, text/html.
func piperWAV(w http.ResponseWriter, rate int) {
	w.Header().Set("Server", werkzeugServer)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(WAVHeader(rate, uint32(2*rate)))
	w.Write(Tone(rate, rate))
}

// PiperFirst is the first Piper HTTP server (piperFirstSource): one route,
// "/", GET ?text= or POST with the raw text as body, the voice and its
// settings fixed on the command line. No text raises ValueError: 500.
type PiperFirst struct {
	Requests Requests // each sentence, as "text"
}

func (p *PiperFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		werkzeugError(w, http.StatusNotFound)
		return
	}
	var text string
	switch r.Method {
	case http.MethodPost:
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		text = string(b)
	case http.MethodGet, http.MethodHead:
		text = r.URL.Query().Get("text")
	default:
		werkzeugError(w, http.StatusMethodNotAllowed)
		return
	}
	if text = strings.TrimSpace(text); text == "" {
		werkzeugError(w, http.StatusInternalServerError)
		return
	}
	p.Requests.add(map[string]string{"text": text})
	piperWAV(w, 22050)
}

// piperJSON reads a synthesis body as app_synthesize does: json.loads of
// the body (any Content-Type), "text" stripped; "" and false when it
// raises.
func piperJSON(r *http.Request) (map[string]any, string, bool) {
	var data map[string]any
	if json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&data) != nil {
		return nil, "", false
	}
	text, _ := data["text"].(string)
	return data, strings.TrimSpace(text), true
}

// piperServe is app_voices and app_synthesize, shared by the two
// piper1-gpl servers: the voice asked for, or the default when it is not
// in the data directories; its rate is that voice's.
func piperSynthesize(w http.ResponseWriter, r *http.Request, q *Requests) {
	data, text, ok := piperJSON(r)
	if !ok || text == "" {
		werkzeugError(w, http.StatusInternalServerError)
		return
	}
	req := map[string]string{}
	for k, v := range data {
		b, _ := json.Marshal(v)
		req[k] = strings.Trim(string(b), `"`)
	}
	q.add(req)
	rate := 22050 // the default voice, en_US-lessac-medium
	if v, _ := data["voice"].(string); v != "" {
		if cfg, ok := piperVoices[v]; ok {
			var c struct {
				Audio struct {
					SampleRate int `json:"sample_rate"`
				} `json:"audio"`
			}
			json.Unmarshal([]byte(cfg), &c)
			rate = c.Audio.SampleRate
		}
	}
	piperWAV(w, rate)
}

func piperVoicesAnswer(w http.ResponseWriter) {
	var parts []string
	for _, name := range piperVoiceNames() {
		parts = append(parts, jsonString(name)+":"+piperVoices[name])
	}
	w.Header().Set("Server", werkzeugServer)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, "{"+strings.Join(parts, ",")+"}\n")
}

// PiperRoot is piper1-gpl's server before 1.5 (piperRootSource): GET
// /voices, POST / with a JSON body {"text","voice","length_scale",…}; "/"
// takes no GET (405).
type PiperRoot struct {
	Requests Requests
}

func (p *PiperRoot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/voices" && r.Method == http.MethodGet:
		piperVoicesAnswer(w)
	case r.URL.Path == "/" && r.Method == http.MethodPost:
		piperSynthesize(w, r, &p.Requests)
	case r.URL.Path == "/" || r.URL.Path == "/voices":
		werkzeugError(w, http.StatusMethodNotAllowed)
	default:
		werkzeugError(w, http.StatusNotFound)
	}
}

// Piper is piper1-gpl's server since 1.5 (piperSource): GET / is a web
// page (whatever its query), GET /info the default voice, GET /voices,
// POST /synthesize with the JSON body; the WAV comes as text/html.
type Piper struct {
	Requests Requests
}

func (p *Piper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodGet:
		w.Header().Set("Server", werkzeugServer)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!DOCTYPE html>\n<html>\n<head><title>Piper</title></head>\n<body><h1>Piper</h1><textarea id=\"text\"></textarea></body>\n</html>\n")
	case r.URL.Path == "/info" && r.Method == http.MethodGet:
		w.Header().Set("Server", werkzeugServer)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"last":null,"voice":{"language":"en-us","name":"en_US-lessac-medium","num_speakers":1}}`+"\n")
	case r.URL.Path == "/voices" && r.Method == http.MethodGet:
		piperVoicesAnswer(w)
	case r.URL.Path == "/synthesize" && r.Method == http.MethodPost:
		piperSynthesize(w, r, &p.Requests)
	case slices.Contains([]string{"/", "/info", "/voices", "/synthesize", "/download", "/all-voices"}, r.URL.Path):
		werkzeugError(w, http.StatusMethodNotAllowed)
	default:
		werkzeugError(w, http.StatusNotFound)
	}
}
