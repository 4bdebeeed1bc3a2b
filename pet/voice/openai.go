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
	"strings"

	"yui/transport/apierror"
	"yui/transport/redact"
	"yui/transport/textcut"
)

// DefaultOpenAIModel is the model sent when the preset names none.
const DefaultOpenAIModel = "whisper-1"

// maxTranscriptBody bounds a transcription response.
const maxTranscriptBody = 1 << 20

// OpenAI is the "openai" engine: POST {BaseURL}/audio/transcriptions,
// multipart with the utterance as "file", "model", "language" when set, and
// "response_format" json. Any OpenAI-compatible Whisper server works.
type OpenAI struct {
	BaseURL  string // e.g. https://api.openai.com/v1
	Key      string // sent as a bearer token when set
	Model    string // "" is DefaultOpenAIModel
	Language string // ISO-639-1 hint, "" to let the server detect it
	Client   *http.Client
}

// Transcribe sends wav and returns the server's text. An HTTP error status
// fails with the status and the server's own message.
func (o *OpenAI) Transcribe(ctx context.Context, wav []byte) (string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="file"; filename="utterance.wav"`)
	h.Set("Content-Type", "audio/wav")
	fw, err := mw.CreatePart(h)
	if err != nil {
		return "", err
	}
	fw.Write(wav)
	model := o.Model
	if model == "" {
		model = DefaultOpenAIModel
	}
	mw.WriteField("model", model)
	if o.Language != "" {
		mw.WriteField("language", o.Language)
	}
	mw.WriteField("response_format", "json")
	if err := mw.Close(); err != nil {
		return "", err
	}

	url := strings.TrimRight(o.BaseURL, "/") + "/audio/transcriptions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, &body)
	if err != nil {
		return "", fmt.Errorf("transcription request: %w", err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if o.Key != "" {
		req.Header.Set("Authorization", "Bearer "+o.Key)
	}
	client := o.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("transcription server unreachable: %w", redact.URLError(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxTranscriptBody))
	if err != nil {
		return "", fmt.Errorf("transcription response: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		text := apierror.ServerError(data).Text
		return "", errors.New("transcription server: " + apierror.FormatStatus(resp.StatusCode, text))
	}
	var v struct {
		Text *string `json:"text"`
	}
	if json.Unmarshal(data, &v) != nil || v.Text == nil {
		return "", errors.New("transcription server: no text in the response: " + textcut.OneLine(string(data), 80))
	}
	return strings.TrimSpace(*v.Text), nil
}
