package request

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"yui/transport/apierror"
)

// ImageTokens is the estimate for one image of a request: servers count
// an image by its tiles or patches, not by the bytes of its data URL.
const ImageTokens = 800

// Budget bounds the conversation one request carries. The zero value
// bounds nothing.
type Budget struct {
	// Room is the most prompt tokens, as the server counts them, the
	// request may take; 0 bounds nothing.
	Room int
	// Scale is server tokens per estimated token, calibrated from the
	// usage the server reports; 0 reads as 1.
	Scale float64
	// Tight is set on the one retry after the server said the context
	// is too long: send the least the turn needs (Room is already
	// smaller; a server-held conversation is truncated by the server).
	Tight bool
}

// Tokens converts an estimate into the server's count.
func (b Budget) Tokens(est int) int {
	if b.Scale <= 0 {
		return est
	}
	return int(float64(est)*b.Scale + 0.5)
}

// Fits reports whether a request of est estimated tokens fits.
func (b Budget) Fits(est int) bool { return b.Room <= 0 || b.Tokens(est) <= b.Room }

// ReplyRoom is the part of a context window kept for the reply: a
// quarter, between 256 and 4096 tokens.
func ReplyRoom(window int) int { return min(max(window/4, 256), 4096) }

// dataImage opens an image data URL inside a JSON string.
var dataImage = []byte("data:image/")

// Estimate estimates the tokens of JSON request content: about four
// ASCII bytes a token, a token for each other character, ImageTokens for
// each image data URL. It reads b once and allocates nothing.
func Estimate(b []byte) int {
	ascii, other, images := 0, 0, 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"' && bytes.HasPrefix(b[i+1:], dataImage):
			// An image data URL: skip to its closing quote (base64 holds none).
			end := bytes.IndexByte(b[i+1:], '"')
			if end < 0 {
				end = len(b) - i - 1
			}
			images++
			ascii += 2
			i += end + 1
		case c < 0x80:
			ascii++
		case c >= 0xC0:
			other++ // a character's first byte; the rest are 0x80-0xBF
		}
	}
	return (ascii+3)/4 + other + images*ImageTokens
}

// Limits for the calibration: one odd report moves it only this far.
const (
	minScale = 0.25
	maxScale = 4
)

// budgeter keeps the engine's context budget: the window, the scale
// calibrated from reported usage, and the window a server stated when it
// refused a request as too long.
type budgeter struct {
	mu      sync.Mutex
	window  int     // the preset's context_window, 0 when unknown
	learned int     // the context size a server stated, 0 when none
	scale   float64 // server tokens per estimated token
}

func newBudgeter(window int) *budgeter { return &budgeter{window: max(window, 0), scale: 1} }

// budget is the budget of a normal request.
func (b *budgeter) budget() Budget {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.window
	if b.learned > 0 && (w == 0 || b.learned < w) {
		w = b.learned
	}
	bg := Budget{Scale: b.scale}
	if w > 0 {
		bg.Room = w - ReplyRoom(w)
	}
	return bg
}

// tight is the budget of the retry of a request of est estimated tokens
// the server refused as too long (stated is the context size it named, 0
// when none): half of what was sent, and within what the server stated.
func (b *budgeter) tight(est, stated int) Budget {
	bg := b.budget()
	bg.Tight = true
	half := bg.Tokens(est) / 2
	if bg.Room == 0 || half < bg.Room {
		bg.Room = max(half, 1)
	}
	if stated > 0 {
		b.mu.Lock()
		b.learned = stated
		b.mu.Unlock()
		bg.Room = min(bg.Room, max(stated-ReplyRoom(stated), 1))
	}
	return bg
}

// observe calibrates the scale from a request of est estimated tokens
// the server counted as prompt tokens. Small requests say little and are
// skipped.
func (b *budgeter) observe(est int, prompt int64) {
	if est < 64 || prompt <= 0 {
		return
	}
	s := min(max(float64(prompt)/float64(est), minScale), maxScale)
	b.mu.Lock()
	b.scale = s
	b.mu.Unlock()
}

// contextPhrases are how OpenAI, vLLM, llama.cpp, Ollama and LM Studio
// (and the proxies in front of them) say a prompt is over the context.
var contextPhrases = []string{
	"context_length_exceeded", "exceed_context_size", "maximum context length",
	"context length", "context size", "context window", "n_ctx",
	"prompt is too long", "prompt too long", "too many tokens", "input is too long",
	"exceeds the available context", "reduce the length of the messages",
}

// statedContext finds the context size a server names in its message.
var statedContext = regexp.MustCompile(`(?i)(?:context length|context size|context window|n_ctx|context of)\D{0,40}?(\d{3,8})`)

// Overflow reports whether err is a server saying the request is over
// its context, and the context size it named (0 when none).
func Overflow(err error) (bool, int) {
	var se *apierror.StatusError
	if !errors.As(err, &se) {
		return false, 0
	}
	if se.Status != 0 && se.Status != 400 && se.Status != 413 && se.Status != 422 && se.Status != 500 {
		return false, 0
	}
	text := strings.ToLower(se.Text + " " + se.Code)
	hit := false
	for _, p := range contextPhrases {
		if strings.Contains(text, p) {
			hit = true
			break
		}
	}
	if !hit {
		return false, 0
	}
	if se.Context > 0 {
		return true, se.Context
	}
	if m := statedContext.FindStringSubmatch(se.Text); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return true, n
		}
	}
	return true, 0
}
