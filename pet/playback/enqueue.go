package playback

// Enqueue, the first part of an item's life: a turn the client sent starts
// (TurnStarted: the thinking motion, a filler line) and its renders and
// speech frames become items and waiting cues (Render). Nothing here plays
// or settles: step.go advances and settles once the event is in.

import (
	"yui/transport"
)

// TurnStarted tells the queue the client sent turn id: the thinking motion
// plays and a filler line is spoken until its first render.
func (q *Queue) TurnStarted(id string) {
	q.step(func() string {
		t := q.turn(id, true)
		if t.thinking {
			return ""
		}
		t.thinking = true
		q.thinkingN++
		if q.thinkingN == 1 {
			q.emitThinking(true)
		}
		if line := q.pick(q.opts.FillerLines); line != "" {
			q.items = append(q.items, &item{turn: id, kind: kindFiller, text: line})
		}
		return ""
	})
}

// Render plays a render or speech event.
func (q *Queue) Render(ev *transport.RenderEvent) {
	q.step(func() string {
		q.render(ev)
		return ev.TurnID
	})
}

// render takes ev in: the utterance of another turn closes, the turn's
// thinking motion ends, its segments are queued, and a render (not a
// speech frame) closes the turn's own utterance.
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
	q.enqueue(id, t, ev.Segments)
	if ev.Kind == transport.KindSpeech {
		t.open = true
		q.open = id
		return
	}
	t.open = false
	if q.open == id {
		q.open = ""
	}
	t.spoken = nil
	t.done = true
}

// enqueue queues the fresh sentences of segs as items, each segment's cues
// on its first sentence, and places the cues of silent segments: after
// speech of this same frame they ride the next item; otherwise they wait
// for the next playback boundary, which the step reaches at once when
// nothing is owed.
func (q *Queue) enqueue(id string, t *turnState, segs []transport.Segment) {
	// Sentences of this frame count as spoken only after the frame: a
	// reply may say the same short sentence twice on purpose ("No. No.").
	var keys []string
	var carry []transport.Cue // silent-segment cues placed before the next sentence
	queued := false
	dropped := 0
	for _, seg := range segs {
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
			if queued {
				// After speech of this same frame: its boundary is the
				// end of that speech, which keeps the segments in order.
				carry = append(carry, seg.Cues...)
				continue
			}
			// Only the cues that wait on speech count against the bound;
			// with nothing owed the boundary is reached in this step.
			owed := q.owed()
			for _, c := range seg.Cues {
				if owed && len(q.boundary) >= MaxQueued {
					dropped++
					break
				}
				q.boundary = append(q.boundary, heldCue{id, c})
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
}

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

func (q *Queue) pick(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return lines[q.rand(len(lines))]
}

// owed reports whether speech is playing or queued.
func (q *Queue) owed() bool { return q.cur != nil || len(q.items) > 0 }
