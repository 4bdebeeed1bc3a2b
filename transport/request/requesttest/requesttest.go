// Package requesttest is a fake streaming chat server on loopback for the
// request transports' tests: it records each request and answers it with a
// scripted handler.
package requesttest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
)

// Request is one request the server received.
type Request struct {
	Path   string
	Header http.Header
	Body   map[string]any
	Raw    []byte
}

// Handler answers request n (0-based) of the server.
type Handler func(w *Writer, r *http.Request, n int)

// Server is a fake chat server.
type Server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []Request
}

// Start starts a server answering with h; it closes with the test.
func Start(t testing.TB, h Handler) *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Raw: raw})
		s.mu.Unlock()
		h(&Writer{w: w, f: w.(http.Flusher)}, r, n)
	}))
	t.Cleanup(s.Close)
	return s
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Writer writes a streamed answer.
type Writer struct {
	w       http.ResponseWriter
	f       http.Flusher
	started bool
}

func (w *Writer) start() {
	if !w.started {
		w.started = true
		w.w.Header().Set("Content-Type", "text/event-stream")
		w.w.WriteHeader(http.StatusOK)
	}
}

// Data writes one "data:" event per value (strings as they are, others as JSON).
func (w *Writer) Data(vs ...any) {
	w.start()
	for _, v := range vs {
		s, ok := v.(string)
		if !ok {
			b, _ := json.Marshal(v)
			s = string(b)
		}
		fmt.Fprintf(w.w, "data: %s\n\n", s)
	}
	w.f.Flush()
}

// Event writes one named event with a JSON payload.
func (w *Writer) Event(name string, v any) {
	w.start()
	b, _ := json.Marshal(v)
	fmt.Fprintf(w.w, "event: %s\ndata: %s\n\n", name, b)
	w.f.Flush()
}

// Raw writes bytes as they are.
func (w *Writer) Raw(s string) {
	w.start()
	io.WriteString(w.w, s)
	w.f.Flush()
}

// Header is the answer's header, to set before Error or the first event.
func (w *Writer) Header() http.Header { return w.w.Header() }

// Error answers with an HTTP error status and body.
func (w *Writer) Error(status int, body string) {
	w.w.Header().Set("Content-Type", "application/json")
	w.w.WriteHeader(status)
	io.WriteString(w.w, body)
}

// Collect reads events until the TurnEndEvent of turnID, failing the test
// after a real-time limit.
func Collect(t testing.TB, ch <-chan transport.Event, turnID string) []transport.Event {
	t.Helper()
	var out []transport.Event
	limit := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatalf("events closed before turn %s ended; got %s", turnID, Dump(out))
			}
			out = append(out, ev)
			if e, ok := ev.(*transport.TurnEndEvent); ok && e.TurnID == turnID {
				return out
			}
		case <-limit:
			t.Fatalf("turn %s did not end; got %s", turnID, Dump(out))
		}
	}
}

// Next reads events until one satisfies match.
func Next(t testing.TB, ch <-chan transport.Event, match func(transport.Event) bool) transport.Event {
	t.Helper()
	limit := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatal("events closed")
			}
			if match(ev) {
				return ev
			}
		case <-limit:
			t.Fatal("no matching event")
		}
	}
}

// Dump renders events for failure messages.
func Dump(evs []transport.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		j, _ := json.Marshal(ev)
		fmt.Fprintf(&b, "\n  %T %s", ev, j)
	}
	return b.String()
}

// Of returns the events of type T.
func Of[T any](evs []transport.Event) []T {
	var out []T
	for _, ev := range evs {
		if x, ok := ev.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

// Vocabulary is a small enum-mode vocabulary.
var Vocabulary = transport.Vocabulary{
	EmotionIDs:      []string{"neutral", "happy", "sad", "curious"},
	MotionIDs:       []string{"idle", "happy"},
	EmotionTextMode: "enum",
	EmotionTextMap:  map[string]string{"😆": "joyfully", "👂": "whisper"},
}

// LookSchema is the look tool's schema (docs/protocol/client-tools.md).
const LookSchema = `{"type":"object","properties":{"at":{"type":"string","enum":["body","perch_targets","screen"]},"monitor":{"type":"integer"}},"required":["at"],"additionalProperties":false}`

// BodyResult is what the fake look handler answers for "body".
const BodyResult = `{"monitor":0,"x":1510,"y":820,"width":192,"height":256,"perch":null,"emotion_id":"happy","motion_id":"idle","visible":true}`
