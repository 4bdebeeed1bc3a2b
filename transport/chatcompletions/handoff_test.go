package chatcompletions_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"yui/transport"
	rt "yui/transport/request/requesttest"
)

// nextTokenGap is how long the fake model waits after the token that ends
// the first sentence: the case of a next token 50 ms later, which
// a splitter waiting for lookahead would make the speech wait for.
const nextTokenGap = 50 * time.Millisecond

// BenchmarkSentenceHandoff measures the time from the server's write of
// the token that ends the first sentence to the speech event that carries
// it (handoff-ms, the median of the runs), the client's part of the
// time before the first sentence's synthesis can be asked for
// (transport/request/sentence.go). Goal: within 25 ms.
func BenchmarkSentenceHandoff(b *testing.B) {
	sent := make(chan time.Time, 1)
	handed := make(chan struct{}, 1)
	e := start(b, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(text("Hello"), text(" there"))
		sent <- time.Now()
		w.Data(text("."))
		// The next token comes once the sentence was handed on, or
		// nextTokenGap later: a splitter waiting for it is measured
		// waiting that long, one that does not is never held.
		select {
		case <-handed:
		case <-time.After(nextTokenGap):
		}
		w.Data(text(" How are you?"), stop(), "[DONE]")
	}, nil)
	var gaps []time.Duration
	for b.Loop() {
		id := e.tr.Send(say("hi"))
		ev := rt.Next(b, e.tr.Events(), func(ev transport.Event) bool {
			r, ok := ev.(*transport.RenderEvent)
			return ok && r.Kind == transport.KindSpeech
		})
		gaps = append(gaps, time.Since(<-sent))
		handed <- struct{}{}
		if s := ev.(*transport.RenderEvent).Segments[0].Speech; s != "Hello there." {
			b.Fatalf("first sentence %q", s)
		}
		rt.Collect(b, e.tr.Events(), id)
	}
	slices.Sort(gaps)
	b.ReportMetric(float64(gaps[len(gaps)/2].Microseconds())/1000, "handoff-ms")
}
