package voice

import (
	"testing"
	"time"
)

// The capture timeline, as its doc says: blocks of 10 ms (160 samples at
// 16 kHz) whose callbacks run at the given milliseconds are stamped at the
// wanted ones.
func TestCaptureTimeline(t *testing.T) {
	for _, tc := range []struct {
		name string
		cb   []int // callback times, ms
		want []int // stamps, ms
	}{
		{"steady", []int{10, 20, 30, 40}, []int{10, 20, 30, 40}},
		{"stall and backlog", []int{10, 20, 75, 76, 77, 78, 79, 80}, []int{10, 20, 30, 40, 50, 60, 70, 80}},
		{"jitter never moves it", []int{10, 24, 31, 47, 50, 66}, []int{10, 20, 30, 40, 50, 60}},
		{"late first callback", []int{18, 20, 30, 40}, []int{18, 20, 30, 40}},
		{"fast device", []int{10, 19, 28, 37}, []int{10, 19, 28, 37}},
		// 300 ms of sound lost after the second block: the callbacks
		// run 300 ms behind the count from then on, and after a second
		// of it the timeline moves up by that.
		{"lost samples", lostCallbacks(), lostStamps()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t0 := time.Unix(1000, 0)
			c := captureTimeline{rate: 16000}
			for i, ms := range tc.cb {
				got := c.stamp(160, t0.Add(time.Duration(ms)*time.Millisecond))
				if want := t0.Add(time.Duration(tc.want[i]) * time.Millisecond); !got.Equal(want) {
					t.Fatalf("block %d: stamped %v, want %d ms", i, got.Sub(t0), tc.want[i])
				}
			}
		})
	}
}

// lostCallbacks: blocks every 10 ms, with 300 ms of capture missing after
// the second; lostStamps: the count's stamps until the lag has lasted a
// second (captureHold), the callbacks' from there.
func lostCallbacks() []int {
	cb := []int{10, 20}
	for ms := 330; ms <= 1600; ms += 10 {
		cb = append(cb, ms)
	}
	return cb
}

func lostStamps() []int {
	st := []int{10, 20}
	for i, ms := range lostCallbacks()[2:] {
		if ms-330 >= 1000 {
			st = append(st, ms)
			continue
		}
		st = append(st, 30+10*i)
	}
	return st
}
