package playback

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"yui/transport"
)

// TestQueueIsBoundedWhateverTheBackendSends: speech sent much faster than
// it plays, and silent cues while speech is owed, fill the queue up to
// MaxQueued and no further; the rest is dropped with a log line, and the
// stop button still empties the queue.
func TestQueueIsBoundedWhateverTheBackendSends(t *testing.T) {
	var logBuf bytes.Buffer
	h := newHarness(t, Options{Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))})
	for f := range 6 {
		var sb strings.Builder
		for i := range 400 {
			fmt.Fprintf(&sb, "Frame %d line %d. ", f, i)
		}
		h.q.Render(speechFrame("b-1", seg("happy", sb.String())))
		cues := make([]transport.Segment, 400)
		for i := range cues {
			cues[i] = seg("sad", "")
		}
		h.q.Render(speechFrame("b-1", cues...))
	}
	h.q.mu.Lock()
	items, boundary := len(h.q.items), len(h.q.boundary)
	h.q.mu.Unlock()
	if items > MaxQueued || boundary > MaxQueued {
		t.Fatalf("queue holds %d sentences and %d boundary cues, over %d", items, boundary, MaxQueued)
	}
	if items < MaxQueued-1 {
		t.Fatalf("queue holds %d sentences: it should have filled", items)
	}
	if !strings.Contains(logBuf.String(), `"msg":"speech_dropped"`) {
		t.Fatalf("no speech_dropped line:\n%.2000s", logBuf.String())
	}
	h.q.Interrupt()
	h.q.mu.Lock()
	items, boundary = len(h.q.items), len(h.q.boundary)
	h.q.mu.Unlock()
	if items != 0 || boundary != 0 {
		t.Fatalf("after a stop: %d sentences, %d cues", items, boundary)
	}
}
