package playback

import (
	"context"
	"strings"

	"yui/transport"
)

// Interrupt is what the three speech-stopping user actions do: playback
// stops at once, every queued sentence and waiting cue is dropped, the
// thinking motion ends, and the turns the queue knew are forgotten. When
// reply speech was still owed it saves and returns an interrupted record
// naming the cut utterance's turn, with everything still owed as Unspoken
// (a failed record instead when that turn's speech had already failed).
func (q *Queue) Interrupt() (rec transport.PlaybackRecord, ok bool) {
	q.do(func() {
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
		if id != "" {
			rec = transport.PlaybackRecord{TurnID: id, Outcome: transport.PlaybackInterrupted, Unspoken: strings.Join(owed, " ")}
			if t := q.turns[id]; t != nil && t.failed != "" {
				rec = transport.PlaybackRecord{TurnID: id, Outcome: transport.PlaybackFailed, Reason: t.failed}
				if t.own {
					q.emitFailed(id)
				}
			}
			q.last = rec
			ok = true
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
	})
	return rec, ok
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
