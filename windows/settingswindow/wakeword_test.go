package settingswindow

import (
	"slices"
	"testing"
)

func TestParseWakeWords(t *testing.T) {
	if got := parseWakeWords(" Yui, hey Yui ,, "); !slices.Equal(got, []string{"Yui", "hey Yui"}) {
		t.Fatalf("got %q", got)
	}
	if got := parseWakeWords("  "); got != nil {
		t.Fatalf("blank: %q", got)
	}
}
