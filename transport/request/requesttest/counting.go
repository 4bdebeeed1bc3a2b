package requesttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// CountingContext is Counting's context, in its tokens.
const CountingContext = 4096

// memorySummaryPrefix starts the newest message of long-term memory's
// summary request (transport/request/facts.go).
const memorySummaryPrefix = "The conversation that left the context ("

// Counting is a Chat Completions server with a context of CountingContext
// tokens that counts a token for every three bytes of a request (more
// than the client's own estimate: its usage reports teach the client),
// refuses a request over its context as llama.cpp does, and answers at
// once with "Noted, request N." and its usage. Long-term memory's summary
// requests are answered with nothing and counted apart. Serve its Handle.
type Counting struct {
	mu      sync.Mutex
	reqs    []CountedRequest
	refused int
	// summaries counts long-term memory's summary requests, kept out of reqs.
	summaries int
	got       chan struct{}
}

// CountedRequest is one chat request Counting answered.
type CountedRequest struct {
	Raw    string
	Tokens int
	Last   string // the newest user message's text
}

// NewCounting returns a Counting server.
func NewCounting() *Counting { return &Counting{got: make(chan struct{}, 16)} }

// Handle is the server's Handler.
func (s *Counting) Handle(w *Writer, r *http.Request, _ int) {
	if r.URL.Path != "/v1/chat/completions" {
		w.NotFound(r)
		return
	}
	raw := readBody(r)
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal([]byte(raw), &body)
	tokens := len(raw) / 3
	last := ""
	if n := len(body.Messages); n > 0 {
		last, _ = body.Messages[n-1].Content.(string)
	}
	if strings.HasPrefix(last, memorySummaryPrefix) {
		// Long-term memory's summary of dropped turns (a request aside,
		// at most once per 20 dropped turns): counted apart, answered
		// with nothing to remember.
		s.mu.Lock()
		s.summaries++
		s.mu.Unlock()
		w.Raw("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" +
			"data: [DONE]\n\n")
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, CountedRequest{Raw: raw, Tokens: tokens, Last: last})
	n := len(s.reqs)
	over := tokens > CountingContext
	if over {
		s.refused++
	}
	s.mu.Unlock()
	defer func() {
		select {
		case s.got <- struct{}{}:
		default:
		}
	}()
	if over {
		w.Error(400, fmt.Sprintf(`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":%d,"n_ctx":%d}}`, tokens, CountingContext))
		return
	}
	w.Raw(fmt.Sprintf("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Noted, request %d.\"},\"finish_reason\":null}]}\n\n", n) +
		"data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" +
		fmt.Sprintf("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":5,\"total_tokens\":%d}}\n\n", tokens, tokens+5) +
		"data: [DONE]\n\n")
}

// Requests returns the chat requests answered so far (not the summaries).
func (s *Counting) Requests() []CountedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]CountedRequest(nil), s.reqs...)
}

// Refused is how many requests were refused as over the context.
func (s *Counting) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Summaries is how many long-term memory summary requests came.
func (s *Counting) Summaries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.summaries
}

// WaitRequests waits until the server answered n requests, and reports
// whether it did within limit.
func (s *Counting) WaitRequests(n int, limit time.Duration) bool {
	deadline := time.After(limit)
	for len(s.Requests()) < n {
		select {
		case <-s.got:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			return false
		}
	}
	return true
}
