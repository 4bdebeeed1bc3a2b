package voice

import (
	"context"
	"testing"
	"time"

	"yui/transport/clock/clocktest"
)

// OnEnd comes once, with the block that holds the file's last sample.
func TestFileOnEndAfterLastSample(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	fm := Format{SampleRate: 16000, Channels: 1}
	n := FrameSamples(fm.SampleRate)
	f := NewFile(make([]int16, 2*n+1), fm.SampleRate, fc) // three blocks
	ends := make(chan int, 4)
	blocks := 0
	f.OnEnd = func() { ends <- blocks }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- f.Start(ctx, fm, func([]int16) { blocks++ }) }()
	for range 5 {
		if !fc.WaitPending(1, 5*time.Second) {
			t.Fatal("the file armed no block timer")
		}
		fc.Advance(FrameDuration)
	}
	fc.WaitPending(1, 5*time.Second)
	cancel()
	<-done
	close(ends)
	var got []int
	for b := range ends {
		got = append(got, b)
	}
	if len(got) != 1 || got[0] != 3 {
		t.Fatalf("OnEnd after blocks %v, want once after 3", got)
	}
}

// Blocks are due whole frames after the start, as a microphone's are: the
// time a block takes to hand on does not push the next one later.
func TestFileKeepsTimeWhileBlocksAreHandedOn(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	fm := Format{SampleRate: 16000, Channels: 1}
	f := NewFile(make([]int16, 10*FrameSamples(fm.SampleRate)), fm.SampleRate, fc)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	blocks := make(chan time.Time, 16)
	first := true
	done := make(chan error, 1)
	go func() {
		done <- f.Start(ctx, fm, func([]int16) {
			if first { // the first block takes 5 ms to hand on
				first = false
				fc.Advance(5 * time.Millisecond)
			}
			blocks <- fc.Now()
		})
	}()
	epoch := time.Unix(0, 0)
	for i, step := range []time.Duration{FrameDuration, FrameDuration - 5*time.Millisecond} {
		if !fc.WaitPending(1, 5*time.Second) {
			t.Fatal("the file armed no block timer")
		}
		fc.Advance(step)
		select {
		case <-blocks:
		case <-time.After(5 * time.Second):
			t.Fatalf("block %d not delivered on its frame (clock at %v)", i+1, fc.Now().Sub(epoch))
		}
	}
	cancel()
	<-done
}
