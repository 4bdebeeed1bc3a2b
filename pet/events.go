package pet

import (
	"slices"
	"time"

	"yui/pet/transcript"
	"yui/transport"
	"yui/transport/textcut"
)

// Transport events: the connection state (its pill text is conn.go's),
// renders and turn ends, the tool segment, reasoning and delegations. The
// playback queue's effects go to the stage (stage.go).

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
		c.conn.set(e)
		if leftReady && c.tool.running {
			// A running tool that gets no done is cleared by the socket
			// leaving ready.
			c.tool.clear(&c.view.Pill)
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

// --- turns ---

func (c *Controller) onRender(e *transport.RenderEvent) {
	drop := false
	c.update(func() {
		if c.turns.stopped.has(e.TurnID) {
			// A render dropped for a stopped turn abandons the reasoning
			// still streaming for it; a text a render finished stays.
			if c.reason.streaming && c.reason.turn == e.TurnID {
				c.reason.clear(&c.view)
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
			c.tool.clear(&c.view.Pill)
		}
		if c.reason.streaming && c.reason.turn == id {
			c.reason.clear(&c.view)
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
		c.timers.arm(&c.tool.tmr, ToolHold, func() { c.tool.clear(&c.view.Pill) })
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

// --- reasoning ---

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
	c.delegTmr.Stop()
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
		c.timers.arm(&c.delegTmr, next.Sub(now), c.expireLocked)
	}
}
