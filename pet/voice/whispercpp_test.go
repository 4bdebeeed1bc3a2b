package voice

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// whisperCppFake is whisper.cpp's examples/server POST /inference: a
// multipart "file" and the fields response_format, language,
// temperature; {"text":…} back, or {"error":…} (status 200) without a
// file; 404 elsewhere.
func whisperCppFake(t *testing.T, got map[string]string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/inference" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		f, _, err := r.FormFile("file")
		if err != nil {
			io.WriteString(w, `{"error":"no 'file' field in the request"}`)
			return
		}
		b, _ := io.ReadAll(f)
		got["file"] = string(b)
		for _, k := range []string{"response_format", "language"} {
			got[k] = r.FormValue(k)
		}
		if string(b) == "not a wav" {
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":"failed to read WAV file"}`)
			return
		}
		io.WriteString(w, `{"text":" And so my fellow Americans\n"}`)
	}))
}

func TestWhisperCppTranscribes(t *testing.T) {
	got := map[string]string{}
	srv := whisperCppFake(t, got)
	defer srv.Close()
	wav := EncodeWAV([]int16{1, 2, 3}, Mono16k)
	w := &WhisperCpp{BaseURL: srv.URL + "/", Language: "en"}
	text, err := w.Transcribe(context.Background(), wav)
	if err != nil || text != "And so my fellow Americans" {
		t.Fatalf("Transcribe = %q, %v", text, err)
	}
	if got["file"] != string(wav) || got["response_format"] != "json" || got["language"] != "en" {
		t.Errorf("request %v", got)
	}
	if _, err := w.Transcribe(context.Background(), []byte("not a wav")); err == nil ||
		!strings.Contains(err.Error(), "500") || !strings.Contains(err.Error(), "failed to read WAV file") {
		t.Errorf("server error: %v", err)
	}
}

func TestWhisperCppAnswers(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		text   string
		err    string
	}{
		{200, `{"text":"hi"}`, "hi", ""},
		{200, `{"error":"no 'file' field in the request"}`, "", "no 'file' field"},
		{404, `File Not Found`, "", "404"},
		{200, `<html>`, "", "no text in the response"},
		{200, `{"text":null}`, "", "no text"},
	} {
		text, err := parseWhisperCpp(c.status, []byte(c.body))
		if text != c.text || (c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%d %s: %q, %v", c.status, c.body, text, err)
		}
	}
	if _, err := (&WhisperCpp{BaseURL: "ftp://x"}).Transcribe(context.Background(), nil); err == nil {
		t.Error("a bad base URL was taken")
	}
}

func FuzzWhisperCppAnswer(f *testing.F) {
	f.Add(200, []byte(`{"text":"hi"}`))
	f.Add(500, []byte(`{"error":{"message":"x"}}`))
	f.Fuzz(func(t *testing.T, status int, b []byte) {
		parseWhisperCpp(status, b)
	})
}
