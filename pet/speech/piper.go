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
	"os"
	"sync/atomic"

	"yui/pet/audio"
)

// PiperHTTP is the "piper" engine's synth on Piper's HTTP server
// (python3 -m piper.http_server), whichever of its three APIs it speaks
// (transport/localserver's PiperFirst, PiperRoot, PiperSynthesize):
//   - piper1-gpl since 1.5: POST /synthesize with a JSON body {"text",
//     "voice","length_scale"}; GET / is a web page, whatever its query.
//   - piper1-gpl before 1.5: the same body POSTed to /.
//   - rhasspy/piper's first server: GET /?text=, its voice fixed on its
//     command line.
//
// The first sentence asks /synthesize; a 404 there sends it to GET
// /voices, which only the 1.3-1.4 server has, and the API found is kept.
// Every one answers a WAV at the voice's rate, as text/html (a Flask
// view's bytes): the WAV's header says the rate, and an answer that is not
// a WAV is refused with what it is.
type PiperHTTP struct {
	// BaseURL is the server's root, e.g. "http://127.0.0.1:5000".
	BaseURL string
	// Voice is one of GET /voices' names; "" is the server's own voice.
	Voice string
	// Speed is 0.25–4; 0 means 1. Piper's length_scale is its inverse.
	Speed  float64
	Client *http.Client

	api atomic.Int32 // a piperAPI once found
}

// piperAPI is which of Piper's servers answers.
type piperAPI int32

const (
	piperUnknown piperAPI = iota
	piperSynthesize
	piperRoot
	piperFirst
)

// Name is "piper".
func (p *PiperHTTP) Name() string { return EnginePiper }

// Open asks for the sentence's WAV.
func (p *PiperHTTP) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	api := piperAPI(p.api.Load())
	if api == piperUnknown {
		body, err := p.postJSON(ctx, "/synthesize", text)
		if !isStatus(err, http.StatusNotFound) {
			if err == nil {
				p.api.Store(int32(piperSynthesize))
				return wavOnly(body, "POST /synthesize")
			}
			return nil, audio.Format{}, err
		}
		api = p.older(ctx)
		p.api.Store(int32(api))
	}
	var body io.ReadCloser
	var err error
	what := "POST /synthesize"
	switch api {
	case piperSynthesize:
		body, err = p.postJSON(ctx, "/synthesize", text)
	case piperRoot:
		what = "POST /"
		body, err = p.postJSON(ctx, "/", text)
	default:
		what = "GET /"
		body, err = p.get(ctx, text)
	}
	if err != nil {
		return nil, audio.Format{}, err
	}
	return wavOnly(body, what)
}

// older tells the two servers without /synthesize apart: only piper1-gpl
// before 1.5 answers GET /voices.
func (p *PiperHTTP) older(ctx context.Context) piperAPI {
	u, err := serverURL(p.BaseURL, "/voices")
	if err != nil {
		return piperFirst
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return piperFirst
	}
	body, err := send(p.Client, req, "GET /voices")
	if err != nil {
		return piperFirst
	}
	defer body.Close()
	var v map[string]json.RawMessage
	if json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&v) != nil {
		return piperFirst
	}
	return piperRoot
}

// wavOnly passes a WAV on and refuses anything else with what it is: a
// server asked the wrong way answers its web page with status 200.
func wavOnly(body io.ReadCloser, what string) (io.ReadCloser, audio.Format, error) {
	br := bufio.NewReader(body)
	// Four bytes tell a WAV: a streamed one plays from its first chunk.
	head, perr := br.Peek(4)
	if bytes.Equal(head, []byte("RIFF")) {
		return readCloser{br, body}, audio.Format{}, nil
	}
	defer body.Close()
	if perr == nil {
		head, perr = br.Peek(512)
	}
	if perr != nil && !errors.Is(perr, io.EOF) && len(head) == 0 {
		// The server raised after its answer began (AllTalk v1 on a voice
		// it cannot open): its console has the reason.
		return nil, audio.Format{}, fmt.Errorf("%s: the answer broke off before any audio (the server's console says why): %w", what, perr)
	}
	if h, ok := htmlHeading(head); ok {
		return nil, audio.Format{}, fmt.Errorf("%s: the server answered a web page (%q), not a WAV", what, h)
	}
	if len(head) == 0 {
		return nil, audio.Format{}, fmt.Errorf("%s: %w", what, audio.ErrNoAudio)
	}
	return nil, audio.Format{}, fmt.Errorf("%s: the answer is not a WAV", what)
}

func (p *PiperHTTP) lengthScale() float64 {
	if p.Speed <= 0 {
		return 1
	}
	return 1 / max(0.25, min(4, p.Speed))
}

// get is the first server's GET /?text=; it takes no voice nor speed.
func (p *PiperHTTP) get(ctx context.Context, text string) (io.ReadCloser, error) {
	u, err := serverURL(p.BaseURL, "/")
	if err != nil {
		return nil, err
	}
	q := u.Query()
	q.Set("text", text)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	return send(p.Client, req, "GET /")
}

// postJSON is piper1-gpl's synthesis: a voice not in its data
// directories is spoken in its default voice.
func (p *PiperHTTP) postJSON(ctx context.Context, path, text string) (io.ReadCloser, error) {
	u, err := serverURL(p.BaseURL, path)
	if err != nil {
		return nil, err
	}
	fields := map[string]any{"text": text, "length_scale": p.lengthScale()}
	if p.Voice != "" {
		fields["voice"] = p.Voice
	}
	body, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return send(p.Client, req, "POST "+path)
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
