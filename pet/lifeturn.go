package pet

import (
	"yui/pet/life"
	"yui/transport"
)

// The voice segments of the pill while an utterance is captured or
// transcribed: pet/voice/voice.go's StatusListening and
// StatusTranscribing (pet/voice's tests import pet, so pet cannot import it).
const (
	voiceListening    = "listening"
	voiceTranscribing = "transcribing"
)

// The turns Yui starts on her own (pet/life decides when): the
// controller says when it cannot take one, and starts the one decided.

// LifeGate is why the pet cannot take a turn of her own now
// (docs/product.md §11): a turn runs or is being sent, voice input is
// listening or transcribing (busy); do-not-disturb is on (hidden); the
// connection is not ready (offline). The composer and the window's own
// visibility are the window's to tell. It only reads state under mu.
func (c *Controller) LifeGate() life.Reason {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		return life.ReasonOffline
	case len(c.turns.running) > 0 || c.turns.sending > 0:
		return life.ReasonBusy
	case c.view.Pill.Voice == voiceListening || c.view.Pill.Voice == voiceTranscribing:
		return life.ReasonBusy
	case c.quiet:
		return life.ReasonHidden
	case c.view.Pill.ConnState != transport.StateReady:
		return life.ReasonOffline
	}
	return life.ReasonNone
}

// LifeTurn starts a turn Yui starts on her own: text "", its trigger and,
// for a screen watch, its screenshot. It does not stop speech (none
// plays: LifeGate held it back while a turn ran). False once closed.
func (c *Controller) LifeTurn(t life.Turn) bool {
	if c.isClosed() {
		return false
	}
	return c.send(transport.Turn{Trigger: t.Trigger, Screenshot: t.Screenshot}) != ""
}
