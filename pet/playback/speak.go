package playback

// Speak, the middle of an item's life: the next item is taken when nothing
// plays (advance), its cues render, its sentence is synthesised one ahead
// (prepare) and played (start, play) until its clip is done (clipDone); a
// failed clip is paced by reading speed. Cues that wait on a playback
// boundary fire at the first one reached (fireBoundary), and a turn's first
// render cuts its filler line (endThinking).

import (
	"context"

	"yui/pet/speech"
	"yui/transport"
	"yui/transport/textcut"
)

// advance starts the next sentence when nothing plays, and starts
// synthesising the one after it. Reaching it is a playback boundary: the
// cues waiting on one fire first.
func (q *Queue) advance() {
	for q.cur == nil {
		q.fireBoundary()
		if len(q.items) == 0 {
			if q.speaking {
				q.speaking = false
				q.emitSpeech("", "")
			}
			return
		}
		it := q.items[0]
		q.items[0] = nil
		q.items = q.items[1:]
		for _, c := range it.cues {
			q.fire(it.turn, c)
		}
		if it.text == "" {
			q.settle(it.turn)
			continue
		}
		q.start(it)
	}
	// A sentence that arrives while another plays is synthesised now, not
	// when the playing one ends.
	for _, next := range q.items {
		if next.text != "" {
			q.prepare(next)
			break
		}
	}
}

// fireBoundary fires the cues waiting on a playback boundary.
func (q *Queue) fireBoundary() {
	bound := q.boundary
	q.boundary = nil
	for _, h := range bound {
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
	q.log.Info("cue", "turn_id", turn, "emotion_id", c.EmotionID, "motion_id", c.MotionID,
		"emotion_text", c.EmotionText, "caption", c.Caption)
	if st := q.opts.Stage; st != nil {
		q.out.Put(func() { st.Cue(turn, c) })
	}
}

// endThinking ends turn id's thinking motion and its filler line, cut
// mid-sentence when it plays ("speaks the filler line, until the first
// render"); the step advances after. When no other turn thinks, the cues
// held for the motion land.
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

// prepare starts synthesising it unless that has started. It runs under
// q.mu: speech.Engine's contract is that Prepare does not block.
func (q *Queue) prepare(it *item) {
	if it.clip != nil || it.err != nil {
		return
	}
	ctx, cancel := context.WithCancel(q.ctx)
	it.cancel = cancel
	it.clip, it.err = q.engine.Prepare(ctx, it.text)
}

// release abandons what is left of the synthesis of it.
func release(it *item) {
	if it.cancel != nil {
		it.cancel()
		it.cancel = nil
	}
}

// start plays it.
func (q *Queue) start(it *item) {
	q.cur = it
	q.speaking = true
	q.emitSpeech(it.turn, it.text)
	// One record per sentence spoken: what the user heard and saw in the
	// bubble, and whether it was the reply or a line the client added.
	if it.text != "" {
		q.log.Info("speech", "turn_id", it.turn, "kind", it.kind.String(), "text", it.text)
	}
	q.prepare(it)
	clip := it.clip
	if it.err != nil {
		q.failed(it, it.err)
		it.fallback = true
		clip, _ = q.fallback.Prepare(q.ctx, it.text)
	}
	q.play(clip)
}

// stopCur stops the playing clip; a done it reports later is stale.
func (q *Queue) stopCur() {
	if q.stopClip != nil {
		q.stopClip()
		q.stopClip = nil
	}
	q.gen++
	if q.cur != nil {
		release(q.cur)
		q.cur = nil
	}
}

// play starts clip as the current one.
func (q *Queue) play(clip speech.Clip) {
	q.gen++
	gen := q.gen
	done := func(err error) { q.clipDone(gen, err) }
	if s, ok := clip.(speech.Starter); ok {
		q.stopClip = s.Start(done)
		return
	}
	ctx, cancel := context.WithCancel(q.ctx)
	q.stopClip = cancel
	q.wg.Add(1)
	go func() {
		defer q.wg.Done()
		done(clip.Play(ctx))
	}()
}

// clipDone ends the clip of generation gen; the step then plays the next
// item and settles the turn. A failed clip marks its turn failed and the
// sentence is paced by reading speed instead, so the bubble and the cue
// boundaries keep their order.
func (q *Queue) clipDone(gen int, err error) {
	q.step(func() string {
		if gen != q.gen || q.cur == nil {
			return ""
		}
		it := q.cur
		if err != nil && !it.fallback {
			q.failed(it, err)
			it.fallback = true
			clip, _ := q.fallback.Prepare(q.ctx, it.text)
			q.play(clip)
			return ""
		}
		if err == nil && !it.fallback {
			q.lastFail = ""
		}
		if it.text != "" {
			q.log.Debug("speech_done", "turn_id", it.turn, "text", it.text)
		}
		release(it)
		q.cur = nil
		q.stopClip = nil
		return it.turn
	})
}

// failed records that speech of it could not play. A failure that repeats
// the last one logged (no audio device fails every sentence) is not logged
// again until a sentence plays.
func (q *Queue) failed(it *item, err error) {
	if msg := err.Error(); msg != q.lastFail {
		q.lastFail = msg
		q.log.Warn("speech_failed", "turn_id", it.turn, "err", msg)
		if st := q.opts.Stage; st != nil {
			reason := textcut.Cut(textcut.Fold(msg), maxReason)
			q.out.Put(func() { st.SpeechFailed(reason) })
		}
	}
	if it.kind != kindReply {
		return
	}
	if t := q.turns[it.turn]; t != nil && t.failed == "" {
		// One line the previous-turn line can carry.
		t.failed = textcut.Cut(textcut.Fold(err.Error()), maxReason)
	}
}

// maxReason is the longest failure reason kept for the previous-turn line,
// in characters.
const maxReason = 120

func (q *Queue) emitSpeech(turn, text string) {
	if st := q.opts.Stage; st != nil {
		q.out.Put(func() { st.Speech(turn, text) })
	}
}

func (q *Queue) emitThinking(on bool) {
	if st := q.opts.Stage; st != nil {
		q.out.Put(func() { st.Thinking(on) })
	}
}
