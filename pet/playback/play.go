package playback

// Playing: one sentence at a time, synthesis one ahead, cues fired on
// playback boundaries, and a failed clip paced by reading speed.

import (
	"context"

	"yui/pet/speech"
	"yui/transport/textcut"
)

// fireBoundary fires the cues waiting on a playback boundary.
func (q *Queue) fireBoundary() {
	bound := q.boundary
	q.boundary = nil
	for _, h := range bound {
		q.fire(h.turn, h.cue)
	}
}

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

// clipDone ends the clip of generation gen. A failed clip marks its turn
// failed and the sentence is paced by reading speed instead, so the bubble
// and the cue boundaries keep their order.
func (q *Queue) clipDone(gen int, err error) {
	q.do(func() {
		if gen != q.gen || q.cur == nil {
			return
		}
		it := q.cur
		if err != nil && !it.fallback {
			q.failed(it, err)
			it.fallback = true
			clip, _ := q.fallback.Prepare(q.ctx, it.text)
			q.play(clip)
			return
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
		q.advance()
		q.settle(it.turn)
	})
}

// failed records that speech of it could not play. A failure that repeats
// the last one logged (no audio device fails every sentence) is not logged
// again until a sentence plays.
func (q *Queue) failed(it *item, err error) {
	if msg := err.Error(); msg != q.lastFail {
		q.lastFail = msg
		q.log.Warn("speech_failed", "turn_id", it.turn, "err", msg)
		q.emitSpeechFailed(textcut.Cut(textcut.Fold(msg), maxReason))
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
