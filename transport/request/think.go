package request

import "strings"

// Tags a local model writes around the reasoning it streams inline in its
// reply text (Qwen and DeepSeek-R1 distills served without a reasoning
// parser by Ollama, vLLM or llama.cpp).
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// ThinkFilter takes inline reasoning out of streamed reply text: what
// stands between <think> and </think> is reasoning, the rest is the reply.
// A tag may be split across deltas: a delta that ends in what could be the
// start of a tag holds that part back until the next delta says. A stray
// </think> outside reasoning is dropped, so it is never spoken.
//
// The zero value is ready to use.
type ThinkFilter struct {
	in      bool   // inside <think>…</think>
	pending string // the end of the last delta, maybe the start of a tag
}

// Push reads one delta and returns its reply text and its reasoning.
func (f *ThinkFilter) Push(delta string) (text, reasoning string) {
	s := f.pending + delta
	f.pending = ""
	var tb, rb strings.Builder
	out := func(part string) {
		if f.in {
			rb.WriteString(part)
		} else {
			tb.WriteString(part)
		}
	}
	for s != "" {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			out(s)
			break
		}
		out(s[:i])
		s = s[i:]
		switch {
		case strings.HasPrefix(s, thinkOpen):
			s = s[len(thinkOpen):]
			f.in = true
		case strings.HasPrefix(s, thinkClose):
			s = s[len(thinkClose):]
			f.in = false
		case strings.HasPrefix(thinkOpen, s) || strings.HasPrefix(thinkClose, s):
			// The delta ends in what may become a tag.
			f.pending = s
			s = ""
		default:
			out("<")
			s = s[1:]
		}
	}
	return tb.String(), rb.String()
}

// Flush ends the stream: text held back is given out as what it is, and
// the next Push starts outside reasoning.
func (f *ThinkFilter) Flush() (text, reasoning string) {
	if f.in {
		reasoning = f.pending
	} else {
		text = f.pending
	}
	f.in, f.pending = false, ""
	return text, reasoning
}

// StripThink removes inline reasoning from a finished reply text, for the
// transcript a later turn sends: reasoning models are given their earlier
// answers without their thinking (Qwen's and DeepSeek's advice).
func StripThink(s string) string {
	if !strings.Contains(s, thinkOpen) && !strings.Contains(s, thinkClose) {
		return s
	}
	var f ThinkFilter
	text, _ := f.Push(s)
	rest, _ := f.Flush()
	return strings.TrimSpace(text + rest)
}
