package widgets

import (
	"strings"
	"unicode"
)

// Line breaking for the bubble and the tag, in every shipped language:
// Latin and Hangul text breaks at spaces (Korean puts spaces between its
// words), Chinese and Japanese between any two characters, since they put
// no spaces between words; and by the rules of kinsoku shori no line
// starts with closing punctuation or a small kana and none ends with an
// opening bracket. Pure functions: the width comes from a fits callback,
// so tests need no font.

// noLineStart are the characters a line must not start with: closing
// brackets and quotes, sentence and clause marks, the long vowel mark,
// iteration marks and small kana (JIS X 4051's classes 1 to 6 and 9).
const noLineStart = "、。，．,.）)」』】〕〉》〙〗｝］]}〟’”»" +
	"！？!?‼⁇⁈⁉：；:;・…‥〜～ー々〻ゝゞヽヾ" +
	"ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ" + "%％"

// noLineEnd are the characters a line must not end with: opening
// brackets and quotes.
const noLineEnd = "（(「『【〔〈《〘〖｛［[{〝‘“«"

// BreaksAround reports whether text may break before and after r without
// a space: the ideographs, kana and full-width forms of Chinese and
// Japanese. Hangul is not among them: Korean breaks at its spaces.
func BreaksAround(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		r >= 0x3000 && r <= 0x303F || // CJK symbols and punctuation
		r >= 0xFF00 && r <= 0xFFEF // full-width forms
}

// canBreak reports whether a line may break between a and b, two
// characters with no space between them.
func canBreak(a, b rune) bool {
	if strings.ContainsRune(noLineStart, b) || strings.ContainsRune(noLineEnd, a) {
		return false
	}
	return BreaksAround(a) || BreaksAround(b)
}

// unit is a run of text no line breaks inside, unless it is wider than a
// line.
type unit struct {
	text  string
	space bool // a space came before it: a line that goes on keeps one
}

// units cuts a paragraph where lines may break.
func units(para string) []unit {
	var out []unit
	var cur []rune
	space := false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, unit{string(cur), space})
			cur, space = nil, false
		}
	}
	for _, r := range para {
		switch {
		case unicode.IsSpace(r):
			flush()
			space = len(out) > 0
			continue
		case len(cur) > 0 && canBreak(cur[len(cur)-1], r):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// Wrap breaks text into lines that fit, at the breaks units allows, and
// inside a unit only when it alone is wider than a line (then still not
// before a closing mark when it can help it). A newline in text always
// breaks; an empty text is one empty line.
func Wrap(text string, fits func(string) bool) []string {
	var lines []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
		line := ""
		for _, u := range units(para) {
			cand := u.text
			if line != "" {
				if u.space {
					cand = line + " " + u.text
				} else {
					cand = line + u.text
				}
			}
			if fits(cand) {
				line = cand
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			word := []rune(u.text)
			for !fits(string(word)) && len(word) > 1 {
				n := fitting(word, fits)
				lines = append(lines, string(word[:n]))
				word = word[n:]
			}
			line = string(word)
		}
		if line != "" || len(lines) == 0 {
			lines = append(lines, line)
		}
	}
	return lines
}

// fitting is how many of word's first runes go on a line when word is
// too wide for one: as many as fit (at least one), one fewer when the
// next would start the following line with a closing mark.
func fitting(word []rune, fits func(string) bool) int {
	n := 1
	for n < len(word) && fits(string(word[:n+1])) {
		n++
	}
	// Backing off helps only when the rune that moves down may itself
	// start a line (a run of ーーー is cut where it must).
	if n > 1 && n < len(word) && !strings.ContainsRune(noLineStart, word[n-1]) &&
		(strings.ContainsRune(noLineStart, word[n]) || strings.ContainsRune(noLineEnd, word[n-1])) {
		n--
	}
	return n
}
