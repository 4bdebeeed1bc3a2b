package audio

import (
	"math"
	"testing"
	"time"

	"yui/transport/clock"
)

// The reference gives back what the mixer handed out, at 16 kHz, where
// the clock says it was handed: a 1 kHz tone keeps its level, the time
// before it and after the output went idle is silence.
func TestReferenceFollowsTheMix(t *testing.T) {
	clk := clock.NewFake(time.Unix(1000, 0))
	m := NewMixer()
	ref := NewReference(clk)
	m.SetReference(ref)
	p := m.NewPlayer()
	s := NewStream()
	tone := make([]float32, Rate/2)
	for i := range tone {
		tone[i] = float32(0.5 * math.Sin(2*math.Pi*1000*float64(i)/Rate))
	}
	s.Write(tone)
	s.Close(nil)
	p.Start(s, func(error) {})
	clk.Advance(time.Second)
	buf := make([]float32, Rate/50) // 20 ms blocks at 24 kHz
	for range 25 {
		m.Read(buf)
		clk.Advance(20 * time.Millisecond)
	}
	got := make([]float32, RefRate/4)
	ref.Played(got, clk.Now().Add(-200*time.Millisecond))
	if rms := rmsOf(got); math.Abs(rms-0.5/math.Sqrt2) > 0.02 {
		t.Fatalf("tone at RMS %.3f, want %.3f", rms, 0.5/math.Sqrt2)
	}
	ref.Played(got, time.Unix(1000, 0).Add(900*time.Millisecond))
	if rmsOf(got) != 0 {
		t.Fatal("the reference holds sound from before the output started")
	}
	clk.Advance(2 * time.Second) // idle: nothing read
	ref.Played(got, clk.Now())
	if rmsOf(got) != 0 {
		t.Fatal("the reference repeats old sound while the output is idle")
	}
}

func BenchmarkReferenceWrite(b *testing.B) {
	ref := NewReference(clock.Real{})
	buf := make([]float32, Rate/100)
	b.ReportAllocs()
	for range b.N {
		ref.write(buf)
	}
}

func rmsOf(s []float32) float64 {
	var e float64
	for _, v := range s {
		e += float64(v) * float64(v)
	}
	return math.Sqrt(e / float64(len(s)))
}
