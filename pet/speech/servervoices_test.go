package speech

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// kokoroVoices is Kokoro-FastAPI's GET /v1/audio/voices (its README,
// "Voices"); every other path is a 404, as OpenAI's API answers it.
func kokoroVoices(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/audio/voices" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, `{"voices":["af_bella","jf_alpha","zm_yunxi","bm_george","af_bella+af_sky","custom"]}`)
}

func TestServerVoicesReadsKokorosList(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(kokoroVoices))
	defer srv.Close()
	vs, err := ServerVoices(context.Background(), srv.Client(), srv.URL+"/v1/")
	if err != nil {
		t.Fatal(err)
	}
	want := []Voice{
		{ID: "af_bella", Language: "en-US", Name: "Bella"},
		{ID: "jf_alpha", Language: "ja", Name: "Alpha"},
		{ID: "zm_yunxi", Language: "zh", Name: "Yunxi"},
		{ID: "bm_george", Language: "en-GB", Name: "George"},
		{ID: "af_bella+af_sky", Name: "af_bella+af_sky"},
		{ID: "custom", Name: "custom"},
	}
	if !slices.Equal(vs, want) {
		t.Errorf("voices\n%v\nwant\n%v", vs, want)
	}
}

// A server with no voice list (OpenAI, openedai-speech), one that answers
// something else, and a bad URL are errors; VoicesAt then offers the
// usual names.
func TestServerVoicesErrors(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"404":      http.NotFound,
		"not json": func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<html>") },
		"no list":  func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"data":[]}`) },
		"500": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(500)
			io.WriteString(w, `{"voices":["a"]}`)
		},
	} {
		srv := httptest.NewServer(h)
		if _, err := ServerVoices(context.Background(), srv.Client(), srv.URL+"/v1"); err == nil {
			t.Errorf("%s: no error", name)
		}
		vs, fromServer, err := VoicesAt(context.Background(), EngineOpenAI, srv.URL+"/v1")
		if err != nil || fromServer || len(vs) != len(openAIVoices) {
			t.Errorf("%s: VoicesAt = %d voices, from server %v, %v; want the usual names", name, len(vs), fromServer, err)
		}
		srv.Close()
	}
	if _, err := ServerVoices(context.Background(), nil, "ftp://x"); err == nil {
		t.Error("ftp URL: no error")
	}
}

func TestVoicesAtAsksTheServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(kokoroVoices))
	defer srv.Close()
	vs, fromServer, err := VoicesAt(context.Background(), EngineOpenAI, srv.URL+"/v1")
	if err != nil || !fromServer || len(vs) != 6 {
		t.Fatalf("VoicesAt = %v, %v, %v", vs, fromServer, err)
	}
	// Another engine never asks.
	if _, fromServer, _ := VoicesAt(context.Background(), EngineNone, srv.URL+"/v1"); fromServer {
		t.Error("the none engine asked the server")
	}
}
