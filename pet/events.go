package pet

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"yui/pet/transcript"
	"yui/transport"
	"yui/transport/textcut"
)

// Transport events: the connection state, renders and turn ends, the tool
// segment, reasoning and delegations. The playback queue's effects go
// to the stage (stage.go).

// --- connection state ---

func (c *Controller) onState(e *transport.StateEvent) {
	leftReady, greet := false, false
	c.update(func() {
		if e.State == transport.StateReady && c.idle.greetPending && !c.quiet {
			c.idle.greetPending, greet = false, true
		}
		// A rate limit being waited out is no lost connection: the turn
		// goes on after it.
		leftReady = c.view.Pill.ConnState == transport.StateReady && e.State != transport.StateReady &&
			e.State != transport.StateRateLimited
		c.setConnLocked(e)
		if leftReady && c.tool.running {
			// A running tool that gets no done is cleared by the socket
			// leaving ready.
			c.clearToolLocked()
		}
	})
	if leftReady {
		c.queue.CloseUtterances()
	}
	if greet {
		// Sending needs the flow lock this event holds: the greeting
		// goes from the clock's goroutine, at once.
		c.clock.AfterFunc(0, c.Greeting)
	}
}

func (c *Controller) setConnLocked(e *transport.StateEvent) {
	c.conn.tmr.Stop()
	c.view.Pill.ConnState = e.State
	switch {
	case e.State == transport.StateReconnecting && e.CloseCode == CloseTakenOver:
		c.conn.takenOver = true
	case e.State == transport.StateReady || e.State == transport.StateKeyRejected:
		c.conn.takenOver = false
	}
	switch e.State {
	case transport.StateIdle:
		c.view.Pill.Conn = ""
	case transport.StateReconnecting, transport.StateRateLimited:
		c.conn.retryAt = e.RetryAt
		if c.conn.retryAt.IsZero() {
			c.conn.retryAt = c.clock.Now().Add(e.RetryIn)
		}
		c.countdownLocked()
	case transport.StateInvalid:
		c.view.Pill.Conn = transport.StateInvalid.String()
		if e.Err != nil {
			c.view.Pill.Conn = e.Err.Error()
		}
	case transport.StateOffline:
		text := OfflineText
		var nm *transport.NoModelError
		if errors.As(e.Err, &nm) {
			text = nm.Error()
		}
		c.view.Pill.Conn = text
		if !e.RetryAt.IsZero() && nm == nil {
			// A request transport probing again: the countdown to it
			// (a missing model keeps its hint, which is what to do).
			c.conn.retryAt = e.RetryAt
			c.countdownLocked()
		}
	case transport.StateReady:
		c.view.Pill.Conn = ReadyText(e)
	case transport.StateKeyRejected:
		c.view.Pill.Conn = e.State.String()
		var kn *transport.KeyNeededError
		if errors.As(e.Err, &kn) {
			c.view.Pill.Conn = kn.Error() // a local server: where its key is
		}
	default:
		c.view.Pill.Conn = e.State.String()
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

// countdownLocked shows "reconnecting in N s" (or "rate limited: retrying
// in N s") and re-arms itself for the
// moment N drops by one.
func (c *Controller) countdownLocked() {
	left := c.conn.retryAt.Sub(c.clock.Now())
	n := int(math.Ceil(left.Seconds()))
	prefix, what := "", "reconnecting"
	if c.conn.takenOver {
		prefix = TakenOverText + " · "
	}
	switch c.view.Pill.ConnState {
	case transport.StateRateLimited:
		prefix, what = "", "rate limited: retrying"
	case transport.StateOffline:
		prefix, what = "", OfflineRetryText
	}
	if n <= 0 {
		c.view.Pill.Conn = prefix + what
		return
	}
	c.view.Pill.Conn = fmt.Sprintf("%s%s in %d s", prefix, what, n)
	next := left - time.Duration(n-1)*time.Second
	c.conn.tmr.Arm(c.clock, next, func(gen int) {
		c.update(func() {
			if c.conn.tmr.Current(gen) {
				c.countdownLocked()
			}
		})
	})
}

// --- turns ---

func (c *Controller) onRender(e *transport.RenderEvent) {
	drop := false
	c.update(func() {
		if c.turns.stopped.has(e.TurnID) {
			// A render dropped for a stopped turn abandons the reasoning
			// still streaming for it; a text a render finished stays.
			if c.reason.streaming && c.reason.turn == e.TurnID {
				c.clearReasoningLocked()
			}
			drop = true
			return
		}
		if e.Reasoning != nil && (!c.reason.streaming || c.reason.turn == e.TurnID) {
			// The render's reasoning replaces the streamed text, unless
			// another turn's reasoning is streaming.
			c.view.Reasoning = *e.Reasoning
			c.reason.turn = e.TurnID
			c.reason.streaming = false
		}
	})
	if !drop {
		c.rec.render(e)
		c.queue.Render(e)
	}
}

func (c *Controller) onTurnEnd(e *transport.TurnEndEvent) {
	c.update(func() {
		id := e.TurnID
		trig, own := c.turns.running[id]
		c.turns.stopped.remove(id)
		delete(c.turns.running, id)
		if c.tool.running && c.tool.turn == id {
			c.clearToolLocked()
		}
		if c.reason.streaming && c.reason.turn == id {
			c.clearReasoningLocked()
		}
		if e.Usage != nil {
			u := *e.Usage
			c.view.Usage = &u
		}
		c.armCheckInLocked()
		failure := ""
		if own && e.Outcome == transport.TurnFailed {
			text := textcut.OneLine(e.ErrorText, ErrorTextMax)
			if text == "" {
				text = GenericFailureText
			}
			failure = text
			switch trig {
			case transport.TriggerUserMessage:
				c.view.ErrorLine = text
			case transport.TriggerUserVoice:
				c.view.Pill.Voice = text
			}
		}
		c.rec.turnEnd(e, failure)
	})
	c.queue.TurnEnded(e)
}

// --- tool segment ---

func (c *Controller) onToolStatus(e *transport.ToolStatusEvent) {
	c.update(func() {
		if c.turns.stopped.has(e.TurnID) {
			return
		}
		c.tool.tmr.Stop()
		c.rec.tool(e, c.clock.Now())
		c.tool.turn = e.TurnID
		c.view.Pill.Tool = e.ToolID + " " + e.State
		c.tool.running = e.State == "running"
		if c.tool.running {
			return
		}
		c.tool.tmr.Arm(c.clock, ToolHold, func(gen int) {
			c.update(func() {
				if c.tool.tmr.Current(gen) {
					c.clearToolLocked()
				}
			})
		})
	})
}

// ToolStatus shows the state of a tool the client runs itself (browser:
// docs/protocol/push-transport.md has the client show its running and terminal state)
// in the status pill's tool segment, as a backend tool_status would.
func (c *Controller) ToolStatus(turnID, toolID, state string) {
	if c.isClosed() {
		return
	}
	c.onToolStatus(&transport.ToolStatusEvent{TurnID: turnID, OwnTurn: true, State: state, ToolID: toolID})
}

func (c *Controller) clearToolLocked() {
	c.tool.tmr.Stop()
	c.view.Pill.Tool = ""
	c.tool.running = false
	c.tool.turn = ""
}

// --- reasoning ---

func (c *Controller) clearReasoningLocked() {
	c.view.Reasoning = ""
	c.reason.turn = ""
	c.reason.streaming = false
}

func (c *Controller) onReasoning(e *transport.ReasoningEvent) {
	c.update(func() {
		if c.turns.stopped.has(e.TurnID) {
			return
		}
		c.rec.reasoning(e.TurnID, e.Delta, false)
		if c.reason.turn == e.TurnID {
			// Cut as the transcript cuts it: a turn's reasoning may stream
			// without end.
			c.view.Reasoning = textcut.Cut(c.view.Reasoning+e.Delta, transcript.MaxText)
		} else {
			c.view.Reasoning = e.Delta
			c.reason.turn = e.TurnID
		}
		c.reason.streaming = true
	})
}

// --- delegations ---

func (c *Controller) onDelegations(e *transport.DelegationsEvent) {
	c.update(func() {
		// The lists are compared here, once per frame, rather than with
		// the whole view on every change (changedLocked).
		if !slices.Equal(c.view.Delegations, e.Items) || !slices.Equal(c.view.History, e.History) {
			c.pub.listsChanged = true
		}
		c.view.Delegations = slices.Clone(e.Items)
		c.view.History = slices.Clone(e.History)
		c.expireLocked()
	})
}

// expireLocked removes done items past DelegationKeep and arms a timer for
// the next one to go.
func (c *Controller) expireLocked() {
	c.tmr.deleg.Stop()
	now := c.clock.Now()
	var next time.Time
	kept := c.view.Delegations[:0]
	for _, d := range c.view.Delegations {
		if d.State == "done" && d.EndedAt > 0 {
			at := time.UnixMilli(d.EndedAt).Add(DelegationKeep)
			if !now.Before(at) {
				continue
			}
			if next.IsZero() || at.Before(next) {
				next = at
			}
		}
		kept = append(kept, d)
	}
	if len(kept) != len(c.view.Delegations) {
		c.pub.listsChanged = true
	}
	c.view.Delegations = kept
	if !next.IsZero() {
		c.tmr.deleg.Arm(c.clock, next.Sub(now), func(gen int) {
			c.update(func() {
				if c.tmr.deleg.Current(gen) {
					c.expireLocked()
				}
			})
		})
	}
}
