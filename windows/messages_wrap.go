package windows

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
)

// wrapCache keeps one row's wrapped paragraphs, so that a text growing
// at its end (a reply's next sentence, streaming reasoning) rewraps only
// what changed: unchanged paragraphs come from the cache, and a last
// paragraph that grew rewraps from its last line on. Greedy wrapping
// makes that exact: text appended to a paragraph can change only its
// last line and what follows. Paragraphs are wrapped one by one, so a
// blank line between them stays.
type wrapCache struct {
	width, size float32
	paras       map[string][]string
	// last and lastLines are the last paragraph wrapped and its lines.
	last      string
	lastLines []string
}

// wrap is wrapText over the paragraphs of text, at most maxWrapLines
// lines. A nil cache wraps afresh.
func (c *wrapCache) wrap(text string, width, size float32) []string {
	var tmp wrapCache
	if c == nil {
		c = &tmp
	}
	if c.width != width || c.size != size {
		*c = wrapCache{width: width, size: size}
	}
	next := map[string][]string{}
	var out []string
	for _, p := range strings.Split(strings.TrimSpace(text), "\n") {
		ls, ok := c.paras[p]
		switch {
		case ok:
		case len(c.lastLines) > 0 && strings.HasPrefix(p, c.last):
			tail := c.lastLines[len(c.lastLines)-1] + p[len(c.last):]
			ls = append(slices.Clone(c.lastLines[:len(c.lastLines)-1]), wrapText(tail, width, size, maxWrapLines)...)
		default:
			ls = wrapText(p, width, size, maxWrapLines)
		}
		next[p] = ls
		c.last, c.lastLines = p, ls
		out = append(out, ls...)
		if len(out) > maxWrapLines {
			break
		}
	}
	c.paras = next
	if len(out) > maxWrapLines {
		out = out[:maxWrapLines]
		out[maxWrapLines-1] = cutText(out[maxWrapLines-1]+" …", width, size, fyne.TextStyle{})
	}
	return out
}

// clipText cuts s to at most n runes, marking the cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + " … (cut: Copy gives all of it)"
}
