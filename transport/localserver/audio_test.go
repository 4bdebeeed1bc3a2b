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
	"sync/atomic"
	"testing"

	"yui/transport/localserver/localservertest"
)

// The speech and transcription servers' fakes are localservertest's,
// written from each server's code (each row's Source); the chat servers
// below share their ports.

// llamaCppFake is llama.cpp's llama-server on the same 8080.
func llamaCppFake(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Server", "llama.cpp")
	switch r.URL.Path {
	case "/v1/models":
		io.WriteString(w, list("model.gguf"))
	case "/props":
		io.WriteString(w, `{"default_generation_settings":{},"total_slots":1}`)
	case "/health":
		io.WriteString(w, `{"status":"ok"}`)
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

func serve(t *testing.T, h http.Handler) int {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return port
}

// Every server and version of the table is found alone on its port, named
// with its version, once per service, with the voices it offers.
func TestScanAudio(t *testing.T) {
	for _, row := range localservertest.Servers() {
		t.Run(row.Name, func(t *testing.T) {
			port := serve(t, row.New())
			got := ScanAudio(context.Background(), AudioOptions{Ports: []int{port}})
			var services []string
			for _, s := range got {
				services = append(services, string(s.Service))
				if string(s.Kind) != row.Kind || s.Version != row.Version || s.Port != port {
					t.Errorf("named %q %q on %d, want %q %q on %d", s.Kind, s.Version, s.Port, row.Kind, row.Version, port)
				}
				if s.Service == ServiceSpeech && !slices.Equal(s.Offers, row.Voices) {
					t.Errorf("voices %q, want %q", s.Offers, row.Voices)
				}
			}
			if !slices.Equal(services, row.Services) {
				t.Errorf("found %+v, want the services %v", got, row.Services)
			}
		})
	}
}

// No probe claims another row's server: each probe is asked of every fake,
// so a probe written from the same wrong idea as its own fake, matching
// what other servers answer too, fails here.
func TestEveryProbeOnlyItsServer(t *testing.T) {
	c := Options{}.client()
	for _, row := range localservertest.Servers() {
		srv := httptest.NewServer(row.New())
		for _, sg := range audioSignatures() {
			got := sg.probe(context.Background(), c, srv.URL)
			if mine := string(sg.kind) == row.Kind; mine != (got != nil) {
				t.Errorf("%s's probe on %s: %+v", sg.kind, row.Name, got)
			}
		}
		srv.Close()
	}
}

// Every fake says where it was read: a fake with no source was written
// from an idea of the server.
func TestFakesCiteTheirSource(t *testing.T) {
	kinds := map[string]bool{}
	for _, sg := range audioSignatures() {
		kinds[string(sg.kind)] = true
	}
	for _, row := range localservertest.Servers() {
		if !row.Source.Complete() {
			t.Errorf("%s: no complete source (repository, version, file, function): %+v", row.Name, row.Source)
		}
		if !kinds[row.Kind] {
			t.Errorf("%s: kind %q has no probe", row.Name, row.Kind)
		}
	}
}

// Two servers that share a port are told apart, in one scan of several
// ports at once, and the chat scan of the same ports takes only the chat
// servers.
func TestScanSharedPorts(t *testing.T) {
	ports := []int{serve(t, &localservertest.Speaches{}), serve(t, &localservertest.OpenedAI{}),
		serve(t, &localservertest.WhisperCpp{}), serve(t, http.HandlerFunc(llamaCppFake)),
		serve(t, http.HandlerFunc(vllmFake)), serve(t, &localservertest.Piper{}), serve(t, &localservertest.Kokoro{})}
	audio := ScanAudio(context.Background(), AudioOptions{Ports: ports})
	var kinds []Kind
	for _, s := range audio {
		kinds = append(kinds, s.Kind)
	}
	if want := []Kind{Speaches, Speaches, OpenedAISpeech, WhisperCpp, Piper, Kokoro}; !slices.Equal(kinds, want) {
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
		{AudioServer{Service: ServiceSpeech, Kind: Piper, Version: PiperSynthesize, Offers: []string{"a"}}, "Piper 1.5+ · 1 voices"},
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
	f.Add([]byte(`{"data":[{"id":"k","task":"text-to-speech","sample_rate":24000,"voices":[{"name":"a"}]}]}`))
	f.Add([]byte(`null`))
	// One server answers every probe's question with the input, with
	// each status a probe looks for.
	var body atomic.Pointer[[]byte]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := *body.Load()
		w.Header().Set("Server", "whisper.cpp")
		if len(b) > 0 {
			w.WriteHeader([]int{200, 400, 404, 500}[int(b[0])%4])
		}
		w.Write(b)
	}))
	f.Cleanup(srv.Close)
	c := Options{}.client()
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseVoices(b)
		parsePiperVoices(b)
		var l modelList
		if json.Unmarshal(b, &l) == nil {
			l.audioOnly()
		}
		body.Store(&b)
		for _, sg := range audioSignatures() {
			sg.probe(context.Background(), c, srv.URL)
		}
	})
}
