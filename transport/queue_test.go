package transport

import (
	"testing"
	"time"
)

func TestEventQueueKeepsOrderAndNeverBlocks(t *testing.T) {
	q := NewEventQueue()
	const n = 1000
	for i := 0; i < n; i++ { // nobody reads yet: Push must not block
		q.Push(&ReasoningEvent{Delta: string(rune('a' + i%26))})
	}
	go q.Run()
	for i := 0; i < n; i++ {
		select {
		case ev := <-q.C():
			if got := ev.(*ReasoningEvent).Delta; got != string(rune('a'+i%26)) {
				t.Fatalf("event %d = %q: order lost", i, got)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("event %d never delivered", i)
		}
	}
	q.Close()
	q.Close()
	q.Push(&ReasoningEvent{}) // dropped after Close, no panic
	select {
	case _, ok := <-q.C():
		if ok {
			t.Fatal("event delivered after Close")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("C not closed after Close")
	}
}

func TestIsSilent(t *testing.T) {
	for s, want := range map[string]bool{"": true, "  ": true, "[SILENT]": true, " [SILENT]\n": true, "hi": false, "[SILENT] hi": false} {
		if IsSilent(s) != want {
			t.Errorf("IsSilent(%q) = %v", s, !want)
		}
	}
}
