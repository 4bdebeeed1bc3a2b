package character

import "testing"

// The built-in packs suggest a voice for espeak-ng, SAPI, Kokoro and
// Piper, and the suggestion is the most specific name for the engine.
func TestSuggestedVoices(t *testing.T) {
	for _, id := range []string{"yui", "mint"} {
		p, ok := Builtin(id)
		if id == DefaultID {
			p, ok = Default(), true
		}
		if !ok {
			t.Fatalf("no built-in %s", id)
		}
		for _, k := range []string{"espeak-ng", "sapi", "kokoro", "piper", "openai", "alltalk"} {
			if p.Speech.Voices[k] == "" {
				t.Errorf("%s names no %s voice", id, k)
			}
		}
		if got := p.Speech.Suggest("openai", "kokoro"); got != p.Speech.Voices["kokoro"] {
			t.Errorf("%s on Kokoro: %q", id, got)
		}
		if got := p.Speech.Suggest("openai", "tts-1"); got != p.Speech.Voices["openai"] {
			t.Errorf("%s on OpenAI: %q", id, got)
		}
		if got := p.Speech.Suggest("system", ""); got != p.Speech.Voices[SystemKey()] {
			t.Errorf("%s on the system voice: %q", id, got)
		}
		if got := p.Speech.Suggest("piper", ""); got != p.Speech.Voices["piper"] {
			t.Errorf("%s on piper: %q", id, got)
		}
		if got := p.Speech.Suggest("alltalk", ""); got != p.Speech.Voices["alltalk"] {
			t.Errorf("%s on alltalk: %q", id, got)
		}
	}
	s := Speech{Voices: map[string]string{"system": "any"}}
	if s.Suggest("system", "") != "any" || s.Suggest("gpt-sovits", "") != "" {
		t.Errorf("fallbacks: %q %q", s.Suggest("system", ""), s.Suggest("gpt-sovits", ""))
	}
}
