package playback

// A turn's flow through the queue, in the order it happens: the client
// sends it (TurnStarted: thinking motion, filler line), its renders and
// speech frames play (Render), it ends (TurnEnded, CloseUtterances), and
// its record settles once nothing of it is owed (settle). Playing the
// sentences themselves is play.go; stopping them is interrupt.go.

import (
	"yui/transport"
)

// turn returns the state of id, creating it.
func (q *Queue) turn(id string, own bool) *turnState {
	t := q.turns[id]
	if t == nil {
		t = &turnState{}
		q.turns[id] = t
	}
	t.own = t.own || own
	return t
}

// TurnStarted tells the queue the client sent turn id: the thinking motion
// plays and a filler line is spoken until its first render.
func (q *Queue) TurnStarted(id string) {
	q.do(func() {
		t := q.turn(id, true)
		if t.thinking {
			return
		}
		t.thinking = true
		q.thinkingN++
		if q.thinkingN == 1 {
			q.emitThinking(true)
		}
		if line := q.pick(q.opts.FillerLines); line != "" {
			q.items = append(q.items, &item{turn: id, kind: kindFiller, text: line})
			q.advance()
		}
	})
}

func (q *Queue) pick(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return lines[q.rand(len(lines))]
}

// Render plays a render or speech event.
func (q *Queue) Render(ev *transport.RenderEvent) {
	q.do(func() { q.render(ev) })
}

func (q *Queue) render(ev *transport.RenderEvent) {
	id := ev.TurnID
	if q.open != "" && q.open != id {
		q.closeUtterance(q.open)
	}
	t := q.turn(id, ev.OwnTurn)
	if t.thinking {
		q.endThinking(id, t)
	}
	t.pending = true
	t.done = false
	if t.spoken == nil {
		t.spoken = make(map[string]bool)
	}

	// Sentences of this frame count as spoken only after the frame: a
	// reply may say the same short sentence twice on purpose ("No. No.").
	var keys []string
	var carry []transport.Cue // silent-segment cues placed before the next sentence
	queued := false
	dropped := 0
	for _, seg := range ev.Segments {
		var fresh []string
		if !seg.Silent() {
			for _, s := range splitSentences(seg.Speech) {
				k := sentenceKey(s)
				if t.spoken[k] {
					continue
				}
				keys = append(keys, k)
				fresh = append(fresh, s)
			}
		}
		if len(fresh) == 0 {
			switch {
			case queued:
				// After speech of this same frame: its boundary is the
				// end of that speech, which keeps the segments in order.
				carry = append(carry, seg.Cues...)
			case q.owed():
				for _, c := range seg.Cues {
					if len(q.boundary) >= MaxQueued {
						dropped++
						break
					}
					q.boundary = append(q.boundary, heldCue{id, c})
				}
			default:
				for _, c := range seg.Cues {
					q.fire(id, c)
				}
			}
			continue
		}
		cues := append(carry, seg.Cues...)
		carry = nil
		for i, s := range fresh {
			if len(q.items) >= MaxQueued {
				dropped++
				continue
			}
			it := &item{turn: id, kind: kindReply, text: s}
			if i == 0 {
				it.cues = cues
			}
			q.items = append(q.items, it)
		}
		queued = true
	}
	if len(carry) > 0 {
		if len(q.items) < MaxQueued {
			q.items = append(q.items, &item{turn: id, kind: kindReply, cues: carry})
		} else {
			dropped++
		}
	}
	for _, k := range keys {
		t.spoken[k] = true
	}
	if dropped > 0 {
		q.log.Warn("speech_dropped", "turn_id", id, "dropped", dropped, "reason", "queue_full")
	}

	if ev.Kind == transport.KindSpeech {
		t.open = true
		q.open = id
	} else {
		t.open = false
		if q.open == id {
			q.open = ""
		}
		t.spoken = nil
		t.done = true
	}
	q.advance()
	q.settle(id)
}

// TurnEnded closes the turn's utterance and ends its thinking motion; a
// failed turn the client sent speaks the failure line.
func (q *Queue) TurnEnded(ev *transport.TurnEndEvent) {
	q.do(func() {
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
		q.advance()
		q.settle(id)
	})
}

// CloseUtterances closes the open utterance: the socket left ready, so no
// more frames come for it. Sentences already queued finish playing.
func (q *Queue) CloseUtterances() {
	q.do(func() {
		if q.open != "" {
			q.closeUtterance(q.open)
		}
	})
}

func (q *Queue) closeUtterance(id string) {
	if t := q.turns[id]; t != nil {
		t.open = false
	}
	if q.open == id {
		q.open = ""
	}
	q.settle(id)
}

// endThinking ends turn id's thinking motion and its filler line, cut
// mid-sentence when it plays ("speaks the filler line, until the first
// render"); the caller advances. When no other turn thinks, the cues held
// for the motion land.
func (q *Queue) endThinking(id string, t *turnState) {
	t.thinking = false
	q.thinkingN--
	if q.cur != nil && q.cur.turn == id && q.cur.kind == kindFiller {
		q.stopCur()
		q.fireBoundary()
	}
	kept := q.items[:0]
	for _, it := range q.items {
		if it.turn == id && it.kind == kindFiller {
			release(it)
			continue
		}
		kept = append(kept, it)
	}
	clear(q.items[len(kept):])
	q.items = kept
	if q.thinkingN > 0 {
		return
	}
	q.emitThinking(false)
	held := q.held
	q.held = nil
	for _, h := range held {
		q.fire(h.turn, h.cue)
	}
}

// fire renders a cue, unless the thinking motion plays: then it lands when
// the motion ends. Only a turn the client sent thinks, and its own first
// frame ends its thinking before its cues fire, so any cue seen here while
// thinking belongs to another turn.
func (q *Queue) fire(turn string, c transport.Cue) {
	if q.thinkingN > 0 {
		q.held = append(q.held, heldCue{turn, c})
		return
	}
	q.emitCue(turn, c)
}

// owed reports whether speech is playing or queued.
func (q *Queue) owed() bool { return q.cur != nil || len(q.items) > 0 }

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
