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
// A sentence that ends the text so far with ".", "!" or "?" is cut at
// once, without waiting for the next token to show the white space after
// it, when nothing in it asks for that token: the word before a "." is not
// a number, an initial or an abbreviation, and no quote or bracket is left
// open. Waiting cost a whole token gap (about 50 ms on a local model)
// before the first sentence's speech could be asked for; "…" still waits,
// since "Well… maybe" goes on in lower case.
//
// The first sentence of a reply is also cut early at a clause boundary
// (",", ";", ":", "—", "、", "，", "；", "：") once it holds enough words
// (firstClauseWords, or firstClauseRunes of CJK text), so synthesis of a
// long opening sentence starts while the model still writes it. Later
// sentences are synthesised while the earlier ones play, so they keep
// whole-sentence prosody.
//
// The zero value is ready to use.
type Splitter struct {
	buf string
	// scan is where the next boundary search starts: no boundary lies
	// before it, and it sits on a candidate still waiting for lookahead.
	scan int
	// cuts counts the sentences handed on: the clause rule applies while
	// it is zero.
	cuts int
}

// The first clause's length before it may be cut off on its own: about
// a second and a half of speech, long enough to sound like a phrase and
// not a stumble, and short enough that its synthesis starts well before
// an ordinary first sentence would have ended.
const (
	firstClauseWords = 8
	firstClauseRunes = 12
)

// Push adds streamed text and returns the sentences it completed, trimmed,
// empty ones left out.
func (s *Splitter) Push(delta string) []string {
	s.buf += delta
	var out []string
	for {
		end, next := cut(s.buf, s.scan)
		if end < 0 && s.cuts == 0 {
			end = clause(s.buf)
		}
		if end < 0 {
			s.scan = next
			return out
		}
		if t := strings.TrimSpace(s.buf[:end]); t != "" {
			out = append(out, t)
			s.cuts++
		}
		s.buf = s.buf[end:]
		s.scan = 0
	}
}

// Flush returns the text not yet cut into a sentence, trimmed, and empties
// the splitter.
func (s *Splitter) Flush() string {
	t := strings.TrimSpace(s.buf)
	s.buf, s.scan, s.cuts = "", 0, 0
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
			run := skipRun(buf, i+n)
			j, ok := skipClosers(buf, run)
			if !ok {
				if j == run && !open(buf[:i]) {
					return j, 0 // nothing after it yet, and nothing to close
				}
				return -1, i
			}
			return j, 0
		case '.', '!', '?', '…':
			run := skipRun(buf, i)
			j, ok := skipClosers(buf, run)
			if !ok {
				// The text ends here: cut now when it is safe, else
				// the next character decides.
				if j == run && settled(buf[:i], buf[i:run]) {
					return j, 0
				}
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

// settled reports whether a sentence that ends the text so far with the
// run of terminators after before can be cut without seeing what follows.
func settled(before, terminators string) bool {
	if strings.Contains(terminators, "…") || strings.Contains(terminators, "..") {
		return false // an ellipsis often goes on in lower case
	}
	if open(before) {
		return false
	}
	if terminators != "." {
		return true // "!", "?", "?!"
	}
	last, _ := utf8.DecodeLastRuneInString(before)
	if unicode.IsDigit(last) {
		return false // "3." may be "3.14"
	}
	return !abbreviation(before)
}

// open reports whether text leaves a quote or bracket open, whose closer
// belongs with this sentence.
func open(text string) bool {
	if strings.Count(text, `"`)%2 == 1 {
		return true
	}
	for _, p := range [...][2]string{{"(", ")"}, {"[", "]"}, {"“", "”"}, {"「", "」"}, {"『", "』"}, {"（", "）"}} {
		if strings.Count(text, p[0]) > strings.Count(text, p[1]) {
			return true
		}
	}
	return false
}

// clause finds the end of buf's first clause when it is long enough to be
// spoken on its own (see Splitter), or -1.
func clause(buf string) int {
	for i := 0; i < len(buf); {
		r, n := utf8.DecodeRuneInString(buf[i:])
		end := -1
		switch r {
		case '、', '，', '；', '：':
			end = i + n
		case ',', ';', ':', '—':
			if i+n == len(buf) {
				// After a word the clause is over; after a digit the
				// next token may be "000" ("1,000").
				// A ":" waits: "https:" goes on with "//".
				if last, _ := utf8.DecodeLastRuneInString(buf[:i]); unicode.IsLetter(last) && r != ':' {
					end = i + n
				}
				break
			}
			if c, _ := utf8.DecodeRuneInString(buf[i+n:]); unicode.IsSpace(c) {
				end = i + n
			}
		}
		if end > 0 && long(buf[:i]) && !open(buf[:i]) {
			return end
		}
		i += n
	}
	return -1
}

// long reports whether text is long enough to be a first clause.
func long(text string) bool {
	if len(strings.Fields(text)) >= firstClauseWords {
		return true
	}
	cjk := 0
	for _, r := range text {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			cjk++
		}
	}
	return cjk >= firstClauseRunes
}
