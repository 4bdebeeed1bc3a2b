package pet

import (
	"strings"
	"testing"
	"unicode/utf8"

	"yui/pet/transcript"
	"yui/transport"
)

// TestStreamedReasoningStaysBounded: a turn's reasoning that streams
// without end is cut at transcript.MaxText code points in the view too.
func TestStreamedReasoningStaysBounded(t *testing.T) {
	e := newEnv(t, nil)
	e.c.SendText("hi", nil)
	delta := strings.Repeat("think ", 20000)
	evs := make([]transport.Event, 0, 10)
	for range 10 { // 1,200,000 characters
		evs = append(evs, &transport.ReasoningEvent{TurnID: "t1", Delta: delta})
	}
	e.ev(evs...)
	got := e.view().Reasoning
	if n := utf8.RuneCountInString(got); n != transcript.MaxText || !strings.HasPrefix(got, "think think") {
		t.Fatalf("reasoning: %d code points", n)
	}
}
