package playback

// Settle, the end of an item's life: a turn ends (TurnEnded), its utterance
// closes (CloseUtterances, or a frame of another turn), and once nothing of
// it is owed its playback record is saved (settle). Interrupt cuts every
// life short at once and records what was still owed.

import (
	"context"
	"strings"

	"yui/transport"
)

// TurnEnded closes the turn's utterance and ends its thinking motion; a
// failed turn the client sent speaks the failure line.
func (q *Queue) TurnEnded(ev *transport.TurnEndEvent) {
	q.step(func() string {
		id := ev.TurnID
		if t := q.turns[id]; t != nil {
			if t.thinking {
				q.endThinking(id, t)
			}
			if t.open {
				q.closeUtterance(id)
			}
			t.spoken = nil
			t.done = true
		}
		if ev.OwnTurn && ev.Outcome == transport.TurnFailed {
			if line := q.pick(q.opts.FailureLines); line != "" {
				q.items = append(q.items, &item{turn: id, kind: kindFailure, text: line})
			}
		}
		return id
	})
}

// CloseUtterances closes the open utterance: the socket left ready, so no
// more frames come for it. Sentences already queued finish playing.
func (q *Queue) CloseUtterances() {
	q.step(func() string {
		if q.open != "" {
			q.closeUtterance(q.open)
		}
		return ""
	})
}

// closeUtterance closes turn id's utterance: no more speech frames add to
// it, and its record settles once its speech has played.
func (q *Queue) closeUtterance(id string) {
	if t := q.turns[id]; t != nil {
		t.open = false
	}
	if q.open == id {
		q.open = ""
	}
	q.settle(id)
}

// owes reports whether reply playback of turn id is still to come.
func (q *Queue) owes(id string) bool {
	if q.cur != nil && q.cur.turn == id && q.cur.kind == kindReply {
		return true
	}
	for _, it := range q.items {
		if it.turn == id && it.kind == kindReply {
			return true
		}
	}
	return false
}

// settle saves turn id's playback record once its utterance is closed and
// its speech has played, and forgets a turn that has nothing left.
func (q *Queue) settle(id string) {
	t := q.turns[id]
	if t == nil {
		return
	}
	if t.pending && !t.open && !q.owes(id) {
		rec := transport.PlaybackRecord{TurnID: id}
		if t.failed != "" {
			rec.Outcome = transport.PlaybackFailed
			rec.Reason = t.failed
			if t.own {
				q.emitFailed(id)
			}
		}
		q.last = rec
		t.pending = false
		t.failed = ""
	}
	if t.done && !t.pending && !t.thinking && !t.open {
		delete(q.turns, id)
	}
}

func (q *Queue) emitFailed(turn string) {
	if f := q.opts.ReportFailed; f != nil {
		q.out.Put(func() { f(turn) })
	}
}

// Interrupt is what the three speech-stopping user actions do: playback
// stops at once, every queued sentence and waiting cue is dropped, the
// thinking motion ends, and the turns the queue knew are forgotten. When
// reply speech was still owed it saves and returns an interrupted record
// naming the cut utterance's turn, with everything still owed as Unspoken
// (a failed record instead when that turn's speech had already failed).
func (q *Queue) Interrupt() (rec transport.PlaybackRecord, ok bool) {
	q.step(func() string {
		rec, ok = q.owedRecord()
		if ok {
			q.last = rec
		}
		q.stopLocked()
		q.turns = make(map[string]*turnState)
		q.open = ""
		if q.thinkingN > 0 {
			q.thinkingN = 0
			q.emitThinking(false)
		}
		if q.speaking {
			q.speaking = false
			q.emitSpeech("", "")
		}
		return ""
	})
	return rec, ok
}

// owedRecord is the record of the reply speech still owed, playing or
// queued, naming the first owed sentence's turn; ok is false when none is
// owed.
func (q *Queue) owedRecord() (rec transport.PlaybackRecord, ok bool) {
	var owed []string
	var id string
	collect := func(it *item) {
		if it.kind != kindReply || it.text == "" {
			return
		}
		if id == "" {
			id = it.turn
		}
		owed = append(owed, it.text)
	}
	if q.cur != nil {
		collect(q.cur)
	}
	for _, it := range q.items {
		collect(it)
	}
	if id == "" {
		return rec, false
	}
	if t := q.turns[id]; t != nil && t.failed != "" {
		if t.own {
			q.emitFailed(id)
		}
		return transport.PlaybackRecord{TurnID: id, Outcome: transport.PlaybackFailed, Reason: t.failed}, true
	}
	return transport.PlaybackRecord{TurnID: id, Outcome: transport.PlaybackInterrupted, Unspoken: strings.Join(owed, " ")}, true
}

// stopLocked stops the playing clip, abandons synthesis and drops
// everything queued or waiting.
func (q *Queue) stopLocked() {
	q.stopCur()
	// Cancelling the queue's context abandons every synthesis under way.
	q.cancel()
	q.ctx, q.cancel = context.WithCancel(context.Background())
	q.items = nil
	q.boundary = nil
	q.held = nil
}
