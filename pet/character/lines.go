package character

// Lines are a pack's filler and failure lines in one language: the
// "lines" object of character.json maps a language (a BCP 47 tag, as
// assets/lang names them) to them; filler_lines and failure_lines at the
// top are the lines of any other language (English in the built-in packs).
//
//	"lines": {"ja": {"filler_lines": ["うーん、ちょっと考えるね。"], "failure_lines": ["…"]}}
type Lines struct {
	Filler  []string `json:"filler_lines"`
	Failure []string `json:"failure_lines"`
}

// checkLanguageLines checks each language's lines as the top-level ones.
func checkLanguageLines(in map[string]Lines) (map[string]Lines, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]Lines, len(in))
	for lang, l := range in {
		var err error
		var c Lines
		if c.Filler, err = checkLines("lines."+lang+".filler_lines", l.Filler); err != nil {
			return nil, err
		}
		if c.Failure, err = checkLines("lines."+lang+".failure_lines", l.Failure); err != nil {
			return nil, err
		}
		out[lang] = c
	}
	return out, nil
}

// InLanguage returns a copy of p whose FillerLines and FailureLines are
// the ones of lang when the pack has them (docs/product.md §13); p itself
// when it has none. The copy shares p's images.
func (p *Pack) InLanguage(lang string) *Pack {
	if p == nil {
		return nil
	}
	l, ok := p.Lines[lang]
	if !ok {
		return p
	}
	q := *p
	if len(l.Filler) > 0 {
		q.FillerLines = l.Filler
	}
	if len(l.Failure) > 0 {
		q.FailureLines = l.Failure
	}
	return &q
}
