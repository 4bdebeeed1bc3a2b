package messagewindow

import (
	"slices"
	"strings"
	"unicode/utf8"
	"yui/windows/widgets"

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
			ls = append(slices.Clone(c.lastLines[:len(c.lastLines)-1]), wrapPara(tail, width, size)...)
		default:
			ls = wrapPara(p, width, size)
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
		out[maxWrapLines-1] = widgets.CutText(out[maxWrapLines-1]+" …", width, size, fyne.TextStyle{})
	}
	return out
}

// wrapPara is wrapText of one paragraph with its long words broken
// first: wrapText measures a word too wide for a line whole for every
// piece it breaks off, which a long run of text without spaces (a URL, a
// hash, garbage) turns into seconds.
func wrapPara(p string, width, size float32) []string {
	return widgets.WrapText(breakLongWords(p, width, size), width, size, maxWrapLines)
}

// shortWord is a word that fits the narrowest line whatever its letters.
const shortWord = 8

// breakLongWords splits each word wider than width into the pieces
// wrapText would break it into (each the longest prefix that fits, at
// least one rune), measuring only pieces of about a line.
func breakLongWords(p string, width, size float32) string {
	fits := func(s string) bool { return fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= width }
	words := strings.Fields(p)
	changed := false
	for i, w := range words {
		if utf8.RuneCountInString(w) <= shortWord || strings.ContainsFunc(w, widgets.BreaksAround) {
			continue // short, or Chinese or Japanese: Wrap breaks it where kinsoku lets it
		}
		r := []rune(w)
		if len(r) < 64 && fits(w) {
			continue
		}
		var parts []string
		for len(r) > 0 {
			n := longestFit(r, fits)
			parts = append(parts, string(r[:n]))
			r = r[n:]
		}
		if len(parts) > 1 {
			words[i] = strings.Join(parts, " ")
			changed = true
		}
	}
	if !changed {
		return p
	}
	return strings.Join(words, " ")
}

// longestFit is the length of the longest prefix of r that fits (at
// least 1), found by doubling then halving: about 2·log2 of a line's
// runes measures, none much longer than a line.
func longestFit(r []rune, fits func(string) bool) int {
	lo, hi := 1, len(r)+1 // r[:lo] is taken; r[:hi] does not fit
	for lo < len(r) {
		next := min(2*lo, len(r))
		if !fits(string(r[:next])) {
			hi = next
			break
		}
		lo = next
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if fits(string(r[:mid])) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
