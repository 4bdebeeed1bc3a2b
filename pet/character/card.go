package character

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A pack may carry the character's defaults: its card (the persona text
// a preset with an empty card sends) and its speech settings (the voice
// and rate a preset that names none speaks with).

// MaxCardLen bounds a pack's card, in characters.
const MaxCardLen = 8000

// Speech is a pack's default speech settings.
type Speech struct {
	// Voices is the voice per speech engine or synthesiser (VoiceKeys).
	Voices map[string]string `json:"voices"`
	// Rate is a speed factor, 0.25–4; 0 leaves the preset's.
	Rate float64 `json:"rate"`
}

// Voice is the pack's voice for an engine; "" when it names none.
func (s Speech) Voice(engine string) string { return s.Voices[engine] }

// checkDefaults validates the card and speech of a manifest.
func (m *manifest) checkDefaults(p *Pack) error {
	card := strings.TrimSpace(m.Card)
	if n := utf8.RuneCountInString(card); n > MaxCardLen {
		return fmt.Errorf(`"card" has %d characters, at most %d`, n, MaxCardLen)
	}
	p.Card = card
	if m.Speech == nil {
		return nil
	}
	sp := Speech{Rate: m.Speech.Rate, Voices: map[string]string{}}
	if sp.Rate != 0 && (sp.Rate < 0.25 || sp.Rate > 4) {
		return fmt.Errorf(`"speech" "rate" %g is outside 0.25..4`, sp.Rate)
	}
	for engine, v := range m.Speech.Voices {
		v = strings.TrimSpace(v)
		switch {
		case !slices.Contains(VoiceKeys, engine): // voices.go
			return fmt.Errorf(`"speech" "voices" names engine %q (one of %s)`, engine, strings.Join(VoiceKeys, ", "))
		case utf8.RuneCountInString(v) > MaxNameLen:
			return fmt.Errorf(`"speech" voice for %s is longer than %d characters`, engine, MaxNameLen)
		case v != "":
			sp.Voices[engine] = v
		}
	}
	p.Speech = sp
	return nil
}
