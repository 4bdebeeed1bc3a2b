package request

import (
	"strings"

	"yui/transport"
	"yui/transport/textcut"
)

// reply turns one turn's stream into render events: sentences as speech,
// cues before the sentence that follows them, reasoning deltas, usage. It
// is the Sink of the turn's exchange and is used from the engine's worker
// goroutine only.
type reply struct {
	e         *Engine
	t         *turn
	sp        Splitter
	think     ThinkFilter
	cues      []transport.Cue // waiting for the next sentence
	reasoning strings.Builder
	refusal   strings.Builder
	usage     *transport.Usage
	// est is the estimated size of the round's request; heard is set
	// once the round streamed anything.
	est   int
	heard bool
}

// beginRound starts a round of est estimated tokens.
func (r *reply) beginRound(est int) { r.est, r.heard = est, false }

// Text reads reply text; reasoning a model writes inline in <think> tags
// goes to the reasoning display instead of speech.
func (r *reply) Text(delta string) {
	r.heard = true
	text, reasoning := r.think.Push(delta)
	r.Reasoning(reasoning)
	r.say(text)
}

// Refusal reads a refusal: the model's own words, spoken as the reply.
func (r *reply) Refusal(delta string) {
	r.heard = true
	r.refusal.WriteString(delta)
	r.say(delta)
}

func (r *reply) say(text string) {
	for _, s := range r.sp.Push(text) {
		r.speak(s)
	}
}

func (r *reply) Reasoning(delta string) {
	if delta == "" {
		return
	}
	r.heard = true
	r.reasoning.WriteString(delta)
	r.e.emit(r.t, &transport.ReasoningEvent{TurnID: r.t.id, Delta: delta})
}

func (r *reply) Usage(u transport.Usage) {
	if u.TotalTokens == 0 {
		u.TotalTokens = u.InputTokens + u.OutputTokens
	}
	r.usage = &u
	r.e.budget.observe(r.est, u.InputTokens)
	r.e.emit(r.t, &transport.UsageEvent{TurnID: r.t.id, Usage: u})
}

func (r *reply) ToolStatus(state, toolID string) { r.toolStatus(true, state, toolID) }

func (r *reply) toolStatus(show bool, state, toolID string) {
	if show {
		r.e.emit(r.t, &transport.ToolStatusEvent{TurnID: r.t.id, OwnTurn: true, State: state, ToolID: toolID})
	}
}

// cue queues a cue for the next sentence. Text already streamed belongs
// before the cue, so it is cut off as a sentence of its own.
func (r *reply) cue(c transport.Cue) {
	r.flush()
	r.cues = append(r.cues, c)
}

// flush sends the text not yet cut into a sentence as a sentence.
func (r *reply) flush() {
	r.flushThink()
	if s := r.sp.Flush(); s != "" {
		r.speak(s)
	}
}

// flushThink ends a round's text: a tag held back is text after all.
func (r *reply) flushThink() {
	text, reasoning := r.think.Flush()
	r.Reasoning(reasoning)
	r.say(text)
	if r.think.Stray && !r.think.Implied {
		// The server's template opens the reasoning itself: from now on
		// the start of a stream waits to know what it is.
		r.think.Implied = true
		if !r.e.thinkImplied.Swap(true) {
			r.e.log.Info("think_implied", "turn_id", r.t.id)
		}
	}
}

// speak sends one sentence as a speech event with the cues waiting for it.
func (r *reply) speak(s string) {
	seg := transport.Segment{Cues: r.cues, Speech: s}
	r.cues = nil
	r.e.emit(r.t, &transport.RenderEvent{
		Kind:     transport.KindSpeech,
		TurnID:   r.t.id,
		Source:   r.e.d.Name(),
		Segments: []transport.Segment{seg},
		OwnTurn:  true,
	})
}

// finish sends the closing render, as a push render closes the utterance
// its speech frames opened: the rest of the text and the cues still
// unplaced, or no segment (a silent render) when nothing is left. A reply
// with nothing at all to render sends no render, as a push turn with
// nothing to render sends only its turn_end.
func (r *reply) finish() {
	r.flushThink()
	if r.refusal.Len() > 0 {
		r.e.log.Info("refusal", "turn_id", r.t.id, "text", textcut.Cut(textcut.Fold(r.refusal.String()), 200))
	}
	if r.reasoning.Len() > 0 {
		r.e.log.Info("reasoning", "turn_id", r.t.id, "chars", len([]rune(r.reasoning.String())), "text", textcut.Cut(textcut.Fold(r.reasoning.String()), 200))
	}
	ev := &transport.RenderEvent{Kind: transport.KindRender, TurnID: r.t.id, Source: r.e.d.Name(), OwnTurn: true}
	if rest := r.sp.Flush(); rest != "" || len(r.cues) > 0 {
		ev.Segments = []transport.Segment{{Cues: r.cues, Speech: rest}}
		r.cues = nil
	}
	if r.reasoning.Len() > 0 {
		s := r.reasoning.String()
		ev.Reasoning = &s
	}
	if ev.Segments == nil && ev.Reasoning == nil && !r.e.rendered(r.t) {
		return
	}
	r.e.emit(r.t, ev)
}
