// Package textcut is the one place that shortens text for a line, a log
// record, a chip or a frame field. Lengths are counted in code points
// (runes), never bytes, so a cut never splits a character.
//
// Three cuts, for three needs:
//   - Cut ends a shortened text in "…", the ellipsis counting toward max:
//     what a reader sees (captions, error lines, quoted values).
//   - Prefix keeps the first max code points and adds nothing: limits a
//     spec fixes as a plain cut (docs/protocol/push-transport.md's error message, the
//     delegation item's title and summary).
//   - Mark keeps the first n code points and appends a mark of the
//     caller's (" … (cut: Copy gives all of it)").
//
// Fold and OneLine make a line of any text: runs of white space, line
// breaks included, become one space.
//
// It imports nothing of the project, so every layer may use it.
package textcut

import (
	"strings"
	"unicode/utf8"
)

// Ellipsis is the mark Cut ends a shortened text with.
const Ellipsis = "…"

// Cut returns s cut to at most max code points, ending in Ellipsis when
// it was cut; the ellipsis counts toward max. max <= 0 gives "".
func Cut(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return Prefix(s, max-1) + Ellipsis
}

// Prefix returns the first max code points of s, s itself when it is not
// longer. max <= 0 gives "".
func Prefix(s string, max int) string {
	if max <= 0 {
		return ""
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}

// Mark returns s when it holds at most n code points, else its first n
// code points followed by mark (which does not count toward n).
func Mark(s string, n int, mark string) string {
	if p := Prefix(s, n); len(p) < len(s) {
		return p + mark
	}
	return s
}

// Fold turns every run of white space in s, line breaks included, into
// one space and trims both ends.
func Fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// OneLine is s folded to one line (Fold) and cut to max code points with
// no mark (Prefix); max <= 0 does not cut. Server error text is shown this
// way (docs/protocol/push-transport.md: one line cut at 200 characters).
func OneLine(s string, max int) string {
	s = Fold(s)
	if max <= 0 {
		return s
	}
	return Prefix(s, max)
}
