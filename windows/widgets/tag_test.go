package widgets

import "testing"

func TestEmptyTagMeasuresNothing(t *testing.T) {
	tg := &Tag{Italic: true, MaxWidth: 100, MaxLines: 1}
	if l := tg.lines(); len(l) != 0 {
		t.Errorf("lines of an empty tag: %q", l)
	}
}
