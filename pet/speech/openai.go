package speech

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"yui/pet/audio"
	"yui/transport/apierror"
	"yui/transport/redact"
)

// OpenAI is the "openai" engine's synth: POST {base}/audio/speech with
// response_format pcm, read as a stream so playback starts before the
// server has finished. Any compatible server works (OpenAI, Kokoro-FastAPI,
// openedai-speech); one that answers with a WAV is read as one.
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
}

// OpenAIPCM is the format of an OpenAI-compatible server's pcm answer.
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
	body, err := json.Marshal(req)
	if err != nil {
		return nil, audio.Format{}, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, audio.Format{}, err
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
		return nil, audio.Format{}, fmt.Errorf("POST /audio/speech: %w", redact.URLError(err))
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		return nil, audio.Format{}, errors.New("POST /audio/speech: " + apierror.FormatStatus(resp.StatusCode, apierror.ServerError(msg).Text))
	}
	return resp.Body, OpenAIPCM, nil
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
