// Package room simulates the path from a loudspeaker to a microphone in a
// room, for the echo canceller's tests and benchmarks (pet/voice/aec) and
// the hands-free rig (docs/hands-free.md): the loudspeaker's signal
// delayed, filtered by a short synthetic room response (a direct path and
// reflections, a low-pass for the speaker and the air), attenuated, plus a
// noise floor, plus whatever the user says. It streams: the rig feeds it
// what the sound server's monitor records as it comes.
package room

import (
	"math"
	"math/rand/v2"
	"time"
)

// Reflection is one echo of the direct path: later by Delay, at Gain of it.
type Reflection struct {
	Delay time.Duration
	Gain  float64
}

// Room is a loudspeaker-to-microphone path at Rate.
type Room struct {
	Rate int
	// Delay is the direct path's delay and Gain its gain (0.4: the echo
	// 8 dB below the loudspeaker's signal).
	Delay time.Duration
	Gain  float64
	// Reflections follow the direct path.
	Reflections []Reflection
	// LowPass is the cut-off of a one-pole low-pass on the echo, in Hz; 0 is none.
	LowPass float64
	// NoiseDB is the noise floor's RMS in dBFS; -100 or lower is none.
	NoiseDB float64
	Seed    uint64
}

// Issue35 is the room of the measurement in issue 35: the speaker's sound
// 60 ms later at 0.4, two reflections, a -60 dBFS noise floor.
func Issue35() Room {
	return Room{
		Rate: 16000, Delay: 60 * time.Millisecond, Gain: 0.4,
		Reflections: []Reflection{{11 * time.Millisecond, 0.45}, {27 * time.Millisecond, 0.25}},
		LowPass:     5000, NoiseDB: -60, Seed: 35,
	}
}

// Sim is a Room running: Process turns the loudspeaker's samples into
// the microphone's.
type Sim struct {
	taps  []tap
	hist  []float64 // the loudspeaker's signal, a ring of the longest delay
	at    int
	lp    float64 // one-pole coefficient, 0 for none
	lpY   float64
	noise float64
	rng   *rand.Rand
}

type tap struct {
	delay int
	gain  float64
}

// Start returns the room's simulation.
func (r Room) Start() *Sim {
	samples := func(d time.Duration) int { return int(d * time.Duration(r.Rate) / time.Second) }
	s := &Sim{rng: rand.New(rand.NewPCG(r.Seed, 35))}
	s.taps = append(s.taps, tap{samples(r.Delay), r.Gain})
	longest := samples(r.Delay)
	for _, f := range r.Reflections {
		d := samples(r.Delay + f.Delay)
		s.taps = append(s.taps, tap{d, r.Gain * f.Gain})
		longest = max(longest, d)
	}
	s.hist = make([]float64, longest+1)
	if r.LowPass > 0 {
		s.lp = math.Exp(-2 * math.Pi * r.LowPass / float64(r.Rate))
	}
	s.SetNoise(r.NoiseDB)
	return s
}

// SetNoise changes the noise floor to db dBFS (-100 or lower is none):
// the rig moves one running room from a quiet floor to a loud one without
// losing the echo's history.
func (s *Sim) SetNoise(db float64) {
	s.noise = 0
	if db > -100 {
		s.noise = math.Pow(10, db/20)
	}
}

// Process writes into mic the room's echo of speaker plus its noise
// (full scale 1); the two are the same length. Near-end speech is added
// by the caller (AddInto).
func (s *Sim) Process(speaker, mic []float64) {
	n := len(s.hist)
	for i, x := range speaker {
		s.hist[s.at] = x
		var v float64
		for _, t := range s.taps {
			v += t.gain * s.hist[(s.at-t.delay+n)%n]
		}
		s.at = (s.at + 1) % n
		if s.lp > 0 {
			s.lpY = (1-s.lp)*v + s.lp*s.lpY
			v = s.lpY
		}
		mic[i] = v + s.noise*s.rng.NormFloat64()
	}
}

// ToInt16 converts full-scale-1 samples to 16-bit PCM, clipped.
func ToInt16(dst []int16, src []float64) {
	for i, v := range src {
		dst[i] = int16(max(-32768, min(32767, math.Round(v*32768))))
	}
}
