package voice

import (
	"context"
	"math"
	"testing"
)

// fixedCapture plays its blocks once and returns.
type fixedCapture [][]int16

func (c fixedCapture) Start(ctx context.Context, _ Format, onFrame func([]int16)) error {
	for _, b := range c {
		onFrame(b)
	}
	return nil
}

func tone(n int, amp float64) []int16 {
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(amp * 32767 * math.Sin(float64(i)*2*math.Pi*440/16000))
	}
	return out
}

// TestMeterFollowsTheLevel: quiet audio reads low, a loud tone reads high,
// and the threshold sits the configured dB over the floor.
func TestMeterFollowsTheLevel(t *testing.T) {
	var blocks fixedCapture
	for range 20 { // 2 s of near silence, in odd-sized blocks
		blocks = append(blocks, tone(1597, 0.001))
	}
	blocks = append(blocks, tone(16000, 0.5)) // 1 s of a loud tone
	var got []Reading
	if err := Meter(context.Background(), blocks, VADConfig{Threshold: 12}, func(r Reading) { got = append(got, r) }); err != nil {
		t.Fatal(err)
	}
	if len(got) < 25 {
		t.Fatalf("%d readings for 3 s of audio", len(got))
	}
	first, last := got[5], got[len(got)-1]
	if first.Level > -50 || last.Level < -12 {
		t.Fatalf("levels quiet %.1f, loud %.1f dBFS", first.Level, last.Level)
	}
	if d := first.Threshold - first.Floor; math.Abs(d-12) > 1e-9 {
		t.Fatalf("threshold %.1f dB over the floor, want 12", d)
	}
}
