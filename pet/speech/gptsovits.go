package speech

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"yui/pet/audio"
)

// GPTSoVITS is the "gpt-sovits" engine's synth: GPT-SoVITS's api_v2.py
// (POST {base}/tts), which speaks in the voice of a reference clip. It
// asks for a streamed WAV: api_v2 sends the WAV header first and raw PCM
// chunks as each is made, so playback starts with the first chunk.
type GPTSoVITS struct {
	// BaseURL is the server's root, e.g. "http://127.0.0.1:9880".
	BaseURL string
	// RefAudio is the reference clip's path as the server sees it,
	// RefText what is said in it, RefLang its language ("en", "ja", "zh"…).
	RefAudio string
	RefText  string
	RefLang  string
	// Speed is 0.25–4; 0 means 1.
	Speed  float64
	Client *http.Client
}

// Name is "gpt-sovits".
func (g *GPTSoVITS) Name() string { return EngineGPTSoVITS }

// gptSoVITSRequest is api_v2.py's POST /tts body.
type gptSoVITSRequest struct {
	Text          string  `json:"text"`
	TextLang      string  `json:"text_lang"`
	RefAudioPath  string  `json:"ref_audio_path"`
	PromptText    string  `json:"prompt_text"`
	PromptLang    string  `json:"prompt_lang"`
	StreamingMode bool    `json:"streaming_mode"`
	MediaType     string  `json:"media_type"`
	SpeedFactor   float64 `json:"speed_factor"`
}

// errNoRefAudio is the reason nothing is asked without a reference clip.
var errNoRefAudio = errors.New("no reference clip: choose one in the Speech tab (speech.ref_audio)")

// Open sends the sentence and returns the WAV as it streams.
func (g *GPTSoVITS) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	if g.RefAudio == "" {
		return nil, audio.Format{}, errNoRefAudio
	}
	u, err := serverURL(g.BaseURL, "/tts")
	if err != nil {
		return nil, audio.Format{}, err
	}
	lang := g.RefLang
	if lang == "" {
		lang = "auto"
	}
	speed := g.Speed
	if speed <= 0 {
		speed = 1
	}
	body, err := json.Marshal(gptSoVITSRequest{
		Text: text, TextLang: lang, RefAudioPath: g.RefAudio, PromptText: g.RefText, PromptLang: lang,
		StreamingMode: true, MediaType: "wav", SpeedFactor: max(0.25, min(4, speed)),
	})
	if err != nil {
		return nil, audio.Format{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, audio.Format{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	rc, err := send(g.Client, req, "POST /tts")
	return rc, audio.Format{}, err
}
