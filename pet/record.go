package pet

import (
	"time"
	"yui/pet/transcript"
	"yui/transport"
)

// recorder writes what the controller sees into the preset's transcript:
// one entry per user turn, one reply per turn growing sentence by
// sentence, tool statuses, reasoning growing while it streams, failures
// and resets. A nil transcript records nothing. Its methods run under the
// controller's flow lock, so entries keep the order events were handled.
type recorder struct {
	log *transcript.Log
	// open maps a turn to its reply and reasoning entries, and a
	// "turn/tool" key to its running tool entry; bounded by maxRemembered.
	open  map[string]int64
	order []string
}

func newRecorder(l *transcript.Log) *recorder {
	return &recorder{log: l, open: map[string]int64{}}
}

func (r *recorder) remember(key string, seq int64) {
	if _, ok := r.open[key]; !ok {
		r.order = append(r.order, key)
	}
	r.open[key] = seq
	for len(r.order) > 4*maxRemembered {
		delete(r.open, r.order[0])
		r.order = r.order[1:]
	}
}

func (r *recorder) user(turnID string, t transport.Turn) {
	if r.log == nil {
		return
	}
	r.log.Add(transcript.Entry{Kind: transcript.KindUser, TurnID: turnID, Trigger: string(t.Trigger), Text: t.Text})
}

// render adds a render or speech event's segments to the turn's reply.
func (r *recorder) render(e *transport.RenderEvent) {
	if r.log == nil {
		return
	}
	if e.Reasoning != nil {
		r.reasoning(e.TurnID, *e.Reasoning, true)
		r.endReasoning(e.TurnID)
	}
	var text string
	var cues []transport.Cue
	for _, s := range e.Segments {
		cues = append(cues, s.Cues...)
		if !s.Silent() {
			if text != "" {
				text += " "
			}
			text += s.Speech
		}
	}
	if text == "" && len(cues) == 0 {
		return
	}
	key := "reply/" + e.TurnID
	if seq, ok := r.open[key]; ok && r.log.Grow(seq, func(en *transcript.Entry) {
		if text != "" {
			if en.Text != "" {
				en.Text += " "
			}
			en.Text += text
		}
		en.Cues = append(en.Cues, cues...)
	}) {
		return
	}
	en := r.log.Add(transcript.Entry{Kind: transcript.KindReply, TurnID: e.TurnID, Text: text, Cues: cues})
	r.remember(key, en.Seq)
}

// reasoning adds a delta to the turn's reasoning, or replaces it all.
func (r *recorder) reasoning(turnID, text string, replace bool) {
	if r.log == nil || text == "" {
		return
	}
	key := "reasoning/" + turnID
	if seq, ok := r.open[key]; ok && r.log.Grow(seq, func(en *transcript.Entry) {
		if replace {
			en.Text = text
		} else {
			en.Text += text
		}
		en.Streaming = true
	}) {
		return
	}
	en := r.log.Add(transcript.Entry{Kind: transcript.KindReasoning, TurnID: turnID, Text: text, Streaming: true})
	r.remember(key, en.Seq)
}

func (r *recorder) endReasoning(turnID string) {
	if r.log == nil {
		return
	}
	if seq, ok := r.open["reasoning/"+turnID]; ok {
		r.log.Grow(seq, func(en *transcript.Entry) { en.Streaming = false })
	}
}

func (r *recorder) tool(e *transport.ToolStatusEvent, now time.Time) {
	if r.log == nil {
		return
	}
	key := "tool/" + e.TurnID + "/" + e.ToolID
	if seq, ok := r.open[key]; ok && e.State != "running" && r.log.Grow(seq, func(en *transcript.Entry) { en.State, en.MS = e.State, now.Sub(en.Time).Milliseconds() }) {
		delete(r.open, key)
		return
	}
	en := r.log.Add(transcript.Entry{Kind: transcript.KindTool, TurnID: e.TurnID, Tool: e.ToolID, State: e.State})
	if e.State == "running" {
		r.remember(key, en.Seq)
	}
}

// turnEnd closes the turn's reasoning and records a failure's line.
func (r *recorder) turnEnd(e *transport.TurnEndEvent, failureText string) {
	if r.log == nil {
		return
	}
	r.endReasoning(e.TurnID)
	if failureText != "" {
		r.log.Add(transcript.Entry{Kind: transcript.KindError, TurnID: e.TurnID, Text: failureText})
	}
}

func (r *recorder) reset() {
	if r.log == nil {
		return
	}
	r.log.Add(transcript.Entry{Kind: transcript.KindReset})
}
