package speech

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Reading the rate of raw PCM from what a server says of it, rather than
// assuming OpenAI's 24 kHz: speaches sends a Piper voice's 22050 Hz, and
// openedai-speech's tts-1 (Piper) says audio/pcm;rate=22050.

// The rates a server may name; anything else is no rate.
const (
	minPCMRate = 8000
	maxPCMRate = 192000
)

// ContentTypeRate reads the rate parameter of a Content-Type
// ("audio/pcm;rate=22050"); false when it has none or it is not a rate.
func ContentTypeRate(ctype string) (int, bool) {
	if ctype == "" {
		return 0, false
	}
	_, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		return 0, false
	}
	r, err := strconv.Atoi(strings.TrimSpace(params["rate"]))
	if err != nil || r < minPCMRate || r > maxPCMRate {
		return 0, false
	}
	return r, true
}

// ModelRate reads the sample_rate of a model card (speaches' GET
// /v1/models/{id}: src/speaches/executors/kokoro.py and piper.py give
// each speech model its rate); false when the card has none.
func ModelRate(body []byte) (int, bool) {
	var m struct {
		SampleRate json.Number `json:"sample_rate"`
	}
	if json.Unmarshal(body, &m) != nil {
		return 0, false
	}
	r, err := strconv.Atoi(m.SampleRate.String())
	if err != nil || r < minPCMRate || r > maxPCMRate {
		return 0, false
	}
	return r, true
}

// modelCardWait bounds the question about the model's rate.
const modelCardWait = 5 * time.Second

// modelRates asks a server for its model's card once per model and keeps
// the answer: 0 when the card says no rate or cannot be had.
type modelRates struct {
	mu    sync.Mutex
	rates map[string]int
}

func (m *modelRates) rate(ctx context.Context, c *http.Client, base, key, model string) int {
	m.mu.Lock()
	r, ok := m.rates[model]
	m.mu.Unlock()
	if ok {
		return r
	}
	r = askModelRate(ctx, c, base, key, model)
	if ctx.Err() != nil {
		return r // not kept: the question was cut short
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rates == nil {
		m.rates = map[string]int{}
	}
	m.rates[model] = r
	return r
}

func askModelRate(ctx context.Context, c *http.Client, base, key, model string) int {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || model == "" {
		return 0
	}
	u = u.JoinPath("models", model)
	ctx, cancel := context.WithTimeout(ctx, modelCardWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if c == nil {
		c = defaultTTSClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return 0
	}
	r, _ := ModelRate(b)
	return r
}
