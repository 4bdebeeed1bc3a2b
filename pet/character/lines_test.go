package character

import (
	"testing"

	"yui/assets"
)

// TestBuiltinPacksSpeakEveryLanguage: Yui's and Mint's filler and failure
// lines come in every shipped language (assets/lang), and InLanguage
// picks them; a language a pack lacks keeps the top-level lines.
func TestBuiltinPacksSpeakEveryLanguage(t *testing.T) {
	for _, id := range assets.BuiltinIDs {
		p, err := Load(assets.BuiltinCharacter(id))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, lang := range []string{"ja", "ko", "zh-Hans", "es", "de"} {
			l := p.InLanguage(lang)
			if len(l.FillerLines) == 0 || len(l.FailureLines) == 0 || l.FillerLines[0] == p.FillerLines[0] ||
				l.FailureLines[0] == p.FailureLines[0] {
				t.Errorf("%s in %s: filler %q, failure %q", id, lang, l.FillerLines, l.FailureLines)
			}
		}
		if en := p.InLanguage("en"); en != p {
			t.Errorf("%s in English is not the pack itself", id)
		}
	}
}
