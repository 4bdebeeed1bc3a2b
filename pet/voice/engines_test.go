package voice

import (
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestOpenAIMultipartShape(t *testing.T) {
	wav := EncodeWAV([]int16{1, 2, 3}, Mono16k)
	var got struct {
		path, auth, filename, fileType string
		fields                         map[string]string
		file                           []byte
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path, got.auth = r.URL.Path, r.Header.Get("Authorization")
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/form-data" {
			t.Errorf("content type %q", r.Header.Get("Content-Type"))
		}
		got.fields = map[string]string{}
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			b, _ := io.ReadAll(p)
			if p.FormName() == "file" {
				got.filename, got.fileType, got.file = p.FileName(), p.Header.Get("Content-Type"), b
			} else {
				got.fields[p.FormName()] = string(b)
			}
		}
		w.Write([]byte(`{"text":"  turn on the lights  "}`))
	}))
	defer srv.Close()
	o := &OpenAI{BaseURL: srv.URL + "/v1/", Key: "sk-test", Model: "whisper-large", Language: "en"}
	text, err := o.Transcribe(context.Background(), wav)
	if err != nil || text != "turn on the lights" {
		t.Fatalf("Transcribe = %q, %v", text, err)
	}
	if got.path != "/v1/audio/transcriptions" || got.auth != "Bearer sk-test" {
		t.Fatalf("path %q auth %q", got.path, got.auth)
	}
	if got.filename != "utterance.wav" || got.fileType != "audio/wav" || string(got.file) != string(wav) {
		t.Fatalf("file part %q %q %d bytes", got.filename, got.fileType, len(got.file))
	}
	want := map[string]string{"model": "whisper-large", "language": "en", "response_format": "json"}
	for k, v := range want {
		if got.fields[k] != v {
			t.Errorf("field %s = %q, want %q", k, got.fields[k], v)
		}
	}
	// No language set: none sent; no model: the default.
	o.Language, o.Model, o.Key = "", "", ""
	if _, err := o.Transcribe(context.Background(), wav); err != nil {
		t.Fatal(err)
	}
	if _, ok := got.fields["language"]; ok || got.fields["model"] != DefaultOpenAIModel || got.auth != "" {
		t.Fatalf("defaults: %v auth %q", got.fields, got.auth)
	}
}

func TestOpenAIErrorText(t *testing.T) {
	tests := []struct {
		status int
		body   string
		want   string
	}{
		{400, `{"error":{"message":"Audio file is too short","type":"invalid_request_error"}}`, "transcription server: 400 Bad Request: Audio file is too short"},
		{500, `model not loaded`, "transcription server: 500 Internal Server Error: model not loaded"},
		{200, `{"segments":[]}`, "transcription server: no text in the response: {\"segments\":[]}"},
	}
	for _, tt := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(tt.status)
			w.Write([]byte(tt.body))
		}))
		_, err := (&OpenAI{BaseURL: srv.URL}).Transcribe(context.Background(), EncodeWAV(nil, Mono16k))
		srv.Close()
		if err == nil || err.Error() != tt.want {
			t.Errorf("%d: err = %v, want %q", tt.status, err, tt.want)
		}
		if err != nil && FailureText(err) != "transcription failed: "+tt.want {
			t.Errorf("pill text %q", FailureText(err))
		}
	}
	_, err := (&OpenAI{BaseURL: "http://127.0.0.1:1"}).Transcribe(context.Background(), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "transcription server unreachable: ") {
		t.Fatalf("unreachable: %v", err)
	}
}

func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stt.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCommandEngine(t *testing.T) {
	wav := EncodeWAV([]int16{5, 6, 7, 8}, Mono16k)
	// The WAV path comes last; output lines join; the file is the utterance.
	s := script(t, `[ "$1" = "-m" ] && [ "$2" = "two words" ] || { echo "bad args: $*" >&2; exit 3; }
[ "$(wc -c < "$3")" = "`+strconv.Itoa(len(wav))+`" ] || { echo "bad wav" >&2; exit 4; }
printf '  hello\n  there  \n'
`)
	c, err := NewCommand(s + ` -m "two words"`)
	if err != nil {
		t.Fatal(err)
	}
	text, err := c.Transcribe(context.Background(), wav)
	if err != nil || text != "hello there" {
		t.Fatalf("Transcribe = %q, %v", text, err)
	}

	fail, _ := NewCommand(script(t, "echo starting >&2\necho 'model file missing' >&2\nexit 2\n"))
	_, err = fail.Transcribe(context.Background(), wav)
	if err == nil || !strings.HasSuffix(err.Error(), ": exit status 2: model file missing") {
		t.Fatalf("non-zero exit: %v", err)
	}
	empty, _ := NewCommand(script(t, "echo '   '\n"))
	_, err = empty.Transcribe(context.Background(), wav)
	if err == nil || !strings.HasSuffix(err.Error(), "printed no text") {
		t.Fatalf("empty output: %v", err)
	}
	missing, _ := NewCommand("/nonexistent/whisper-cli -f")
	if _, err := missing.Transcribe(context.Background(), wav); err == nil {
		t.Fatal("missing program")
	}
	// Nothing is left behind in the temp directory.
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), "yui-utterance-*.wav"))
	for _, f := range left {
		t.Logf("left: %s", f)
	}
}

func TestEmptyCommand(t *testing.T) {
	if _, err := NewCommand("   "); err == nil {
		t.Error("empty command accepted")
	}
}

func FuzzDecodeWAV(f *testing.F) {
	f.Add(EncodeWAV([]int16{1, -1, 300}, Mono16k))
	f.Add(EncodeWAV([]int16{1, -1, 300, 4}, Format{SampleRate: 44100, Channels: 2}))
	f.Fuzz(func(t *testing.T, b []byte) {
		pcm, r, err := DecodeWAV(b)
		if err == nil && r > 0 {
			Resample(pcm, r, 16000)
		}
	})
}

func TestWAVRoundTripAndResample(t *testing.T) {
	in := []int16{0, 1000, -1000, 32767, -32768}
	out, r, err := DecodeWAV(EncodeWAV(in, Mono16k))
	if err != nil || r != 16000 || !slices.Equal(in, out) {
		t.Fatalf("round trip %v %d %v", out, r, err)
	}
	st, r, err := DecodeWAV(EncodeWAV([]int16{100, 300, -200, -400}, Format{SampleRate: 44100, Channels: 2}))
	if err != nil || r != 44100 || !slices.Equal(st, []int16{200, -300}) {
		t.Fatalf("stereo to mono %v %d %v", st, r, err)
	}
	if n := len(Resample(make([]int16, 22050), 22050, 16000)); n != 16000 {
		t.Fatalf("resampled to %d samples", n)
	}
	if _, _, err := DecodeWAV([]byte("RIFF\x00\x00\x00\x00WAVE")); err == nil {
		t.Fatal("no data chunk accepted")
	}
}
