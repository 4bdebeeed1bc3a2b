package request

import (
	"io"
	"net/http"
	"sync"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"yui/transport/clock"
)

// Reading a stream: the event decoder with its size cap, and the watchdog
// that ends a stalled stream.

// NewDecoder reads the event stream of resp with the SDK's decoder, each
// event bounded by MaxEventBytes: past it the decoder stops and its Err is
// ErrEventTooLarge.
func NewDecoder(resp *http.Response) ssestream.Decoder {
	resp.Body = &eventLimiter{r: resp.Body, max: MaxEventBytes}
	return ssestream.NewDecoder(resp)
}

// eventLimiter fails a server-sent event stream whose current event grows
// past max bytes. The SDK's decoder buffers a line up to 32 MiB and the
// data lines of an event without bound; this keeps both under max.
type eventLimiter struct {
	r   io.ReadCloser
	max int
	n   int  // bytes of the current event so far
	bol bool // at the beginning of a line: a line break now ends the event
	err error
}

func (l *eventLimiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i, b := range p[:n] {
		switch b {
		case '\n':
			if l.bol {
				l.n = 0 // a blank line: the event is complete
				continue
			}
			l.bol = true
		case '\r':
			// Part of a CRLF line break; it leaves bol as it is.
		default:
			l.bol = false
		}
		if l.n++; l.n > l.max {
			l.err = ErrEventTooLarge
			return i, l.err
		}
	}
	return n, err
}

func (l *eventLimiter) Close() error { return l.r.Close() }

// watchdog cancels a round when no stream event arrives within FrameWait.
type watchdog struct {
	clk  clock.Clock
	fire func()
	mu   sync.Mutex
	t    clock.Timer
	off  bool
}

// kick restarts the wait.
func (w *watchdog) kick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.off {
		return
	}
	if w.t != nil {
		w.t.Stop()
	}
	w.t = w.clk.AfterFunc(FrameWait, w.fire)
}

func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.off = true
	if w.t != nil {
		w.t.Stop()
	}
}
