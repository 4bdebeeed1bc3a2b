package speech

import (
	"bytes"
	"io"
	"testing"
)

func TestContentTypeRate(t *testing.T) {
	for ctype, want := range map[string]int{
		"audio/pcm;rate=22050":           22050, // openedai-speech's speech.py
		"audio/pcm; rate=24000; bits=16": 24000,
		"audio/pcm":                      0,
		"audio/pcm;rate=0":               0,
		"audio/pcm;rate=999999999":       0,
		"audio/pcm;rate=abc":             0,
		"":                               0,
		";;;":                            0,
	} {
		if got, ok := ContentTypeRate(ctype); got != want || ok != (want > 0) {
			t.Errorf("ContentTypeRate(%q) = %d, %v; want %d", ctype, got, ok, want)
		}
	}
}

func TestModelRate(t *testing.T) {
	for body, want := range map[string]int{
		`{"id":"speaches-ai/piper-en_US-amy-medium","task":"text-to-speech","sample_rate":22050}`: 22050,
		`{"id":"tts-1","object":"model"}`: 0,
		`{"sample_rate":"22050"}`:         22050, // a number in a string is still the number
		`{"sample_rate":1.5}`:             0,
		`[]`:                              0,
	} {
		if got, ok := ModelRate([]byte(body)); got != want || ok != (want > 0) {
			t.Errorf("ModelRate(%s) = %d, %v; want %d", body, got, ok, want)
		}
	}
}

// What servers send about their audio and their errors is read
// defensively: garbage is no rate and no message, never a panic.
func FuzzServerAnswers(f *testing.F) {
	f.Add("audio/pcm;rate=22050", []byte(`{"sample_rate":22050}`))
	f.Add("text/html; charset=utf-8", []byte("<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>\n<h1>Internal Server Error</h1>"))
	f.Add("", []byte(`{"detail":{"error":"validation_error","message":"Voice 'x' not found"}}`))
	f.Add("audio/wav", []byte("RIFF\x00\x00\x00\x00WAVEfmt "))
	f.Fuzz(func(t *testing.T, ctype string, body []byte) {
		if r, ok := ContentTypeRate(ctype); ok && (r < minPCMRate || r > maxPCMRate) {
			t.Fatalf("rate %d from %q", r, ctype)
		}
		if r, ok := ModelRate(body); ok && (r < minPCMRate || r > maxPCMRate) {
			t.Fatalf("rate %d from %q", r, body)
		}
		serverMessage(body)
		htmlHeading(body)
		rc, _, err := wavOnly(io.NopCloser(bytes.NewReader(body)), "POST /synthesize")
		if err == nil {
			if !bytes.HasPrefix(body, []byte("RIFF")) {
				t.Fatalf("%q taken for a WAV", body)
			}
			rc.Close()
		}
	})
}
