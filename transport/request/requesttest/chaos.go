package requesttest

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// What the chaotic model server does with one request.
const (
	ChaosOK         = "ok"          // a streamed reply
	ChaosDropBefore = "drop_before" // the connection closes before any answer
	ChaosDropMid    = "drop_mid"    // one sentence streams, then the connection closes
	Chaos500        = "500"         // 500 with an OpenAI-shaped error body
	Chaos429        = "429"         // 429 with a Retry-After too long to wait, and an error body
	ChaosHang       = "hang"        // the stream opens and nothing more comes
)

// Chaos is an OpenAI-compatible model server (Chat Completions and
// Responses, streamed, and a model list naming "m") that answers each
// request with an action drawn from a seeded generator. A request's turn
// is the highest N of the "chaos turn N" texts it carries (the transcript
// carries the earlier ones); Action says what that turn's request got.
// Serve its Handle, and register Release after the server: hung handlers
// return then.
type Chaos struct {
	mu      sync.Mutex
	rng     *rand.Rand
	byTurn  map[int]string // the action per "chaos turn N" of the request
	aborted int            // hung requests the client gave up
	hanging int            // requests that reached their hang
	done    chan struct{}  // closed by Release: hung handlers return
	// hangs is how many hangs may still be drawn; a hang is only drawn
	// while it is positive, so a run has a bounded count of them.
	hangs int
}

// NewChaos returns a chaotic server drawing from rng, with at most hangs
// hung streams.
func NewChaos(rng *rand.Rand, hangs int) *Chaos {
	return &Chaos{rng: rng, byTurn: map[int]string{}, done: make(chan struct{}), hangs: hangs}
}

var chaosTurnText = regexp.MustCompile(`chaos turn (\d+)`)

// Action is the action drawn for turn n's request; "" before it came.
func (s *Chaos) Action(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byTurn[n]
}

// Hanging is how many requests reached their hang.
func (s *Chaos) Hanging() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hanging
}

// Aborted is how many hung requests the client gave up.
func (s *Chaos) Aborted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.aborted
}

// Release lets the hung handlers return (at the end of the test).
func (s *Chaos) Release() { close(s.done) }

// draw picks the action of a request.
func (s *Chaos) draw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		x := s.rng.Float64()
		switch {
		case x < 0.3:
			return ChaosOK
		case x < 0.42:
			return ChaosDropBefore
		case x < 0.57:
			return ChaosDropMid
		case x < 0.72:
			return Chaos500
		case x < 0.87:
			return Chaos429
		case s.hangs > 0:
			s.hangs--
			return ChaosHang
		}
	}
}

// Handle is the server's Handler.
func (s *Chaos) Handle(w *Writer, r *http.Request, _ int) {
	if r.URL.Path == "/v1/models" {
		w.JSON(`{"object":"list","data":[{"id":"m","object":"model","created":1,"owned_by":"me"}]}`)
		return
	}
	responses := r.URL.Path == "/v1/responses"
	if !responses && r.URL.Path != "/v1/chat/completions" {
		w.NotFound(r)
		return
	}
	body := readBody(r)
	n := 0
	for _, m := range chaosTurnText.FindAllStringSubmatch(body, -1) {
		k, _ := strconv.Atoi(m[1])
		n = max(n, k)
	}
	act := s.draw()
	s.mu.Lock()
	s.byTurn[n] = act
	s.mu.Unlock()

	errorBody := func(status int, msg, typ string) {
		w.Error(status, fmt.Sprintf(`{"error":{"message":%q,"type":%q,"param":null,"code":null}}`, msg, typ))
	}
	switch act {
	case ChaosDropBefore:
		panic(http.ErrAbortHandler) // the server closes the connection, no answer
	case Chaos500:
		errorBody(http.StatusInternalServerError, "chaos: internal error", "server_error")
		return
	case Chaos429:
		// Longer than the 30 s the client waits out: this 429 fails the
		// turn with the server's line.
		w.Header().Set("Retry-After", "120")
		errorBody(http.StatusTooManyRequests, "chaos: rate limit reached", "rate_limit_exceeded")
		return
	}
	w.Open()
	text := func(delta string) {
		b, _ := json.Marshal(delta)
		if responses {
			w.Raw(fmt.Sprintf("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_%d\",\"output_index\":0,\"content_index\":0,\"delta\":%s}\n\n", n, b))
		} else {
			w.Raw(fmt.Sprintf("data: {\"id\":\"c%d\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":null}]}\n\n", n, b))
		}
	}
	if responses {
		w.Raw(fmt.Sprintf("event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_%d\",\"object\":\"response\",\"status\":\"in_progress\",\"output\":[]}}\n\n", n))
	}
	switch act {
	case ChaosHang:
		s.mu.Lock()
		s.hanging++
		s.mu.Unlock()
		select {
		case <-r.Context().Done():
			s.mu.Lock()
			s.aborted++
			s.mu.Unlock()
		case <-s.done:
		}
		return
	case ChaosDropMid:
		text("Half a reply. The rest")
		time.Sleep(50 * time.Millisecond)
		panic(http.ErrAbortHandler)
	}
	text(fmt.Sprintf("Reply for turn %d. ", n))
	text("All good.")
	if responses {
		w.Raw(fmt.Sprintf("event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_%d\",\"object\":\"response\",\"status\":\"completed\",\"usage\":{\"input_tokens\":10,\"output_tokens\":6,\"total_tokens\":16}}}\n\n", n))
	} else {
		w.Raw(fmt.Sprintf("data: {\"id\":\"c%d\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n", n) +
			"data: [DONE]\n\n")
	}
}

// readBody is the request's body (the server kept it readable).
func readBody(r *http.Request) string {
	var b []byte
	if r.Body != nil {
		b, _ = io.ReadAll(r.Body)
	}
	return string(b)
}
