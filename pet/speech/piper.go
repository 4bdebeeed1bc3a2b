package speech

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"

	"yui/pet/audio"
)

// PiperHTTP is the "piper" engine's synth on Piper's HTTP server
// (python -m piper.http_server). The first server took GET /?text=…
// and answers a WAV; the current one takes POST / with a JSON body
// {"text","voice","length_scale"} (Piper's HTTP API documentation) and answers
// 405 to a GET. The GET goes first; after a 405 the engine posts.
type PiperHTTP struct {
	// BaseURL is the server's root, e.g. "http://127.0.0.1:5000".
	BaseURL string
	// Voice is one of GET /voices' names; "" is the server's own voice.
	Voice string
	// Speed is 0.25–4; 0 means 1. Piper's length_scale is its inverse.
	Speed  float64
	Client *http.Client

	post atomic.Bool // the server refused a GET
}

// Name is "piper".
func (p *PiperHTTP) Name() string { return EnginePiper }

// Open asks for the sentence's WAV.
func (p *PiperHTTP) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	if !p.post.Load() {
		body, err := p.get(ctx, text)
		if !isStatus(err, http.StatusMethodNotAllowed) {
			return body, audio.Format{}, err
		}
		p.post.Store(true)
	}
	body, err := p.postJSON(ctx, text)
	return body, audio.Format{}, err
}

func (p *PiperHTTP) lengthScale() float64 {
	if p.Speed <= 0 {
		return 1
	}
	return 1 / max(0.25, min(4, p.Speed))
}

func (p *PiperHTTP) get(ctx context.Context, text string) (io.ReadCloser, error) {
	u, err := serverURL(p.BaseURL, "/")
	if err != nil {
		return nil, err
	}
	q := u.Query()
	q.Set("text", text)
	if p.Voice != "" {
		q.Set("voice", p.Voice)
	}
	q.Set("length_scale", strconv.FormatFloat(p.lengthScale(), 'f', 3, 64))
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	return send(p.Client, req, "GET /")
}

func (p *PiperHTTP) postJSON(ctx context.Context, text string) (io.ReadCloser, error) {
	u, err := serverURL(p.BaseURL, "/")
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(map[string]any{"text": text, "voice": p.Voice, "length_scale": p.lengthScale()})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return send(p.Client, req, "POST /")
}

// PiperDefaultRate is the sample rate of most Piper voices ("medium"
// quality), used when a model's config cannot be read.
const PiperDefaultRate = 22050

// PiperCommand is the Piper program as the command engine runs it, built
// from the model path alone: `piper --model MODEL --output-raw`, the
// sentence on standard input, raw 16-bit mono PCM at the model's rate on
// standard output. The rate is read from the model's config beside it
// (MODEL.json, as piper names it); program "" is "piper" on the PATH.
func PiperCommand(program, model string) (*Command, error) {
	if model == "" {
		return nil, errors.New("piper: no voice model (speech.piper_model)")
	}
	if _, err := os.Stat(model); err != nil {
		return nil, fmt.Errorf("piper: voice model: %w", err)
	}
	if program == "" {
		program = "piper"
	}
	return &Command{Args: []string{program, "--model", model, "--output-raw"}, Rate: piperRate(model)}, nil
}

// piperRate is audio.sample_rate of the model's config, or the usual rate.
func piperRate(model string) int {
	b, err := os.ReadFile(model + ".json")
	if err != nil {
		return PiperDefaultRate
	}
	var cfg struct {
		Audio struct {
			SampleRate int `json:"sample_rate"`
		} `json:"audio"`
	}
	if json.Unmarshal(b, &cfg) != nil || cfg.Audio.SampleRate < 8000 || cfg.Audio.SampleRate > 192000 {
		return PiperDefaultRate
	}
	return cfg.Audio.SampleRate
}
