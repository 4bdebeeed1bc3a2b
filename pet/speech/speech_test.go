package speech

import (
	"context"
	"strings"
	"testing"
	"time"

	"yui/transport/clock/clocktest"
)

func TestReadingTimeIsPacedAndBounded(t *testing.T) {
	tests := []struct {
		text string
		want time.Duration
	}{
		{"", MinReadingTime},
		{"Hi.", MinReadingTime},
		{strings.Repeat("a", 30), 2 * time.Second},
		{strings.Repeat("あ", 45), 3 * time.Second}, // characters, not bytes
		{strings.Repeat("a", 1000), MaxReadingTime},
	}
	for _, tt := range tests {
		if got := ReadingTime(tt.text); got != tt.want {
			t.Errorf("ReadingTime(%d runes) = %v, want %v", len([]rune(tt.text)), got, tt.want)
		}
	}
}

func TestNoneClipStartsAndStopsOnTheClock(t *testing.T) {
	c := clocktest.NewFake(time.Time{})
	clip, err := NewNone(c).Prepare(context.Background(), strings.Repeat("a", 30))
	if err != nil {
		t.Fatal(err)
	}
	s, ok := clip.(Starter)
	if !ok {
		t.Fatal("the none clip is not a Starter")
	}
	done := 0
	s.Start(func(err error) {
		if err != nil {
			t.Errorf("done(%v)", err)
		}
		done++
	})
	c.Advance(2*time.Second - time.Millisecond)
	if done != 0 {
		t.Fatal("done before the reading time")
	}
	c.Advance(time.Millisecond)
	if done != 1 {
		t.Fatalf("done %d times after the reading time", done)
	}

	stop := s.Start(func(error) { done++ })
	stop()
	c.Advance(time.Minute)
	if done != 1 || c.Pending() != 0 {
		t.Fatalf("a stopped clip finished (done %d, timers %d)", done, c.Pending())
	}
}

func TestNonePlayBlocksUntilPlayedOrCancelled(t *testing.T) {
	c := clocktest.NewFake(time.Time{})
	clip, _ := NewNone(c).Prepare(context.Background(), "Hi.")
	errc := make(chan error, 1)
	go func() { errc <- clip.Play(context.Background()) }()
	if !c.WaitPending(1, 5*time.Second) {
		t.Fatal("Play armed no timer")
	}
	c.Advance(MinReadingTime)
	if err := <-errc; err != nil {
		t.Fatalf("Play = %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := clip.Play(ctx); err != context.Canceled {
		t.Fatalf("Play(cancelled) = %v", err)
	}
	if n := c.Pending(); n != 0 {
		t.Fatalf("%d timers left after a cancelled Play", n)
	}
}
