package voice

import "testing"

func TestMatchWake(t *testing.T) {
	words := DefaultWakeWords("Yui")
	for _, tt := range []struct {
		in, rest string
		ok       bool
	}{
		{"Yui, what time is it?", "what time is it?", true},
		{"hey yui what's the weather", "what's the weather", true},
		{"Hey, Yui. Open the browser.", "Open the browser.", true},
		{"YUI!", "", true},
		{"— Yui… tell me a joke", "tell me a joke", true},
		{"What time is it?", "What time is it?", false},
		{"Yuki, come here", "Yuki, come here", false},
		{"hey there Yui", "hey there Yui", false},
		{"", "", false},
	} {
		rest, ok := MatchWake(tt.in, words)
		if rest != tt.rest || ok != tt.ok {
			t.Errorf("MatchWake(%q) = %q, %v; want %q, %v", tt.in, rest, ok, tt.rest, tt.ok)
		}
	}
	if _, ok := MatchWake("computer, lights", []string{"Computer"}); !ok {
		t.Error("a configured wake word")
	}
}
