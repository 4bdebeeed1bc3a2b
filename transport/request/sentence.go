package request

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Splitter cuts streamed reply text into sentences as it arrives, so that
// speech can start before the reply is finished.
//
// A sentence ends at a line break, at a CJK terminator (。！？), and at
// ".", "!", "?" or "…" followed by white space and then something that does
// not start with a lower-case letter. Closing quotes and brackets stay with
// the sentence they close. "e.g.", "Dr.", single initials, decimals ("3.14")
// and URLs ("example.com/x") do not end a sentence, since the cut needs
// white space after the terminator.
//
// The zero value is ready to use.
type Splitter struct {
	buf string
	// scan is where the next boundary search starts: no boundary lies
	// before it, and it sits on a candidate still waiting for lookahead.
	scan int
}

// Push adds streamed text and returns the sentences it completed, trimmed,
// empty ones left out.
func (s *Splitter) Push(delta string) []string {
	s.buf += delta
	var out []string
	for {
		end, next := cut(s.buf, s.scan)
		if end < 0 {
			s.scan = next
			return out
		}
		if t := strings.TrimSpace(s.buf[:end]); t != "" {
			out = append(out, t)
		}
		s.buf = s.buf[end:]
		s.scan = 0
	}
}

// Flush returns the text not yet cut into a sentence, trimmed, and empties
// the splitter.
func (s *Splitter) Flush() string {
	t := strings.TrimSpace(s.buf)
	s.buf, s.scan = "", 0
	return t
}

// Pending reports whether text waits for the end of its sentence.
func (s *Splitter) Pending() bool { return strings.TrimSpace(s.buf) != "" }

// abbreviations that end in "." without ending a sentence (lower case,
// without the final dot).
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true,
	"jr": true, "st": true, "vs": true, "approx": true, "fig": true,
	"no": true, "inc": true, "ltd": true, "co": true, "cf": true, "ca": true,
}

// cut finds the end of the first complete sentence of buf, searching from
// byte from. It returns the end (exclusive) or -1 and the offset the next
// search should start from when more text is needed.
func cut(buf string, from int) (end, next int) {
	for i := from; i < len(buf); {
		r, n := utf8.DecodeRuneInString(buf[i:])
		switch r {
		case '\n', '\r', '\u2028', '\u2029':
			return i + n, 0
		case '。', '！', '？', '｡':
			j := skipRun(buf, i+n)
			j, ok := skipClosers(buf, j)
			if !ok {
				return -1, i
			}
			return j, 0
		case '.', '!', '?', '…':
			j := skipRun(buf, i)
			j, ok := skipClosers(buf, j)
			if !ok {
				return -1, i
			}
			if j == len(buf) {
				// Need the next character to decide.
				return -1, i
			}
			c, _ := utf8.DecodeRuneInString(buf[j:])
			if !unicode.IsSpace(c) {
				// "3.14", "example.com", "?!x": not an end.
				i = j
				continue
			}
			if r == '.' && abbreviation(buf[:i]) {
				i = j
				continue
			}
			// Look past the white space: a lower-case continuation
			// ("approx. five") is not a new sentence.
			k := j
			for k < len(buf) {
				c, m := utf8.DecodeRuneInString(buf[k:])
				if c == '\n' || c == '\r' {
					return j, 0
				}
				if !unicode.IsSpace(c) {
					break
				}
				k += m
			}
			if k == len(buf) {
				return -1, i
			}
			if c, _ := utf8.DecodeRuneInString(buf[k:]); unicode.IsLower(c) && c < utf8.RuneSelf {
				i = k
				continue
			}
			return j, 0
		}
		i += n
	}
	return -1, len(buf)
}

// skipRun skips a run of sentence terminators ("?!", "...", "。。").
func skipRun(buf string, i int) int {
	for i < len(buf) {
		r, n := utf8.DecodeRuneInString(buf[i:])
		switch r {
		case '.', '!', '?', '…', '。', '！', '？', '｡':
			i += n
			continue
		}
		return i
	}
	return i
}

// skipClosers skips closing quotes and brackets after a terminator. ok is
// false when the text ends inside them and more may follow.
func skipClosers(buf string, i int) (int, bool) {
	for i < len(buf) {
		r, n := utf8.DecodeRuneInString(buf[i:])
		switch r {
		case '"', '\'', ')', ']', '}', '”', '’', '」', '』', '）', '》', '〉', '*', '_':
			i += n
			continue
		}
		return i, true
	}
	return i, i < len(buf)
}

// abbreviation reports whether the word that ends before makes its
// following "." an abbreviation: a known one, a single letter (an
// initial), or short parts joined by dots ("e.g", "U.S").
func abbreviation(before string) bool {
	start := strings.LastIndexFunc(before, func(r rune) bool {
		return unicode.IsSpace(r) || r == '(' || r == '"' || r == '\''
	}) + 1
	w := before[start:]
	if w == "" {
		return false
	}
	if strings.Contains(w, ".") {
		// "e.g", "i.e", "U.S" but not "example.com".
		for _, part := range strings.Split(w, ".") {
			if utf8.RuneCountInString(part) > 2 {
				return false
			}
		}
		return true
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsLetter(r)
	}
	return abbreviations[strings.ToLower(w)]
}
