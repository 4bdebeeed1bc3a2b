package playback

import (
	"strings"
	"unicode"
)

// splitSentences cuts text into sentences. Besides the usual "end mark,
// then a space", it cuts where an end mark runs straight into a capital
// letter: the backend's speech frames may join two lines of the reply with
// no space between them ("All green.Want the list?"), and the render then
// repeats them as separate sentences, which dedupe must recognise. A
// capital before the mark too is an abbreviation ("U.S.A."), not a join.
func splitSentences(text string) []string {
	rs := []rune(text)
	var out []string
	start := 0
	for i := 0; i < len(rs); i++ {
		if !isEndMark(rs[i]) {
			continue
		}
		j := i + 1
		for j < len(rs) && (isEndMark(rs[j]) || isCloser(rs[j])) {
			j++
		}
		if j == len(rs) || unicode.IsSpace(rs[j]) || isWideEndMark(rs[i]) || joined(rs, i, j) {
			if s := strings.TrimSpace(string(rs[start:j])); s != "" {
				out = append(out, s)
			}
			start = j
		}
		i = j - 1
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}

// joined reports whether the end mark at i runs into a capital at j that
// starts a new line rather than continuing an abbreviation.
func joined(rs []rune, i, j int) bool {
	return unicode.IsUpper(rs[j]) && (i == 0 || !unicode.IsUpper(rs[i-1]))
}

func isEndMark(r rune) bool {
	switch r {
	case '.', '!', '?', '…':
		return true
	}
	return isWideEndMark(r)
}

// isWideEndMark reports CJK end marks, which need no space after them.
func isWideEndMark(r rune) bool {
	switch r {
	case '。', '！', '？':
		return true
	}
	return false
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '”', '’', '」', '』', '）':
		return true
	}
	return false
}

// sentenceKey is what two copies of one sentence share: case and spacing
// may differ between a speech frame and the render that repeats it.
func sentenceKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
