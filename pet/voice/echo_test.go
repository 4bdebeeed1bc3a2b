package voice

import (
	"testing"
	"time"
)

// The echo floor reads the reference where its echo arrives: the
// loudest block that ended within the span, newest block at zero.
func TestRefLevelsLoudest(t *testing.T) {
	var r refLevels
	const b = 20 * time.Millisecond
	for _, ms := range []float64{0.5, 0.1, 0.2, 0.01, 0.02} { // oldest first
		r.add(ms, b)
	}
	cases := []struct {
		from, to time.Duration
		want     float64
	}{
		{0, 0, 0.02},    // the newest block alone
		{0, b, 0.02},    // the newest two
		{b, 3 * b, 0.2}, // 20 to 60 ms ago
		{3 * b, 5 * b, 0.5},
		{10 * b, 20 * b, 0}, // before anything was recorded
	}
	for _, c := range cases {
		if got := r.loudest(c.from, c.to); got != c.want {
			t.Errorf("loudest(%v, %v) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

// What the canceller leaves of the pet's voice is measured over the
// room's noise: a cleaned stream at the noise's level while she speaks
// (the suppressor cuts no deeper) puts the echo floor 6 dB under the
// noise, not 6 dB over it; one that still holds her voice 10 dB over the
// noise puts it over the noise by about that much and the margin.
func TestEchoFloorCountsTheNoiseOut(t *testing.T) {
	const noise, ref = 3e-5, 1e-2 // -45 and -20 dBFS
	for _, tc := range []struct {
		name    string
		cleaned float64 // the cleaned stream's mean square while she speaks
		lo, hi  float64 // the echo floor's bounds, dB over the noise
	}{
		{"at the noise", noise, -7, -5},
		{"her voice 10 dB over it", noise * 11, 14, 17},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEchoPath(nil, nil)
			for range 50 {
				e.learnNoise(noise)
			}
			for range 400 {
				e.learnGain(ref, tc.cleaned)
			}
			e.peak = ref
			got := e.echoFloor() - dbOf(noise)
			if got < tc.lo || got > tc.hi {
				t.Fatalf("the echo floor is %.1f dB over the noise, want %v to %v", got, tc.lo, tc.hi)
			}
		})
	}
}
