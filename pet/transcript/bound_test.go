package transcript

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"yui/transport/clock"
)

// TestEntriesStayBoundedWhateverTheBackendSends: a reply or reasoning
// that grows frame after frame (a backend that never ends a turn) stops
// at MaxText code points, and so does the saved history; a history file
// holding a longer text (an edit by hand) is cut on load.
func TestEntriesStayBoundedWhateverTheBackendSends(t *testing.T) {
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	st := &memStore{}
	l := Open(Options{Storage: st, Max: 4, Clock: clk, SaveDelay: time.Second})
	sentence := strings.Repeat("a", 1000) + " "
	reply := l.Add(Entry{Kind: KindReply, TurnID: "b-1", Text: strings.Repeat("é", 3*MaxText)})
	reasoning := l.Add(Entry{Kind: KindReasoning, TurnID: "b-1", Streaming: true})
	for range 200 { // 200 frames of 1000 characters each, over 6 MaxTexts
		l.Grow(reply.Seq, func(e *Entry) { e.Text += sentence })
		l.Grow(reasoning.Seq, func(e *Entry) { e.Text += sentence })
	}
	for _, e := range l.Entries() {
		if n := utf8.RuneCountInString(e.Text); n > MaxText || !strings.HasSuffix(e.Text, "…") {
			t.Fatalf("%s entry: %d code points", e.Kind, n)
		}
	}
	clk.Advance(time.Second)
	if len(st.data) > 4*(4*MaxText+200) {
		t.Fatalf("saved history: %d bytes", len(st.data))
	}
	l.Close()

	st.data = []byte(`{"version":1,"entries":[{"seq":1,"kind":"reply","text":"` + strings.Repeat("b", 2*MaxText) + `"}]}`)
	es := Open(Options{Storage: st}).Entries()
	if len(es) != 1 || utf8.RuneCountInString(es[0].Text) != MaxText {
		t.Fatalf("loaded: %d entries", len(es))
	}
}
