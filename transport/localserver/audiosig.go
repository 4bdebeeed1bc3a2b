package localserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// audioSignature is one server's own endpoint and how to read it: probe
// returns what the server offers, nil when the answer is not that
// server's. Each reads its answers defensively (FuzzAudioSignatures).
type audioSignature struct {
	kind  Kind
	probe func(ctx context.Context, c *http.Client, root string) []AudioServer
}

// audioSignatures are in the order a port's name is chosen when several
// match; each asks paths no other server here answers the same way.
func audioSignatures() []audioSignature {
	return []audioSignature{
		{Kokoro, probeKokoro},
		{GPTSoVITS, probeGPTSoVITS},
		{AllTalk, probeAllTalk},
		{Piper, probePiper},
		{Speaches, probeSpeaches},
		{OpenedAISpeech, probeOpenedAI},
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

// probeKokoro is Kokoro-FastAPI's GET /v1/audio/voices:
// {"voices":["af_bella","af_sky",…]} (its README, "Voices").
func probeKokoro(ctx context.Context, c *http.Client, root string) []AudioServer {
	body, ok := get(ctx, c, root+"/v1/audio/voices")
	if !ok {
		return nil
	}
	voices, ok := ParseVoices(body)
	if !ok {
		return nil
	}
	return []AudioServer{{Service: ServiceSpeech, URL: root + "/v1", Engine: EngineOpenAI, Model: "kokoro", Offers: voices}}
}

// ParseVoices reads Kokoro-FastAPI's voice list, {"voices":[…]}, whose
// entries are names or objects with a name or id; false when body is not
// such a list. The Speech tab's picker and `yui voices` read a configured
// server's list with it too (pet/speech's ServerVoices).
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

// probeGPTSoVITS is GPT-SoVITS api_v2.py's GET /tts with no parameters:
// its check_params answers 400 {"message":"ref_audio_path is required"}
// (api_v2.py's own doc string).
func probeGPTSoVITS(ctx context.Context, c *http.Client, root string) []AudioServer {
	status, body, ok := do(ctx, c, http.MethodGet, root+"/tts", "", nil)
	if !ok || status != http.StatusBadRequest {
		return nil
	}
	var v struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &v) != nil || !strings.Contains(v.Message, "is required") {
		return nil
	}
	return []AudioServer{{Service: ServiceSpeech, URL: root, Engine: EngineGPTSoVITS}}
}

// probeAllTalk is AllTalk's GET /api/ready ("Ready") and GET /api/voices
// {"status":"success","voices":[…]} (AllTalk's API documentation); its
// OpenAI-compatible endpoint is /v1/audio/speech.
func probeAllTalk(ctx context.Context, c *http.Client, root string) []AudioServer {
	body, ok := get(ctx, c, root+"/api/ready")
	if !ok || strings.TrimSpace(strings.Trim(string(body), `"`)) != "Ready" {
		return nil
	}
	s := AudioServer{Service: ServiceSpeech, URL: root + "/v1", Engine: EngineOpenAI, Model: "tts-1"}
	if body, ok := get(ctx, c, root+"/api/voices"); ok {
		var v struct {
			Voices []json.RawMessage `json:"voices"`
		}
		if json.Unmarshal(body, &v) == nil {
			s.Offers = names(v.Voices)
		}
	}
	return []AudioServer{s}
}

// probePiper is Piper's HTTP server (python -m piper.http_server): GET
// /voices is an object of voice name to that voice's config, each with
// its "audio" block (Piper's HTTP API documentation).
func probePiper(ctx context.Context, c *http.Client, root string) []AudioServer {
	body, ok := get(ctx, c, root+"/voices")
	if !ok {
		return nil
	}
	voices, ok := parsePiperVoices(body)
	if !ok {
		return nil
	}
	return []AudioServer{{Service: ServiceSpeech, URL: root, Engine: EnginePiper, Offers: voices}}
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

// probeSpeaches is speaches' GET /v1/models, whose entries carry a
// "task" ("text-to-speech", "automatic-speech-recognition"; speaches'
// API reference): one server, both services.
func probeSpeaches(ctx context.Context, c *http.Client, root string) []AudioServer {
	list, ok := getModels(ctx, c, root+"/v1/models")
	if !ok {
		return nil
	}
	var tts, asr []string
	for _, m := range list.Data {
		switch strings.ToLower(m.Task) {
		case "text-to-speech":
			tts = append(tts, m.ID)
		case "automatic-speech-recognition":
			asr = append(asr, m.ID)
		}
	}
	var out []AudioServer
	if len(tts) > 0 {
		out = append(out, AudioServer{Service: ServiceSpeech, URL: root + "/v1", Engine: EngineOpenAI, Model: tts[0]})
	}
	if len(asr) > 0 {
		out = append(out, AudioServer{Service: ServiceTranscription, URL: root + "/v1", Engine: EngineOpenAI, Model: asr[0], Offers: asr})
	}
	return out
}

// probeOpenedAI is openedai-speech: its /v1/models lists tts-1 and
// tts-1-hd, and like every openedai server it answers GET
// /v1/billing/usage with {"total_usage":0} (openedai-speech's README).
func probeOpenedAI(ctx context.Context, c *http.Client, root string) []AudioServer {
	list, ok := getModels(ctx, c, root+"/v1/models")
	if !ok || !slices.ContainsFunc(list.Data, func(m listed) bool { return m.ID == "tts-1" }) {
		return nil
	}
	body, ok := get(ctx, c, root+"/v1/billing/usage")
	if !ok || !hasKey(body, "total_usage") {
		return nil
	}
	return []AudioServer{{Service: ServiceSpeech, URL: root + "/v1", Engine: EngineOpenAI, Model: "tts-1"}}
}

// probeWhisperCpp is whisper.cpp's server: POST /inference without a file
// answers {"error":"no 'file' field in the request"} (examples/server in
// whisper.cpp). Nothing is transcribed.
func probeWhisperCpp(ctx context.Context, c *http.Client, root string) []AudioServer {
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("response_format", "json")
	mw.Close()
	_, body, ok := do(ctx, c, http.MethodPost, root+"/inference", mw.FormDataContentType(), form.Bytes())
	if !ok {
		return nil
	}
	var v struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil || !strings.Contains(v.Error, "file") {
		return nil
	}
	return []AudioServer{{Service: ServiceTranscription, URL: root, Engine: EngineWhisperCpp}}
}

// do is one request whose status and body (any status) come back; false
// when nothing answered.
func do(ctx context.Context, c *http.Client, method, url, ctype string, body []byte) (int, []byte, bool) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, false
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, false
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return 0, nil, false
	}
	return resp.StatusCode, b, true
}
