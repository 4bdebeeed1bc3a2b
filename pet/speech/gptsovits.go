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
	"time"

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
	if err != nil {
		return nil, audio.Format{}, err
	}
	return &gptSoVITSStream{body: rc, g: g, ctx: ctx}, audio.Format{}, nil
}

// gptSoVITSStream is a streamed answer of api_v2.py. Streamed, the
// answer has begun (200, audio/wav) before the synthesis has: a reference
// clip the server cannot use (GPT_SoVITS/TTS_infer_pack/TTS.py's run
// raises, "Reference audio is outside the 3-10 second range" or "… not
// exists") breaks the stream with no word of why. The stream that breaks
// asks the server for the reason (explain) and fails with it.
type gptSoVITSStream struct {
	body      io.ReadCloser
	g         *GPTSoVITS
	ctx       context.Context
	n         int64
	explained bool
}

func (s *gptSoVITSStream) Read(p []byte) (int, error) {
	n, err := s.body.Read(p)
	s.n += int64(n)
	if errors.Is(err, io.ErrUnexpectedEOF) && !s.explained && s.ctx.Err() == nil {
		s.explained = true
		err = s.g.explain(s.ctx, s.n, err)
	}
	return n, err
}

func (s *gptSoVITSStream) Close() error { return s.body.Close() }

// explainWait bounds the question about a broken stream: the server loads
// the clip to answer it.
const explainWait = 15 * time.Second

// explain asks api_v2.py's GET /set_refer_audio to load the clip the
// broken request named: a clip it cannot use is refused with TTS.py's own
// reason (400 {"message":"set refer audio failed","Exception":…}). It sets
// the reference the request was setting, and synthesises nothing.
func (g *GPTSoVITS) explain(ctx context.Context, got int64, broke error) error {
	brokeOff := fmt.Errorf("GPT-SoVITS broke off its answer after %d bytes (its console says why): %w", got, broke)
	u, err := serverURL(g.BaseURL, "/set_refer_audio")
	if err != nil {
		return brokeOff
	}
	u.RawQuery = url.Values{"refer_audio_path": {g.RefAudio}}.Encode()
	ctx, cancel := context.WithTimeout(ctx, explainWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return brokeOff
	}
	body, err := send(g.Client, req, "GET /set_refer_audio")
	var se *statusError
	if errors.As(err, &se) && se.status == http.StatusBadRequest {
		return fmt.Errorf("GPT-SoVITS cannot use the reference clip %q: %s", g.RefAudio, se.text)
	}
	if err == nil {
		body.Close()
	}
	return brokeOff
}
