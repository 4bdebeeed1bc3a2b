package pet

import (
	"strings"

	"yui/transport"
)

// The user's actions and the turns the app starts: each sends a turn or
// stops speech, as docs/protocol/push-transport.md's speech-stopping actions say.

// --- user actions ---

// SendText starts a typed turn (it stops speech first). Text and
// attachments both empty are ignored.
func (c *Controller) SendText(text string, attachments []transport.Image) {
	if strings.TrimSpace(text) == "" && len(attachments) == 0 {
		return
	}
	c.update(func() { c.view.ErrorLine = "" })
	shot := c.screenshot(transport.TriggerUserMessage)
	c.interrupt(false)
	c.send(transport.Turn{Trigger: transport.TriggerUserMessage, Text: text, Attachments: attachments, Screenshot: shot})
}

// VoiceTurn starts a spoken turn with the transcript text (it stops speech
// first). Empty text is ignored.
func (c *Controller) VoiceTurn(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	c.update(func() { c.view.Pill.Voice = "" })
	shot := c.screenshot(transport.TriggerUserVoice)
	c.interrupt(false)
	c.send(transport.Turn{Trigger: transport.TriggerUserVoice, Text: text, Screenshot: shot})
}

// screenshot is the screenshot a user turn carries (Options.Screenshot).
func (c *Controller) screenshot(trigger transport.Trigger) *transport.Screenshot {
	if c.hooks.shot == nil || c.isClosed() {
		return nil
	}
	return c.hooks.shot(trigger)
}

// BargeIn is voice barge-in: speech detected while the pet speaks stops
// speech and the outstanding turns, without telling the backend.
func (c *Controller) BargeIn() { c.interrupt(false) }

// Poke starts a poke turn (a click on the pet). It does not stop speech.
func (c *Controller) Poke() { c.send(transport.Turn{Trigger: transport.TriggerPoke}) }

// Greeting starts the greeting turn (first turn after start, when the
// preset enables it).
func (c *Controller) Greeting() {
	c.send(transport.Turn{Trigger: transport.TriggerGreeting})
}

// CheckIn starts an idle-timer check-in turn.
func (c *Controller) CheckIn() {
	c.send(transport.Turn{Trigger: transport.TriggerCheckIn})
}

// Address starts a turn another character started through
// address_character: trigger "addressed by <from>", text its message.
func (c *Controller) Address(from, text string) {
	c.send(transport.Turn{Trigger: transport.TriggerAddressedBy(from), Text: text})
}

// Stop is the stop button: it stops speech and the running turns, and
// tells the backend.
func (c *Controller) Stop() { c.interrupt(true) }

// Busy reports whether a turn is being sent or runs: what the stop button
// stands for right now. The view says it too, but a moment later: the
// turn is sent before the view that shows it running is published and
// drawn, and a stop pressed in between must not be taken for a send.
func (c *Controller) Busy() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.turns.sending > 0 || len(c.turns.running) > 0
}

// Reset starts a new conversation: it stops what runs, tells the
// transport (push reset frame, a Chat Completions transcript boundary, a
// cleared Responses previous_response_id) and marks it in the transcript.
func (c *Controller) Reset() {
	if c.isClosed() {
		return
	}
	c.interrupt(true)
	c.t.Reset()
	c.lockFlow()
	defer c.unlockFlow()
	c.update(func() {
		c.rec.reset()
		c.view.Usage = nil
	})
}

// SetQuiet switches do-not-disturb: while it is on no greeting or
// check-in turn starts. A greeting held back goes once it ends, if the
// connection is ready; the check-in waits another round.
func (c *Controller) SetQuiet(on bool) {
	if c.isClosed() {
		return
	}
	greet := false
	c.update(func() {
		c.quiet = on
		if !on && c.idle.greetPending && c.view.Pill.ConnState == transport.StateReady {
			c.idle.greetPending, greet = false, true
		}
	})
	if greet {
		c.clock.AfterFunc(0, c.Greeting)
	}
}

// armCheckInLocked (re)starts the idle check-in wait from now.
func (c *Controller) armCheckInLocked() {
	if c.idle.every <= 0 {
		return
	}
	c.idle.tmr.Arm(c.clock, c.idle.every, func(gen int) {
		fire := false
		c.update(func() {
			current := c.idle.tmr.Current(gen)
			fire = current && len(c.turns.running) == 0 && c.view.Pill.ConnState == transport.StateReady && !c.quiet
			if current && !fire {
				c.armCheckInLocked() // busy, offline or do-not-disturb: wait another round
			}
		})
		if fire && c.idle.gate != nil && !c.idle.gate.AllowCheckIn() {
			c.update(c.armCheckInLocked) // capped or quiet hours: wait another round
			return
		}
		if fire {
			c.CheckIn()
		}
	})
}

// SetVoiceStatus sets the pill's voice segment ("listening",
// "transcribing", a transcription error, or "").
func (c *Controller) SetVoiceStatus(s string) { c.update(func() { c.view.Pill.Voice = s }) }

// SpeechOwed reports whether the playback queue still owes speech; the
// transport's Options.SpeechOwed calls it.
func (c *Controller) SpeechOwed() bool { return c.queue.Owed() }

// LastPlayback is the playback record the next turn's "previous turn:"
// line will carry.
func (c *Controller) LastPlayback() transport.PlaybackRecord { return c.queue.LastRecord() }

// interrupt is what the three speech-stopping user actions share: the
// transport stops every outstanding turn, playback stops at once and
// records what was owed, and the composer unlocks.
func (c *Controller) interrupt(notifyBackend bool) {
	if c.isClosed() {
		return
	}
	ids := c.t.Interrupt(notifyBackend)
	c.lockFlow()
	defer c.unlockFlow()
	c.queue.Interrupt()
	c.update(func() {
		// Reasoning still showing stays until the stopped turn's end or
		// its dropped render ends it.
		for _, id := range ids {
			c.turns.stopped.add(id)
		}
		// Interrupt stops every outstanding turn: the running state ends
		// now, not when the stopped turn ends arrive.
		clear(c.turns.running)
		if c.tool.running {
			c.tool.clear(&c.view.Pill)
		}
		c.stage.clearCueMotion()
	})
}

// send starts turn t with the previous playback record and the character
// state, and shows it running.
func (c *Controller) send(t transport.Turn) string {
	if c.isClosed() {
		return ""
	}
	t.Previous = c.queue.TakeRecord()
	c.mu.Lock()
	t.Character = transport.CharacterState{Name: c.pack.Name, Emotion: c.view.Emotion}
	c.mu.Unlock()
	if c.hooks.place != nil {
		t.Character.Place = c.hooks.place()
	}
	c.mu.Lock()
	c.turns.sending++
	c.mu.Unlock()
	// Send may emit events, so flow is not held across it.
	id := c.t.Send(t)
	c.lockFlow()
	defer c.unlockFlow()
	c.queue.TurnStarted(id)
	var early []transport.Event
	c.update(func() {
		c.rec.user(id, t)
		c.armCheckInLocked()
		c.turns.sending--
		c.turns.sent.add(id)
		c.turns.running[id] = t.Trigger
		// This turn's held frames play now; once no Send is under way,
		// so do any others (a late frame of a turn sent long ago).
		keep := c.turns.early[:0]
		for _, ev := range c.turns.early {
			if ownTurnOf(ev) == id || c.turns.sending == 0 {
				early = append(early, ev)
			} else {
				keep = append(keep, ev)
			}
		}
		clear(c.turns.early[len(keep):])
		c.turns.early = keep
	})
	for _, ev := range early {
		c.dispatch(ev)
	}
	return id
}
