package voice

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"yui/transport/apierror"
	"yui/transport/redact"
	"yui/transport/textcut"
)

// EngineWhisperCpp is the voice.engine of whisper.cpp's server
// (pet/settings/engines.go validates the same name).
const EngineWhisperCpp = "whisper.cpp"

// WhisperCpp is the "whisper.cpp" engine: whisper.cpp's own server
// (whisper-server, examples/server in whisper.cpp), POST {BaseURL}/inference,
// multipart with the utterance as "file", "response_format" json and
// "language" when set. The model is the one the server loaded. The server
// answers {"text":…}; its error handler turns every 400 into a bare
// "Invalid request" (text/plain), and a failed model keeps its 500
// {"error":…}; older servers answered {"error":…} with status 200: all
// are read.
type WhisperCpp struct {
	// BaseURL is the server's root, e.g. "http://127.0.0.1:8080".
	BaseURL  string
	Language string // ISO-639-1, "" is the server's own (often "en")
	// Client is kept for the server (keep-alive between utterances);
	// nil is NewWhisperCppClient's.
	Client *http.Client
}

// NewWhisperCppClient is a client for one server: keep-alive, and a bound
// on the wait for an answer (a long utterance on a CPU takes seconds).
func NewWhisperCppClient() *http.Client {
	return &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{
		Proxy: http.ProxyFromEnvironment, IdleConnTimeout: 90 * time.Second,
	}}
}

// Transcribe sends wav and returns the text.
func (w *WhisperCpp) Transcribe(ctx context.Context, wav []byte) (string, error) {
	u, err := url.Parse(strings.TrimSpace(w.BaseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("whisper.cpp base URL %q is not an http(s) URL", w.BaseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/inference"
	body, ctype, err := whisperForm(wav, w.Language)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), body)
	if err != nil {
		return "", fmt.Errorf("transcription request: %w", err)
	}
	req.Header.Set("Content-Type", ctype)
	c := w.Client
	if c == nil {
		c = NewWhisperCppClient()
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", fmt.Errorf("whisper.cpp unreachable: %w", redact.URLError(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxTranscriptBody))
	if err != nil {
		return "", fmt.Errorf("whisper.cpp response: %w", err)
	}
	return parseWhisperCpp(resp.StatusCode, data)
}

// whisperForm is the multipart body of POST /inference.
func whisperForm(wav []byte, lang string) (io.Reader, string, error) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="file"; filename="utterance.wav"`)
	h.Set("Content-Type", "audio/wav")
	fw, err := mw.CreatePart(h)
	if err != nil {
		return nil, "", err
	}
	fw.Write(wav)
	mw.WriteField("response_format", "json")
	mw.WriteField("temperature", "0.0")
	if lang != "" {
		mw.WriteField("language", lang)
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return &b, mw.FormDataContentType(), nil
}

// parseWhisperCpp reads an answer of whisper.cpp's server.
func parseWhisperCpp(status int, data []byte) (string, error) {
	var v struct {
		Text  *string `json:"text"`
		Error string  `json:"error"`
	}
	jsonErr := json.Unmarshal(data, &v)
	switch {
	case jsonErr == nil && v.Error != "":
		return "", errors.New("whisper.cpp: " + apierror.FormatStatus(status, v.Error))
	case status == http.StatusBadRequest && strings.TrimSpace(string(data)) == "Invalid request":
		// Its error handler (examples/server/server.cpp) puts this over
		// every 400's own reason.
		return "", errors.New("whisper.cpp: " + apierror.FormatStatus(status,
			"Invalid request (no audio file, or audio it cannot read: without --convert it reads WAV only)"))
	case status/100 != 2:
		return "", errors.New("whisper.cpp: " + apierror.FormatStatus(status, apierror.ServerError(data).Text))
	case jsonErr != nil || v.Text == nil:
		return "", errors.New("whisper.cpp: no text in the response: " + textcut.OneLine(string(data), 80))
	}
	return strings.TrimSpace(*v.Text), nil
}
