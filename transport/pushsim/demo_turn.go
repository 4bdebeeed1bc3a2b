package pushsim

// One demo turn: the frames it plays in order, each a step the client may
// cut short by stopping the turn, and its turn_end.

import (
	"fmt"
	"strings"

	"yui/transport"
	"yui/transport/textcut"
)

// playTurn plays the k-th turn that does not fail.
func (d *demo) playTurn(t turnFrame, k int) error {
	id := t.TurnID
	steps, closing := d.turnSteps(t, k)
	for i, step := range steps {
		if i > 0 {
			if err := d.pause(); err != nil {
				return err
			}
		}
		if !d.live(id) {
			d.log.Info("sim_turn_cut", "turn_id", id)
			return d.sendTurnEnd(t)
		}
		if err := step(); err != nil {
			return err
		}
	}
	if err := d.sendTurnEnd(t); err != nil {
		return err
	}
	switch d.o.Break {
	case BreakRenderAfterTurnEnd:
		if err := d.c.Send(closing); err != nil {
			return err
		}
	case BreakReasoningAfterTurnEnd:
		if err := d.c.Send(frame{"type": "reasoning", "turn_id": id, "delta": " (an afterthought)"}); err != nil {
			return err
		}
	}
	d.scheduleReport(k)
	return nil
}

// sendTurnEnd ends the turn with a made-up usage (in strings, or the
// frame sent twice, when a break asks).
func (d *demo) sendTurnEnd(t turnFrame) error {
	u := any(usageFor(t.ClientContext+t.Text, t.Text))
	if d.o.Break == BreakUsageStrings {
		u = map[string]string{"input_tokens": "1200", "output_tokens": "80", "total_tokens": "1280"}
	}
	f := frame{"type": "turn_end", "turn_id": t.TurnID, "usage": u}
	if d.o.Break == BreakDoubleTurnEnd {
		return d.sendAll(f, f)
	}
	return d.c.Send(f)
}

// turnSteps are the k-th turn's frames, one step each, showing every kind
// the backend can send: reasoning, a tool's status, a tool call, a
// delegation, speech and the closing render, which it also returns (a
// break sends it after turn_end instead).
func (d *demo) turnSteps(t turnFrame, k int) (steps []func() error, closing frame) {
	id := t.TurnID
	reasoning := []string{"The user wrote something; ", "showing every frame the backend can send."}
	said := "You poked me!"
	if t.Text != "" {
		said = "You said: " + textcut.Cut(t.Text, 200)
	}
	speech := frame{"type": "speech", "turn_id": id, "source": Source,
		"segments": []transport.Segment{segment(said, d.emotionCue("happy")...)}}
	if d.o.Break == BreakRenderShape {
		speech["segments"] = map[string]string{"speech": said}
	}
	doneState := "done"
	if d.o.Break == BreakToolStatusState {
		doneState = "finished"
	}
	closing = frame{"type": "render", "turn_id": id, "source": Source,
		"reasoning": strings.Join(reasoning, ""),
		"segments":  []transport.Segment{segment("That was the render closing my reply.", d.cue(k))}}
	return []func() error{
		func() error { return d.c.Send(frame{"type": "reasoning", "turn_id": id, "delta": reasoning[0]}) },
		func() error { return d.c.Send(frame{"type": "reasoning", "turn_id": id, "delta": reasoning[1]}) },
		func() error {
			return d.c.Send(frame{"type": "tool_status", "turn_id": id, "state": "running", "tool_id": "web_search"})
		},
		func() error {
			return d.c.Send(frame{"type": "tool_status", "turn_id": id, "state": doneState, "tool_id": "web_search"})
		},
		func() error { return d.callTool(id, k) },
		func() error { return d.startDelegation(k) },
		func() error { return d.c.Send(speech) },
		func() error {
			return d.c.Send(frame{"type": "speech", "turn_id": id, "source": Source,
				"segments": []transport.Segment{segment("Let me show you what a backend can send.")}})
		},
		func() error { return d.sendClosing(id, closing) },
	}, closing
}

// startDelegation adds the k-th turn's background task to the list and
// sends the list.
func (d *demo) startDelegation(k int) error {
	title := fmt.Sprintf("Demo background task %d", k)
	if d.o.Break == BreakDelegationTitle {
		title += strings.Repeat(" and more", 20)
	} else {
		title = textcut.Cut(title, 120)
	}
	d.mu.Lock()
	d.items = append(d.items, transport.Delegation{ID: fmt.Sprintf("d-%d", k),
		Title: title, StartedAt: d.o.Clock.Now().UnixMilli(), State: "running"})
	d.mu.Unlock()
	return d.sendDelegations()
}

// sendClosing sends the turn's closing render, after the bad frame a
// break asks for, or not at all when the break sends it after turn_end.
func (d *demo) sendClosing(id string, closing frame) error {
	switch d.o.Break {
	case BreakFrameNotJSON:
		if err := d.c.SendRaw([]byte("still thinking...")); err != nil {
			return err
		}
	case BreakOversizeFrame:
		if err := d.c.Send(frame{"type": "render", "turn_id": id, "source": Source,
			"segments": []transport.Segment{segment(strings.Repeat("a", 300<<10))}}); err != nil {
			return err
		}
	case BreakRenderAfterTurnEnd:
		return nil // sent after turn_end by playTurn
	}
	return d.c.Send(closing)
}
