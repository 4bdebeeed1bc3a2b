package voice

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"yui/transport/localserver/localservertest"
)

// whisper.cpp's server (localservertest.WhisperCpp, from its
// server.cpp) takes the utterance and the fields Yui sends; what it
// cannot read is its error handler's bare 400, said with why.
func TestWhisperCppTranscribes(t *testing.T) {
	fake := &localservertest.WhisperCpp{Text: "And so my fellow Americans"}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	wav := EncodeWAV([]int16{1, 2, 3}, Mono16k)
	w := &WhisperCpp{BaseURL: srv.URL + "/", Language: "en"}
	text, err := w.Transcribe(context.Background(), wav)
	if err != nil || text != "And so my fellow Americans" {
		t.Fatalf("Transcribe = %q, %v", text, err)
	}
	got := fake.Requests.All()[0]
	if got["file_bytes"] != strconv.Itoa(len(wav)) || got["response_format"] != "json" || got["language"] != "en" {
		t.Errorf("request %v", got)
	}
	if _, err := w.Transcribe(context.Background(), []byte("not a wav")); err == nil ||
		!strings.Contains(err.Error(), "whisper.cpp: 400 Bad Request: Invalid request (") {
		t.Errorf("server error: %v", err)
	}
	fake.Fail = true
	if _, err := w.Transcribe(context.Background(), wav); err == nil ||
		err.Error() != "whisper.cpp: 500 Internal Server Error: failed to process audio" {
		t.Errorf("model error: %v", err)
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
