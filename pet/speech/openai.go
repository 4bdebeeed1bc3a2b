package speech

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"yui/pet/audio"
	"yui/transport/redact"
)

// OpenAI is the "openai" engine's synth: POST {base}/audio/speech with
// response_format pcm, read as a stream so playback starts before the
// server has finished. Any compatible server works (OpenAI,
// Kokoro-FastAPI, speaches, openedai-speech, AllTalk v2). The PCM's rate
// is read from what arrives (format.go): a WAV header, the Content-Type's
// rate (openedai-speech), the model's own sample_rate where the server
// lists it (speaches), else OpenAI's 24 kHz. A server that refuses pcm
// (AllTalk v2 answers 500) is asked for wav from then on.
type OpenAI struct {
	// BaseURL is the API base, e.g. "https://api.openai.com/v1".
	BaseURL string
	Key     string
	// Model and Voice default to "tts-1" and "alloy".
	Model string
	Voice string
	// Speed is 0.25–4; 0 means 1.
	Speed float64
	// Client sends the requests; nil means one with a header timeout.
	Client *http.Client

	wav   atomic.Bool // the server refused pcm and took wav
	rates modelRates  // the model's rate, asked once
}

// OpenAIPCM is the format of OpenAI's own pcm answer.
var OpenAIPCM = audio.Format{Rate: 24000, Channels: 1}

// openAIHeaderWait bounds the wait for the server's answer to begin.
const openAIHeaderWait = 30 * time.Second

var defaultTTSClient = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	ResponseHeaderTimeout: openAIHeaderWait,
	IdleConnTimeout:       90 * time.Second,
}}

// Name is "openai".
func (o *OpenAI) Name() string { return "openai" }

// speechRequest is the body of POST /audio/speech.
type speechRequest struct {
	Model          string  `json:"model"`
	Input          string  `json:"input"`
	Voice          string  `json:"voice"`
	Speed          float64 `json:"speed"`
	ResponseFormat string  `json:"response_format"`
}

// Open sends the request and returns the answer's body as it streams.
func (o *OpenAI) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	endpoint, err := speechEndpoint(o.BaseURL)
	if err != nil {
		return nil, audio.Format{}, err
	}
	req := speechRequest{Model: o.Model, Input: text, Voice: o.Voice, Speed: o.Speed, ResponseFormat: "pcm"}
	if req.Model == "" {
		req.Model = "tts-1"
	}
	if req.Voice == "" {
		req.Voice = "alloy"
	}
	if req.Speed <= 0 {
		req.Speed = 1
	}
	req.Speed = max(0.25, min(4, req.Speed))
	if o.wav.Load() {
		req.ResponseFormat = "wav"
	}
	resp, err := o.post(ctx, endpoint, req)
	if err != nil && req.ResponseFormat == "pcm" && refusedFormat(err) {
		req.ResponseFormat = "wav"
		if resp, err = o.post(ctx, endpoint, req); err == nil {
			o.wav.Store(true)
		}
	}
	if se := (*statusError)(nil); errors.As(err, &se) && se.status == http.StatusNotFound &&
		(se.text == "" || se.text == http.StatusText(http.StatusNotFound)) {
		// The path itself is unknown (FastAPI's bare {"detail":"Not Found"}).
		err = fmt.Errorf("%w (no OpenAI speech endpoint at %s: AllTalk v1, for one, has none)", err, o.BaseURL)
	}
	if err != nil {
		return nil, audio.Format{}, err
	}
	body, f, err := o.format(ctx, resp, req.Model)
	if err != nil {
		resp.Body.Close()
		return nil, audio.Format{}, err
	}
	return body, f, nil
}

// post sends one request; a status other than 200 is a *statusError with
// the server's own message.
func (o *OpenAI) post(ctx context.Context, endpoint string, req speechRequest) (*http.Response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	if o.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+o.Key)
	}
	client := o.Client
	if client == nil {
		client = defaultTTSClient
	}
	resp, err := client.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("POST /audio/speech: %w", redact.URLError(err))
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		return nil, &statusError{what: "POST /audio/speech", status: resp.StatusCode, text: serverMessage(msg)}
	}
	return resp, nil
}

// refusedFormat says whether a refusal of pcm may be the format's: a
// server error (AllTalk v2 answers every error with a bare 500), or a
// refusal that names the format.
func refusedFormat(err error) bool {
	var se *statusError
	if !errors.As(err, &se) {
		return false
	}
	return se.status >= 500 || strings.Contains(strings.ToLower(se.text), "format")
}

// format reads the answer's format: a WAV says its own (Format{} lets
// audio.Decode read its header); raw PCM is at the Content-Type's rate,
// else the model's, else 24 kHz.
func (o *OpenAI) format(ctx context.Context, resp *http.Response, model string) (io.ReadCloser, audio.Format, error) {
	br := bufio.NewReader(resp.Body)
	body := readCloser{br, resp.Body}
	if magic, _ := br.Peek(4); string(magic) == "RIFF" {
		return body, audio.Format{}, nil
	}
	if rate, ok := ContentTypeRate(resp.Header.Get("Content-Type")); ok {
		return body, audio.Format{Rate: rate, Channels: 1}, nil
	}
	if rate := o.rates.rate(ctx, o.Client, o.BaseURL, o.Key, model); rate > 0 {
		return body, audio.Format{Rate: rate, Channels: 1}, nil
	}
	return body, OpenAIPCM, nil
}

// readCloser reads from a buffer over a body and closes the body.
type readCloser struct {
	io.Reader
	io.Closer
}

// speechEndpoint is base + "/audio/speech"; base must be http(s).
func speechEndpoint(base string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("speech base URL %q is not an http(s) URL", base)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/audio/speech"
	return u.String(), nil
}
