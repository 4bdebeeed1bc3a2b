package pet

import (
	"fmt"
	"math"
	"slices"
	"time"

	"yui/pet/transcript"
	"yui/transport"
	"yui/transport/clientctx"
)

// Transport events: the connection state, renders and turn ends, the tool
// segment, reasoning, delegations, and the playback queue's hooks.

// --- connection state ---

func (c *Controller) onState(e *transport.StateEvent) {
	leftReady, greet := false, false
	c.update(func() {
		if e.State == transport.StateReady && c.greetPending && !c.quiet {
			c.greetPending, greet = false, true
		}
		leftReady = c.view.Pill.ConnState == transport.StateReady && e.State != transport.StateReady
		c.setConnLocked(e)
		if leftReady && c.toolRunning {
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
	c.connTmr.Stop()
	c.view.Pill.ConnState = e.State
	switch {
	case e.State == transport.StateReconnecting && e.CloseCode == CloseTakenOver:
		c.takenOver = true
	case e.State == transport.StateReady || e.State == transport.StateKeyRejected:
		c.takenOver = false
	}
	switch e.State {
	case transport.StateIdle:
		c.view.Pill.Conn = ""
	case transport.StateReconnecting:
		c.retryAt = e.RetryAt
		if c.retryAt.IsZero() {
			c.retryAt = c.clock.Now().Add(e.RetryIn)
		}
		c.countdownLocked()
	case transport.StateInvalid:
		c.view.Pill.Conn = transport.StateInvalid.String()
		if e.Err != nil {
			c.view.Pill.Conn = e.Err.Error()
		}
	case transport.StateOffline:
		c.view.Pill.Conn = OfflineText
	case transport.StateReady:
		c.view.Pill.Conn = "ready"
		if e.AutoModel != "" {
			c.view.Pill.Conn = "ready · model " + e.AutoModel
		}
	default:
		c.view.Pill.Conn = e.State.String()
	}
}

// countdownLocked shows "reconnecting in N s" and re-arms itself for the
// moment N drops by one.
func (c *Controller) countdownLocked() {
	left := c.retryAt.Sub(c.clock.Now())
	n := int(math.Ceil(left.Seconds()))
	prefix := ""
	if c.takenOver {
		prefix = TakenOverText + " · "
	}
	if n <= 0 {
		c.view.Pill.Conn = prefix + "reconnecting"
		return
	}
	c.view.Pill.Conn = fmt.Sprintf("%sreconnecting in %d s", prefix, n)
	next := left - time.Duration(n-1)*time.Second
	c.connTmr.Arm(c.clock, next, func(gen int) {
		c.update(func() {
			if c.connTmr.Current(gen) {
				c.countdownLocked()
			}
		})
	})
}

// --- turns ---

func (c *Controller) onRender(e *transport.RenderEvent) {
	drop := false
	c.update(func() {
		if c.stopped.has(e.TurnID) {
			// A render dropped for a stopped turn abandons the reasoning
			// still streaming for it; a text a render finished stays.
			if c.reasoningStreaming && c.reasoningTurn == e.TurnID {
				c.clearReasoningLocked()
			}
			drop = true
			return
		}
		if e.Reasoning != nil && (!c.reasoningStreaming || c.reasoningTurn == e.TurnID) {
			// The render's reasoning replaces the streamed text, unless
			// another turn's reasoning is streaming.
			c.view.Reasoning = *e.Reasoning
			c.reasoningTurn = e.TurnID
			c.reasoningStreaming = false
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
		trig, own := c.running[id]
		c.stopped.remove(id)
		delete(c.running, id)
		if c.toolRunning && c.toolTurn == id {
			c.clearToolLocked()
		}
		if c.reasoningStreaming && c.reasoningTurn == id {
			c.clearReasoningLocked()
		}
		if e.Usage != nil {
			u := *e.Usage
			c.view.Usage = &u
		}
		c.armCheckInLocked()
		failure := ""
		if own && e.Outcome == transport.TurnFailed {
			text := transport.OneLine(e.ErrorText, ErrorTextMax)
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
		if c.stopped.has(e.TurnID) {
			return
		}
		c.toolTmr.Stop()
		c.rec.tool(e)
		c.toolTurn = e.TurnID
		c.view.Pill.Tool = e.ToolID + " " + e.State
		c.toolRunning = e.State == "running"
		if c.toolRunning {
			return
		}
		c.toolTmr.Arm(c.clock, ToolHold, func(gen int) {
			c.update(func() {
				if c.toolTmr.Current(gen) {
					c.clearToolLocked()
				}
			})
		})
	})
}

// ToolStatus shows the state of a tool the client runs itself (browser:
// push-transport.md has the client show its running and terminal state)
// in the status pill's tool segment, as a backend tool_status would.
func (c *Controller) ToolStatus(turnID, toolID, state string) {
	if c.isClosed() {
		return
	}
	c.onToolStatus(&transport.ToolStatusEvent{TurnID: turnID, OwnTurn: true, State: state, ToolID: toolID})
}

func (c *Controller) clearToolLocked() {
	c.toolTmr.Stop()
	c.view.Pill.Tool = ""
	c.toolRunning = false
	c.toolTurn = ""
}

// --- reasoning ---

func (c *Controller) clearReasoningLocked() {
	c.view.Reasoning = ""
	c.reasoningTurn = ""
	c.reasoningStreaming = false
}

func (c *Controller) onReasoning(e *transport.ReasoningEvent) {
	c.update(func() {
		if c.stopped.has(e.TurnID) {
			return
		}
		c.rec.reasoning(e.TurnID, e.Delta, false)
		if c.reasoningTurn == e.TurnID {
			// Cut as the transcript cuts it: a turn's reasoning may stream
			// without end.
			c.view.Reasoning = clientctx.Cut(c.view.Reasoning+e.Delta, transcript.MaxText)
		} else {
			c.view.Reasoning = e.Delta
			c.reasoningTurn = e.TurnID
		}
		c.reasoningStreaming = true
	})
}

// --- delegations ---

func (c *Controller) onDelegations(e *transport.DelegationsEvent) {
	c.update(func() {
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
	c.view.Delegations = kept
	if !next.IsZero() {
		c.delegTmr.Arm(c.clock, next.Sub(now), func(gen int) {
			c.update(func() {
				if c.delegTmr.Current(gen) {
					c.expireLocked()
				}
			})
		})
	}
}

// --- playback hooks ---

func (c *Controller) onCue(_ string, cue transport.Cue) {
	c.update(func() {
		if cue.EmotionID != "" {
			c.view.Emotion = cue.EmotionID
			c.mood.rest = "" // a turn's emotion outlasts the local mood
		}
		c.view.EmotionText = cue.EmotionText
		c.view.Caption = cue.Caption
		if cue.MotionID != "" {
			c.setCueMotionLocked(cue.MotionID)
		}
	})
}

// setCueMotionLocked plays a cue's motion: a looping one until the next
// cue motion or thinking or until the reply's bubble clears, a non-looping
// one once, then back to talk or idle.
func (c *Controller) setCueMotionLocked(id string) {
	c.motionTmr.Stop()
	c.cueMotion = id
	m, ok := c.pack.Motions[id]
	if ok && m.Loop {
		return
	}
	d := time.Second // a motion the pack lacks: show its id briefly
	if l := m.Length(); ok && l > 0 {
		d = l
	}
	c.motionTmr.Arm(c.clock, d, func(gen int) {
		c.update(func() {
			if c.motionTmr.Current(gen) {
				c.cueMotion = ""
			}
		})
	})
}

func (c *Controller) clearCueMotionLocked() {
	c.motionTmr.Stop()
	c.cueMotion = ""
}

func (c *Controller) onSpeech(_, text string) {
	c.update(func() {
		c.bubbleTmr.Stop()
		if text != "" {
			c.speaking = true
			c.view.Bubble = text
			return
		}
		c.speaking = false
		c.bubbleTmr.Arm(c.clock, c.hold, func(gen int) {
			c.update(func() {
				if c.bubbleTmr.Current(gen) {
					c.view.Bubble = ""
					c.bubbleTmr.Stop()
					// A looping cue motion belongs to the reply: when the
					// reply is over the character settles back to idle,
					// unless the motion is a posture it holds (sitting).
					if c.cueMotion != "" && c.cueMotion != "sit" {
						c.clearCueMotionLocked()
					}
				}
			})
		})
	})
}

func (c *Controller) onThinking(on bool) {
	c.update(func() {
		c.thinking = on
		if on {
			c.clearCueMotionLocked()
		}
	})
}
