package request

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"yui/transport"
	"yui/transport/apierror"
)

// MaxRetryAfter is the longest Retry-After a rate-limited request waits
// out (once) before it is sent again; a longer one fails the turn with the
// server's error line.
const MaxRetryAfter = 30 * time.Second

// rateLimited is a 429 or 503 answer that says when to come back. It reads
// as its apierror.StatusError, so a turn it fails reports the server's line.
type rateLimited struct {
	wait time.Duration
	se   *apierror.StatusError
}

func (r *rateLimited) Error() string { return r.se.Error() }
func (r *rateLimited) Unwrap() error { return r.se }

// limited wraps se when resp is a 429 or 503 with a Retry-After that can
// be read; otherwise it answers se.
func limited(resp *http.Response, now time.Time, se *apierror.StatusError) error {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return se
	}
	wait, ok := retryAfter(resp.Header.Get("Retry-After"), now)
	if !ok {
		return se
	}
	return &rateLimited{wait: wait, se: se}
}

// retryAfter reads a Retry-After value: delay seconds, or an HTTP date
// (a date already past is no wait).
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		if n > int64(time.Hour/time.Second) {
			n = int64(time.Hour / time.Second) // far past the limit; no overflow
		}
		return time.Duration(n) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(at.Sub(now), 0), true
}

// sendWaiting is send, which waits out a rate limit of at most
// MaxRetryAfter once, with the pill counting it down, and sends again.
// Stopping the turn ends the wait.
func (e *Engine) sendWaiting(t *turn, ex Exchange, r *reply, p Params) (int, error) {
	est, err := e.send(t, ex, r, p)
	rl, ok := err.(*rateLimited)
	if !ok {
		return est, err
	}
	if rl.wait > MaxRetryAfter || r.heard {
		return est, rl.se
	}
	e.log.Warn("rate_limited", "turn_id", t.id, "status", rl.se.Status, "retry_in_s", rl.wait.Seconds())
	if err := e.waitOut(t.ctx, rl.wait); err != nil {
		return est, err
	}
	est, err = e.send(t, ex, r, p)
	if rl, ok := err.(*rateLimited); ok {
		return est, rl.se // waited once already: the server's line
	}
	return est, err
}

// waitOut waits d on the engine's clock, showing "rate limited" with the
// moment of the retry, or until ctx ends (the stop button).
func (e *Engine) waitOut(ctx context.Context, d time.Duration) error {
	// Armed before the state goes out: whoever sees the state and moves
	// the clock finds the timer there.
	at := e.clk.Now().Add(d)
	done := make(chan struct{})
	tm := e.clk.AfterFunc(d, func() { close(done) })
	defer tm.Stop()
	e.setState(transport.StateEvent{State: transport.StateRateLimited, RetryAt: at, RetryIn: d})
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		// The server answered: it is reachable, only busy.
		e.setState(transport.StateEvent{State: transport.StateReady})
		return context.Cause(ctx)
	}
}
