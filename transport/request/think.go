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
// </think> outside reasoning is dropped, so it is never spoken, and sets
// Stray.
//
// Some chat templates write the opening <think> into the prompt (DeepSeek-R1
// distills), so the stream carries only the closing tag. With Implied set,
// a stream that does not open with <think> is held back until its </think>
// (what came before is reasoning) or its end (it was all reply text).
//
// The zero value is ready to use.
type ThinkFilter struct {
	// Implied says the server's streams may start inside reasoning.
	Implied bool
	// Stray is set when a </think> came with no <think> before it.
	Stray bool

	began   bool   // the stream has begun
	holding bool   // Implied: not yet known whether the start is reasoning
	held    string // the text held while holding
	in      bool   // inside <think>…</think>
	pending string // the end of the last delta, maybe the start of a tag
}

// Push reads one delta and returns its reply text and its reasoning.
func (f *ThinkFilter) Push(delta string) (text, reasoning string) {
	if !f.began {
		f.began, f.holding = true, f.Implied
	}
	if f.holding {
		f.held += delta
		start := strings.TrimLeft(f.held, " \t\r\n")
		switch i := strings.Index(f.held, thinkClose); {
		case strings.HasPrefix(start, thinkOpen):
			delta, f.held, f.holding = f.held, "", false
		case i >= 0:
			reasoning, delta = f.held[:i], f.held[i+len(thinkClose):]
			f.held, f.holding = "", false
		default:
			return "", ""
		}
	}
	text, r := f.scan(delta)
	return text, reasoning + r
}

// scan splits text at the tags.
func (f *ThinkFilter) scan(delta string) (text, reasoning string) {
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
			if !f.in {
				f.Stray = true
			}
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
// the next Push starts a new stream.
func (f *ThinkFilter) Flush() (text, reasoning string) {
	if f.holding {
		// No </think> came: it was all reply text.
		f.holding = false
		text, reasoning = f.scan(f.held)
		f.held = ""
	}
	if f.in {
		reasoning += f.pending
	} else {
		text += f.pending
	}
	f.began, f.in, f.pending = false, false, ""
	return text, reasoning
}

// StripThink removes inline reasoning from a finished reply text, for the
// transcript a later turn sends: reasoning models are given their earlier
// answers without their thinking (Qwen's and DeepSeek's advice).
func StripThink(s string) string {
	if !strings.Contains(s, thinkOpen) && !strings.Contains(s, thinkClose) {
		return s
	}
	if i := strings.Index(s, thinkClose); i >= 0 && !strings.Contains(s[:i], thinkOpen) {
		s = s[i+len(thinkClose):] // the template opened the reasoning
	}
	var f ThinkFilter
	text, _ := f.Push(s)
	rest, _ := f.Flush()
	return strings.TrimSpace(text + rest)
}
