package delegation

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"yui/transport"
)

// TestBackendCannotGrowTheStoredHistory: a backend sending frame after
// frame of the largest items it can (long ids, titles and summaries, made
// up states and statuses) leaves a stored history of at most MaxHistory
// items, each within the limits: its size is bounded whatever it sends.
func TestBackendCannotGrowTheStoredHistory(t *testing.T) {
	store := &memStore{}
	h := NewHistory(store)
	big := strings.Repeat("x", 4000)
	now := t0
	for frame := range 300 {
		var items []transport.Delegation
		for i := range 60 {
			id := fmt.Sprintf("d-%d-%d", frame, i)
			if i%3 == 0 {
				id += strings.Repeat("i", 300) // past MaxID: dropped
			}
			items = append(items, transport.Delegation{ID: id, Title: big, Summary: big + big, State: "done",
				Status: big, StartedAt: ms(now), EndedAt: ms(now)})
		}
		now = now.Add(time.Second)
		h.Update(items, now)
	}
	if n := len(store.items); n > MaxHistory {
		t.Fatalf("stored %d items", n)
	}
	for _, it := range store.items {
		if len(it.ID) > MaxID || len([]rune(it.Title)) > MaxTitle || len([]rune(it.Summary)) > MaxSummary || it.Status != StatusUnknown {
			t.Fatalf("item past the limits: id %d bytes, title %d, summary %d, status %q",
				len(it.ID), len([]rune(it.Title)), len([]rune(it.Summary)), it.Status)
		}
	}
	b, _ := json.Marshal(store.items)
	if max := MaxHistory * (MaxID + MaxTitle*4 + MaxSummary*4 + 200); len(b) > max {
		t.Fatalf("stored history is %d bytes, over %d", len(b), max)
	}
}
