package requesttest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/clock/clocktest"
)

// RateLimitEnv is one request transport under test, over a server that
// answers with the handler it was started with, on a fake clock.
type RateLimitEnv struct {
	Tr  transport.Transport
	Srv *Server
	Clk *clocktest.Fake
}

// limitBody is the server's error line the tests expect back.
const limitBody = `{"error":{"message":"rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`

// RateLimits' server is no fake of one server: it answers 429 and 503
// with Retry-After as RFC 9110 §10.2.3 defines it (seconds or an HTTP
// date) and with a body as github.com/openai/openai-openapi openapi.yaml's
// ErrorResponse; it checks the client's side of that header, whichever
// server sends it.
//
// RateLimits checks a request transport's handling of 429 and 503 with
// Retry-After: a wait of at most 30 s (seconds or an HTTP date) is waited
// out once on the clock, with the rate-limited state counting it down, and
// the request sent again; a longer one, or a second limit, fails the turn
// with the server's line; stopping the turn ends the wait. start starts
// the transport over h; reply writes a good streamed reply saying "Hello.".
func RateLimits(t *testing.T, start func(t *testing.T, h Handler) RateLimitEnv, reply func(w *Writer)) {
	say := transport.Turn{Trigger: transport.TriggerUserMessage, Text: "hi"}
	limit := func(status int, after func(now time.Time) string, times int, clk **clocktest.Fake) Handler {
		return func(w *Writer, r *http.Request, n int) {
			if n < times {
				w.Header().Set("Retry-After", after((*clk).Now()))
				w.Error(status, limitBody)
				return
			}
			reply(w)
		}
	}
	secs := func(s string) func(time.Time) string { return func(time.Time) string { return s } }
	date := func(d time.Duration) func(time.Time) string {
		return func(now time.Time) string { return now.Add(d).UTC().Format(http.TimeFormat) }
	}
	isLimited := func(ev transport.Event) bool {
		s, ok := ev.(*transport.StateEvent)
		return ok && s.State == transport.StateRateLimited
	}

	for _, c := range []struct {
		name   string
		status int
		after  func(time.Time) string
		wait   time.Duration
	}{
		{"429 seconds", http.StatusTooManyRequests, secs("7"), 7 * time.Second},
		{"503 seconds", http.StatusServiceUnavailable, secs("30"), 30 * time.Second},
		{"429 date", http.StatusTooManyRequests, date(20 * time.Second), 20 * time.Second},
	} {
		t.Run("waits "+c.name, func(t *testing.T) {
			var clk *clocktest.Fake
			e := start(t, limit(c.status, c.after, 1, &clk))
			clk = e.Clk
			id := e.Tr.Send(say)
			st := Next(t, e.Tr.Events(), isLimited).(*transport.StateEvent)
			if st.RetryIn != c.wait || !st.RetryAt.Equal(e.Clk.Now().Add(c.wait)) {
				t.Fatalf("rate limited %v until %v, want %v from %v", st.RetryIn, st.RetryAt, c.wait, e.Clk.Now())
			}
			e.Clk.Advance(c.wait - time.Second)
			if n := len(e.Srv.Requests()); n != 1 {
				t.Fatalf("%d requests before the wait passed", n)
			}
			e.Clk.Advance(time.Second)
			evs := Collect(t, e.Tr.Events(), id)
			end := Of[*transport.TurnEndEvent](evs)[0]
			if end.Outcome != transport.TurnCompleted || len(e.Srv.Requests()) != 2 {
				t.Fatalf("after the wait: %d requests, %s", len(e.Srv.Requests()), Dump(evs))
			}
			if e.Tr.State().State != transport.StateReady {
				t.Fatalf("state %v after the retry", e.Tr.State())
			}
		})
	}

	for _, c := range []struct {
		name  string
		after func(time.Time) string
		times int
	}{
		{"over 30 s", secs("31"), 1},
		{"a date over 30 s away", date(2 * time.Minute), 1},
		{"limited again", secs("2"), 2},
		{"unreadable", secs("soon"), 1},
	} {
		t.Run("fails "+c.name, func(t *testing.T) {
			var clk *clocktest.Fake
			e := start(t, limit(http.StatusTooManyRequests, c.after, c.times, &clk))
			clk = e.Clk
			id := e.Tr.Send(say)
			if c.times == 2 {
				Next(t, e.Tr.Events(), isLimited)
				e.Clk.Advance(2 * time.Second)
			}
			evs := Collect(t, e.Tr.Events(), id)
			end := Of[*transport.TurnEndEvent](evs)[0]
			if end.Outcome != transport.TurnFailed || end.ErrorText != "429 Too Many Requests: rate limit reached" {
				t.Fatalf("end %+v", end)
			}
			if n := len(e.Srv.Requests()); n != c.times {
				t.Fatalf("%d requests, want %d", n, c.times)
			}
		})
	}

	t.Run("stop ends the wait", func(t *testing.T) {
		var clk *clocktest.Fake
		e := start(t, limit(http.StatusTooManyRequests, secs("10"), 1, &clk))
		clk = e.Clk
		id := e.Tr.Send(say)
		Next(t, e.Tr.Events(), isLimited)
		if ids := e.Tr.Interrupt(true); strings.Join(ids, ",") != id {
			t.Fatalf("interrupted %v, want %s", ids, id)
		}
		evs := Collect(t, e.Tr.Events(), id)
		if end := Of[*transport.TurnEndEvent](evs)[0]; end.Outcome != transport.TurnStopped {
			t.Fatalf("end %+v", end)
		}
		Next(t, e.Tr.Events(), func(ev transport.Event) bool {
			s, ok := ev.(*transport.StateEvent)
			return ok && s.State == transport.StateReady
		})
		e.Clk.Advance(10 * time.Second)
		if n := len(e.Srv.Requests()); n != 1 {
			t.Fatalf("%d requests after a stop during the wait", n)
		}
	})
}
