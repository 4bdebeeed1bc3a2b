package pet

import (
	"errors"
	"fmt"
	"math"
	"time"

	"yui/transport"
	"yui/transport/clock"
)

// connStatus is the pill's connection text: the words of the connection
// state, or the countdown to the next attempt. It is part of the
// controller's state, under mu, and writes the view's pill; its countdown
// ticks through update (lockedTimers).
type connStatus struct {
	pill   *Pill // the controller's view's
	timers lockedTimers

	retryAt   time.Time  // what the countdown counts down to
	tmr       clock.Slot // the reconnect countdown ticks
	takenOver bool       // the last close was 4409: another client has the chat
}

// set shows state e: its words, or the countdown to the next attempt.
func (s *connStatus) set(e *transport.StateEvent) {
	s.tmr.Stop()
	s.pill.ConnState = e.State
	switch {
	case e.State == transport.StateReconnecting && e.CloseCode == CloseTakenOver:
		s.takenOver = true
	case e.State == transport.StateReady || e.State == transport.StateKeyRejected:
		s.takenOver = false
	}
	switch e.State {
	case transport.StateIdle:
		s.pill.Conn = ""
	case transport.StateReconnecting, transport.StateRateLimited:
		s.retryAt = e.RetryAt
		if s.retryAt.IsZero() {
			s.retryAt = s.timers.clock.Now().Add(e.RetryIn)
		}
		s.countdown()
	case transport.StateInvalid:
		s.pill.Conn = transport.StateInvalid.String()
		if e.Err != nil {
			s.pill.Conn = e.Err.Error()
		}
	case transport.StateOffline:
		text := OfflineText
		var nm *transport.NoModelError
		if errors.As(e.Err, &nm) {
			text = nm.Error()
		}
		s.pill.Conn = text
		if !e.RetryAt.IsZero() && nm == nil {
			// A request transport probing again: the countdown to it
			// (a missing model keeps its hint, which is what to do).
			s.retryAt = e.RetryAt
			s.countdown()
		}
	case transport.StateReady:
		s.pill.Conn = ReadyText(e)
	case transport.StateKeyRejected:
		s.pill.Conn = e.State.String()
		var kn *transport.KeyNeededError
		if errors.As(e.Err, &kn) {
			s.pill.Conn = kn.Error() // a local server: where its key is
		}
	default:
		s.pill.Conn = e.State.String()
	}
}

// ReadyText is the pill's text for a ready state: "ready", "ready · model
// qwen3:8b" for a model the transport picked, "ready · Ollama · qwen3:8b"
// for a local server it named.
func ReadyText(e *transport.StateEvent) string {
	switch {
	case e.Server != "" && e.Model != "":
		return "ready · " + e.Server + " · " + e.Model
	case e.Server != "":
		return "ready · " + e.Server
	case e.AutoModel != "":
		return "ready · model " + e.AutoModel
	}
	return "ready"
}

// countdown shows "reconnecting in N s" (or "rate limited: retrying
// in N s") and re-arms itself for the
// moment N drops by one.
func (s *connStatus) countdown() {
	left := s.retryAt.Sub(s.timers.clock.Now())
	n := int(math.Ceil(left.Seconds()))
	prefix, what := "", "reconnecting"
	if s.takenOver {
		prefix = TakenOverText + " · "
	}
	switch s.pill.ConnState {
	case transport.StateRateLimited:
		prefix, what = "", "rate limited: retrying"
	case transport.StateOffline:
		prefix, what = "", OfflineRetryText
	}
	if n <= 0 {
		s.pill.Conn = prefix + what
		return
	}
	s.pill.Conn = fmt.Sprintf("%s%s in %d s", prefix, what, n)
	next := left - time.Duration(n-1)*time.Second
	s.timers.arm(&s.tmr, next, s.countdown)
}
