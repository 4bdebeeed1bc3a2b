package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"yui/transport/localserver/localservertest"
)

// serverFakes: Ollama's /api/tags and /v1/models, and the speech and
// transcription servers' fakes from their code (localservertest).
var serverFakes = map[string]http.Handler{
	"ollama": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, `{"object":"list","data":[{"id":"qwen3:4b","object":"model","owned_by":"library"}]}`)
		case "/api/tags":
			io.WriteString(w, `{"models":[{"name":"qwen3:4b","details":{"family":"qwen3"}}]}`)
		default:
			http.NotFound(w, r)
		}
	}),
	"kokoro":      &localservertest.Kokoro{Voices: []string{"af_bella", "af_sky"}},
	"whisper.cpp": &localservertest.WhisperCpp{},
	"speaches":    &localservertest.Speaches{},
}

func TestServersListsEveryKind(t *testing.T) {
	var ports []string
	urls := map[string]string{}
	for _, name := range []string{"ollama", "kokoro", "whisper.cpp", "speaches"} {
		srv := httptest.NewServer(serverFakes[name])
		t.Cleanup(srv.Close)
		ports = append(ports, strings.TrimPrefix(srv.URL, "http://127.0.0.1:"))
		urls[name] = srv.URL
	}
	var out, errOut bytes.Buffer
	if code := runServers([]string{"--ports", strings.Join(ports, ",")}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want := []string{
		"chat\tOllama\t" + urls["ollama"] + "/v1\tmodels: qwen3:4b",
		"speech\tKokoro-FastAPI\t" + urls["kokoro"] + "/v1\tvoices: af_bella, af_sky",
		"transcription\twhisper.cpp\t" + urls["whisper.cpp"] + "\t-",
		"speech\tspeaches\t" + urls["speaches"] + "/v1\tvoices: af_heart, af_bella, am_adam",
		"transcription\tspeaches\t" + urls["speaches"] + "/v1\tmodels: Systran/faster-distil-whisper-small.en",
	}
	if got := strings.TrimSpace(out.String()); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

func TestServersNoneIsExitZero(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	port := strings.TrimPrefix(closed.URL, "http://127.0.0.1:")
	closed.Close()
	var out, errOut bytes.Buffer
	if code := runServers([]string{"--ports", port}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "# no local servers found") {
		t.Errorf("output %q", out.String())
	}
	if code := runServers([]string{"--ports", "x"}, &out, &errOut); code != 2 {
		t.Errorf("a bad port list: exit %d", code)
	}
}

// yui voices --engine openai --base-url lists a Kokoro server's own
// voices with their languages; a server without a list gives the usual
// names, and exit 0 either way.
func TestVoicesListsAKokoroServersVoices(t *testing.T) {
	srv := httptest.NewServer(serverFakes["kokoro"])
	defer srv.Close()
	var out, errOut bytes.Buffer
	if code := runVoices([]string{"--engine", "openai", "--base-url", srv.URL + "/v1"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if want := "af_bella\ten-US\tBella\naf_sky\ten-US\tSky\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	out.Reset()
	if code := runVoices([]string{"--engine", "openai", "--base-url", other.URL + "/v1"}, &out, &errOut); code != 0 ||
		!strings.HasPrefix(out.String(), "alloy\t") {
		t.Errorf("a server with no list: exit %d, printed %q", code, out.String())
	}
}
