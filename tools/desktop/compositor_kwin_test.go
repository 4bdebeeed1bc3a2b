//go:build linux && !android

package desktop

import (
	"log/slog"
	"testing"
)

// The bus hands KWin's calls over at once: the events apply in the
// script's order, a late duplicate dropped.
func TestKWinOrder(t *testing.T) {
	tab := newFactTable(nil)
	s := &kwinSource{facts: tab, log: slog.New(slog.DiscardHandler), next: 1, pending: map[uint64]factEvent{}}
	for _, text := range []string{
		`{"kind":"window","seq":3,"window":{"id":"1","x":5,"width":10,"height":10,"fullscreen":false}}`,
		`{"kind":"all","seq":1,"windows":[{"id":"1","width":10,"height":10}],"focus":"1","order":["1"]}`,
		`{"kind":"window","seq":2,"window":{"id":"1","x":0,"width":10,"height":10,"fullscreen":true}}`,
		`{"kind":"window","seq":2,"window":{"id":"1","x":9,"width":10,"height":10}}`,
	} {
		ev, err := parseFactEvent(text)
		if err != nil {
			t.Fatal(err)
		}
		s.take(ev)
	}
	w, ok, _ := tab.active()
	if !ok || w.Fullscreen || w.Frame.Min.X != 5 {
		t.Fatalf("after the events out of order: %+v", w)
	}
}
