package transcript

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"yui/transport/clock/clocktest"
)

// TestEntriesStayBoundedWhateverTheBackendSends: a reply or reasoning
// that grows frame after frame (a backend that never ends a turn) stops
// at MaxText code points; many such entries keep the whole history under
// MaxTotalText, in memory and saved; a history file holding a longer
// text (an edit by hand) is cut on load.
func TestEntriesStayBoundedWhateverTheBackendSends(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(1_700_000_000, 0))
	st := &memStore{}
	l := Open(Options{Storage: st, Clock: clk, SaveDelay: time.Second})
	if e := l.Add(Entry{Kind: KindReply, TurnID: "b-0", Text: strings.Repeat("é", 2*MaxText)}); utf8.RuneCountInString(e.Text) != MaxText {
		t.Fatalf("added: %d code points", utf8.RuneCountInString(e.Text))
	}
	sentence := strings.Repeat("a", 9999) + " "
	for turn := range 24 {
		reply := l.Add(Entry{Kind: KindReply, TurnID: "b-1"})
		for range MaxText/len(sentence) + 2 { // past MaxText
			l.Grow(reply.Seq, func(e *Entry) { e.Text += sentence })
		}
		es := l.Entries()
		last := es[len(es)-1]
		if n := utf8.RuneCountInString(last.Text); n != MaxText || !strings.HasSuffix(last.Text, "…") {
			t.Fatalf("turn %d: reply of %d code points", turn, n)
		}
	}
	total := 0
	for _, e := range l.Entries() {
		total += len(e.Text)
	}
	if total > MaxTotalText {
		t.Fatalf("history holds %d bytes of text, over %d", total, MaxTotalText)
	}
	clk.Advance(time.Second)
	if len(st.data) > MaxTotalText+64<<10 {
		t.Fatalf("saved history: %d bytes", len(st.data))
	}
	l.Close()

	st.data = []byte(`{"version":1,"entries":[{"seq":1,"kind":"reply","text":"` + strings.Repeat("b", MaxText+10) + `"}]}`)
	es := Open(Options{Storage: st}).Entries()
	if len(es) != 1 || utf8.RuneCountInString(es[0].Text) != MaxText {
		t.Fatalf("loaded: %d entries", len(es))
	}
}
