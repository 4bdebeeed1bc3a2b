package localserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"
)

// Fakes of the servers, each shaped from its own API documentation; each
// answers 404 to every other path, as the real ones do.

// kokoroFake is Kokoro-FastAPI (README "OpenAI-compatible Speech
// Endpoint" and GET /v1/audio/voices; its /v1/models lists tts-1 and
// kokoro).
func kokoroFake(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/audio/voices":
		io.WriteString(w, `{"voices":["af_bella","af_sky","am_adam"]}`)
	case "/v1/models":
		io.WriteString(w, `{"object":"list","data":[{"id":"tts-1","object":"model","owned_by":"kokoro"},{"id":"kokoro","object":"model","owned_by":"kokoro"}]}`)
	default:
		http.NotFound(w, r)
	}
}

// gptSoVITSFake is GPT-SoVITS api_v2.py: /tts checks its parameters
// first and answers 400 {"message":…} without them.
func gptSoVITSFake(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/tts" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	io.WriteString(w, `{"message":"ref_audio_path is required"}`)
}

// piperFake is piper's http_server: GET /voices is name → voice config.
func piperFake(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/voices" {
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, `{"en_US-lessac-medium":{"audio":{"sample_rate":22050},"espeak":{"voice":"en-us"},"num_speakers":1},"de_DE-thorsten-low":{"audio":{"sample_rate":16000}}}`)
}

// allTalkFake is AllTalk's /api/ready and /api/voices.
func allTalkFake(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api/ready":
		io.WriteString(w, "Ready")
	case "/api/voices":
		io.WriteString(w, `{"status":"success","voices":["female_01.wav","male_01.wav"]}`)
	default:
		http.NotFound(w, r)
	}
}

// speachesFake is speaches: /v1/models entries with their task.
func speachesFake(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/models" {
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, `{"object":"list","data":[
		{"id":"speaches-ai/Kokoro-82M-v1.0-ONNX","object":"model","owned_by":"speaches-ai","task":"text-to-speech"},
		{"id":"Systran/faster-whisper-small","object":"model","owned_by":"Systran","task":"automatic-speech-recognition"}]}`)
}

// openedAIFake is openedai-speech: tts-1 and tts-1-hd, and the openedai
// stub's billing endpoint.
func openedAIFake(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/models":
		io.WriteString(w, `{"object":"list","data":[{"id":"tts-1","object":"model","owned_by":"openedai"},{"id":"tts-1-hd","object":"model","owned_by":"openedai"}]}`)
	case "/v1/billing/usage":
		io.WriteString(w, `{"total_usage":0}`)
	default:
		http.NotFound(w, r)
	}
}

// whisperCppFake is whisper.cpp's examples/server: POST /inference with
// a multipart "file"; without one, a 200 with an error object.
func whisperCppFake(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/inference" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if _, _, err := r.FormFile("file"); err != nil {
		io.WriteString(w, `{"error":"no 'file' field in the request"}`)
		return
	}
	io.WriteString(w, `{"text":" hello there\n"}`)
}

// llamaCppFake is llama.cpp's llama-server on the same 8080.
func llamaCppFake(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/models":
		io.WriteString(w, list("model.gguf"))
	case "/props":
		io.WriteString(w, `{"default_generation_settings":{},"total_slots":1}`)
	default:
		http.NotFound(w, r)
	}
}

// vllmFake is vLLM on the same 8000.
func vllmFake(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/models" {
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, `{"object":"list","data":[{"id":"Qwen/Qwen3-4B","owned_by":"vllm"}]}`)
}

func serve(t *testing.T, h http.HandlerFunc) int {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return port
}

