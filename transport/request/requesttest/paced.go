package requesttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Paced is a Chat Completions server with fixed delays, for the latency
// benchmark: its first token comes First after the request, then one
// token every Every, and it lists one model, "m" (GET /models). It keeps
// when each request arrived and when each token was written, so a test
// can take the server's own time out of what it measures.
type Paced struct {
	Tokens       []string
	First, Every time.Duration

	mu    sync.Mutex
	turns []PacedTurn
}

// PacedTurn is one streamed answer's times.
type PacedTurn struct {
	Arrived time.Time
	Wrote   []time.Time // each token's write, in order
}

// Handle answers GET /models with the one model and a chat completion
// request with the tokens, paced; anything else is a 404.
func (p *Paced) Handle(w *Writer, r *http.Request, _ int) {
	switch {
	case r.Method == http.MethodGet && (r.URL.Path == "/v1/models" || r.URL.Path == "/models"):
		w.JSON(`{"object":"list","data":[{"id":"m","object":"model","owned_by":"bench"}]}`)
		return
	case r.Method != http.MethodPost || (r.URL.Path != "/v1/chat/completions" && r.URL.Path != "/chat/completions"):
		w.NotFound(r)
		return
	}
	turn := PacedTurn{Arrived: time.Now()}
	w.Open()
	wait := p.First
	for i, tok := range p.Tokens {
		t := time.NewTimer(time.Until(turn.Arrived.Add(wait)))
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
		b, _ := json.Marshal(tok)
		// Stamped before the write: the client may act on the token
		// (ask for its sentence's speech) before the write returns.
		turn.Wrote = append(turn.Wrote, time.Now())
		w.Raw(fmt.Sprintf("data: {\"id\":\"p\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":null}]}\n\n", b))
		wait = p.First + time.Duration(i+1)*p.Every
	}
	w.Raw("data: {\"id\":\"p\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" +
		"data: [DONE]\n\n")
	p.mu.Lock()
	p.turns = append(p.turns, turn)
	p.mu.Unlock()
}

// Turns returns the answers streamed whole so far.
func (p *Paced) Turns() []PacedTurn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]PacedTurn(nil), p.turns...)
}
