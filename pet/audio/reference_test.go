package audio

import (
	"math"
	"testing"
	"time"

	"yui/transport/clock"
	"yui/transport/clock/clocktest"
)

// The reference gives back what the mixer handed out, at 16 kHz, where
// the clock says it was handed: a 1 kHz tone keeps its level, the time
// before it and after the output went idle is silence.
func TestReferenceFollowsTheMix(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(1000, 0))
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

// The reference follows the output's schedule, as write's doc says: an
// output that pulls 15 ms every 15 ms, 45 ms ahead of the clock, keeps a
// timeline that counts on through a 30 ms stall (the lead covers it), and
// that moves up by exactly the gap after a 60 ms one (the speaker played
// 15 ms of silence): a click pulled after each stall sits where it plays.
func TestReferenceFollowsTheOutputSchedule(t *testing.T) {
	const period = 15 * time.Millisecond
	n := int(period * Rate / time.Second)
	for _, tc := range []struct {
		name  string
		stall time.Duration
		shift time.Duration // how much later than the count the click plays
	}{
		{"stall within the lead", 30 * time.Millisecond, 0},
		{"underrun", 60 * time.Millisecond, 15 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := clocktest.NewFake(time.Unix(1000, 0))
			ref := NewReference(clk)
			start := clk.Now()
			silence := make([]float32, n)
			// The output fills its 45 ms lead at once, then pulls a
			// period each period.
			pulled := 0
			for range 3 {
				ref.write(silence)
				pulled += n
			}
			for range 10 {
				clk.Advance(period)
				ref.write(silence)
				pulled += n
			}
			// The stall: the output pulls nothing, then refills its
			// lead; the click is the first sample after the stall.
			clk.Advance(tc.stall)
			pullClick(t, ref, n, start.Add(time.Duration(pulled)*time.Second/Rate+tc.shift))
		})
	}
}

// A reference on a mixer keeps the mixer's output awake while a listener
// holds it, and lets it sleep once every hold is released, once each.
func TestReferenceKeepsTheOutputRunning(t *testing.T) {
	m := NewMixer()
	r := NewReference(nil)
	if release := r.KeepRunning(); release == nil {
		t.Fatal("a reference on no mixer returned no release")
	} else {
		release()
	}
	m.SetReference(r)
	a, b := r.KeepRunning(), r.KeepRunning()
	if !m.keptAwake() {
		t.Fatal("held twice, the mixer is not kept awake")
	}
	a()
	a()
	if !m.keptAwake() {
		t.Fatal("one release called twice let go of the other hold")
	}
	b()
	if m.keptAwake() {
		t.Fatal("every hold released, the mixer is still kept awake")
	}
}

// An output that takes 230 ms of the mix at once and then pulls on the
// clock, 230 ms ahead of it, dropped what it took (issue 35's rig, after
// an underrun): half a second on, the timeline moves back, and a click
// pulled then sits a millisecond after the clock, not 230 ms later.
// Pulls within 100 ms of the clock never move it back.
func TestReferenceMovesBackOffADroppedLead(t *testing.T) {
	const period = 15 * time.Millisecond
	n := int(period * Rate / time.Second)
	for _, tc := range []struct {
		name  string
		jump  int           // periods taken at once
		shift time.Duration // where the click lands after the clock
	}{
		{"dropped", 16, time.Millisecond},
		{"within a buffer", 6, 6 * period},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := clocktest.NewFake(time.Unix(1000, 0))
			ref := NewReference(clk)
			silence := make([]float32, n)
			ref.write(silence)
			for range tc.jump {
				ref.write(silence)
			}
			for range 50 { // 750 ms on the clock
				clk.Advance(period)
				ref.write(silence)
			}
			clk.Advance(period)
			pullClick(t, ref, n, clk.Now().Add(tc.shift))
		})
	}
}

// pullClick has the output pull n samples starting with a click, and
// fails t unless the reference has the click where want says it plays.
func pullClick(t *testing.T, ref *Reference, n int, want time.Time) {
	t.Helper()
	click := make([]float32, n)
	click[0] = 1
	ref.write(click)
	got := make([]float32, RefRate/100)
	// Played's window ends at its end: put the click in its middle.
	ref.Played(got, want.Add(5*time.Millisecond))
	peak := 0
	for i, v := range got {
		if math.Abs(float64(v)) > math.Abs(float64(got[peak])) {
			peak = i
		}
	}
	// The resampler's filter puts the click's peak within its
	// half-length of the sample.
	if at := peak - len(got)/2; got[peak] == 0 || at < -2 || at > 10 {
		t.Fatalf("the click is %d samples from where it plays (%v)", at, got)
	}
}