// Every server is found on its port and named by what it answers; ports
// with a chat server or nothing at all are left out.
func TestScanAudio(t *testing.T) {
	type want struct {
		service Service
		kind    Kind
		engine  Engine
		path    string
		model   string
		offers  []string
	}
	cases := []struct {
		name string
		h    http.HandlerFunc
		want []want
	}{
		{"kokoro", kokoroFake, []want{{ServiceSpeech, Kokoro, EngineOpenAI, "/v1", "kokoro", []string{"af_bella", "af_sky", "am_adam"}}}},
		{"gpt-sovits", gptSoVITSFake, []want{{ServiceSpeech, GPTSoVITS, EngineGPTSoVITS, "", "", nil}}},
		{"piper", piperFake, []want{{ServiceSpeech, Piper, EnginePiper, "", "", []string{"de_DE-thorsten-low", "en_US-lessac-medium"}}}},
		{"alltalk", allTalkFake, []want{{ServiceSpeech, AllTalk, EngineOpenAI, "/v1", "tts-1", []string{"female_01.wav", "male_01.wav"}}}},
		{"speaches on 8000", speachesFake, []want{
			{ServiceSpeech, Speaches, EngineOpenAI, "/v1", "speaches-ai/Kokoro-82M-v1.0-ONNX", nil},
			{ServiceTranscription, Speaches, EngineOpenAI, "/v1", "Systran/faster-whisper-small", []string{"Systran/faster-whisper-small"}}}},
		{"openedai-speech on 8000", openedAIFake, []want{{ServiceSpeech, OpenedAISpeech, EngineOpenAI, "/v1", "tts-1", nil}}},
		{"whisper.cpp on 8080", whisperCppFake, []want{{ServiceTranscription, WhisperCpp, EngineWhisperCpp, "", "", nil}}},
		{"llama.cpp on 8080", llamaCppFake, nil},
		{"vllm on 8000", vllmFake, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			port := serve(t, c.h)
			got := ScanAudio(context.Background(), AudioOptions{Ports: []int{port}})
			if len(got) != len(c.want) {
				t.Fatalf("found %+v, want %d", got, len(c.want))
			}
			root := "http://127.0.0.1:" + strconv.Itoa(port)
			for i, w := range c.want {
				g := got[i]
				if g.Service != w.service || g.Kind != w.kind || g.Engine != w.engine || g.URL != root+w.path ||
					g.Model != w.model || g.Port != port || !slices.Equal(g.Offers, w.offers) {
					t.Errorf("got %+v, want %+v", g, w)
				}
			}
		})
	}
}

// Two servers that share a port are told apart, in one scan of several
// ports at once, and the chat scan of the same ports takes only the chat
// servers.
func TestScanSharedPorts(t *testing.T) {
	ports := []int{serve(t, speachesFake), serve(t, openedAIFake), serve(t, whisperCppFake),
		serve(t, llamaCppFake), serve(t, vllmFake), serve(t, piperFake)}
	audio := ScanAudio(context.Background(), AudioOptions{Ports: ports})
	var kinds []Kind
	for _, s := range audio {
		kinds = append(kinds, s.Kind)
	}
	if want := []Kind{Speaches, Speaches, OpenedAISpeech, WhisperCpp, Piper}; !slices.Equal(kinds, want) {
		t.Errorf("audio kinds %v, want %v", kinds, want)
	}
	var chatPorts []Port
	for _, p := range ports {
		chatPorts = append(chatPorts, Port{Port: p, Kind: VLLM})
	}
	chat := Scan(context.Background(), Options{Ports: chatPorts})
	kinds = nil
	for _, s := range chat {
		kinds = append(kinds, s.Kind)
	}
	if want := []Kind{LlamaCpp, VLLM}; !slices.Equal(kinds, want) {
		t.Errorf("chat kinds %v, want %v (a speech server taken for a chat server?)", kinds, want)
	}
}

func TestScanAudioLoopbackOnly(t *testing.T) {
	if got := ScanAudio(context.Background(), AudioOptions{Host: "192.0.2.1", Ports: []int{80}}); got != nil {
		t.Errorf("scanned another machine: %v", got)
	}
	if got := ScanAudio(context.Background(), AudioOptions{Ports: []int{}}); len(got) != 0 {
		t.Errorf("no ports found %v", got)
	}
}

func TestAudioLabel(t *testing.T) {
	for _, c := range []struct {
		s    AudioServer
		want string
	}{
		{AudioServer{Service: ServiceSpeech, Kind: Kokoro, Offers: []string{"a", "b"}}, "Kokoro-FastAPI · 2 voices"},
		{AudioServer{Service: ServiceTranscription, Kind: Speaches, Offers: []string{"w"}}, "speaches · 1 models"},
		{AudioServer{Service: ServiceSpeech, Kind: GPTSoVITS}, "GPT-SoVITS"},
	} {
		if got := c.s.Label(); got != c.want {
			t.Errorf("label %q, want %q", got, c.want)
		}
	}
}

// The answers are read defensively: garbage is no match, never a panic.
func FuzzAudioAnswers(f *testing.F) {
	f.Add([]byte(`{"voices":["af_bella",{"name":"x"},{"id":"y"},3]}`))
	f.Add([]byte(`{"en":{"audio":{}},"x":{}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseVoices(b)
		parsePiperVoices(b)
		var l modelList
		if json.Unmarshal(b, &l) == nil {
			l.audioOnly()
		}
	})
}
