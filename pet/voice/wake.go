package voice

import (
	"strings"
	"sync"
	"time"
	"unicode"
)

// FollowUp is how long after the pet last spoke an utterance starts a
// turn in wake_word mode without the wake word (docs/hands-free.md).
const FollowUp = 8 * time.Second

// DefaultWakeWords are a character's wake words when voice.wake_words is
// empty: its name, and "hey" before it.
func DefaultWakeWords(name string) []string {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	return []string{"hey " + name, name}
}

// MatchWake reports whether text begins with one of words (any case,
// punctuation ignored, whole words) and returns text without it and the
// punctuation that followed it. The longest matching word wins, so "hey
// Yui" is taken whole before "Yui" is tried.
func MatchWake(text string, words []string) (rest string, ok bool) {
	fields := strings.Fields(text)
	norm := make([]string, len(fields))
	for i, f := range fields {
		norm[i] = normWord(f)
	}
	best := -1
	for _, w := range words {
		ww := strings.Fields(w)
		for i := range ww {
			ww[i] = normWord(ww[i])
		}
		ww = dropEmpty(ww)
		if len(ww) == 0 || len(ww) <= best {
			continue
		}
		if k, hit := prefixWords(norm, ww); hit {
			best = k
		}
	}
	if best < 0 {
		return text, false
	}
	rest = strings.Join(fields[best:], " ")
	return strings.TrimLeftFunc(rest, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) }), true
}

// prefixWords matches ww against the start of norm, skipping fields that
// were only punctuation; it returns how many fields the match spans.
func prefixWords(norm, ww []string) (int, bool) {
	j := 0
	for i, n := range norm {
		if n == "" {
			continue
		}
		if n != ww[j] {
			return 0, false
		}
		j++
		if j == len(ww) {
			return i + 1, true
		}
	}
	return 0, false
}

func normWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func dropEmpty(s []string) []string {
	out := s[:0]
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// wakeState is when the follow-up window ends: the frame loop moves it
// while the pet speaks, the transcriber when the wake word came alone.
type wakeState struct {
	mu    sync.Mutex
	until time.Time
}

func (w *wakeState) open(until time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if until.After(w.until) {
		w.until = until
	}
}

// within reports whether an utterance that started at t is a follow-up.
func (w *wakeState) within(t time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !t.After(w.until)
}
