package aec

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// suppressor takes out the echo the linear filter left: a short-time
// spectral gain on the error, from the residual echo the filter's leak
// estimate predicts (leak times the echo estimate's power, held over a
// short decay for the room's tail), or, where more, from the coherence of
// the microphone with the filter's estimate (coherence.go): the share of
// a bin's microphone power the estimate explains is taken for echo in the
// error as well. Coherence does not care where the echo lies within its
// frame: when the echo steps by a few milliseconds under a filter that
// had learned it (a real sound server's does, several times a minute:
// track.go), the estimate is out of phase, the error as loud as the echo,
// and the leak estimate, an average over seconds, predicts a residual far
// below it; the estimate still explains the microphone, so the bin is cut.
// The user's voice is not explained by it, and the bins it fills keep
// their gain. Replayed through the canceller, the rig's recordings of
// issue 35 went from 15 and 19 dB of ERLE to 30 and 28 dB; the user's
// sentence over the pet keeps 6.3 dB of signal to distortion in
// TestDoubleTalkKeepsNearEnd (7.5 dB before). WebRTC's first echo
// canceller drew its gain from the same coherence (1 - coherence); here
// it goes through the decision-directed rule below. The gain never cuts
// a bin below the room's noise (learnNoise). Frames of n = 2b samples,
// hop b, with a square-root Hann window on analysis and synthesis (their
// product sums to one at 50% overlap), so the output is the input,
// delayed by b, where the gain is one.
type suppressor struct {
	b, n       int
	fft        *fourier.FFT
	win        []float64
	eIn, yIn   []float64 // the last two blocks of error and echo estimate
	tf         []float64
	fe, fy     []complex128
	resid      []float64 // residual echo power per bin, with its decay
	gain       []float64 // the gain of the last frame, for smoothing
	prior      []float64 // |clean|² of the last frame (decision-directed)
	overlap    []float64 // the second half of the last output frame
	floorGain  float64
	echoActive bool       // last frame had a residual worth suppressing
	coh        *coherence // of the microphone and the filter's own estimate
	noise      []float64  // the room's noise power per bin (learnNoise)
	roomPow    []float64  // the error's power per bin while the far end is silent, smoothed
}

// Suppressor tuning.
const (
	// minGain is the deepest cut, -30 dB: deeper than the residual that
	// is left after the linear filter, shallow enough that words of the
	// user over the pet survive it.
	minGain = 0.0316
	// residDecay is how much of a bin's residual echo carries over to the
	// next frame (8 ms): a room's tail longer than the filter.
	residDecay = 0.6
	// overSuppress weights the predicted residual: the leak estimate is an
	// average, the echo of a loud syllable is above it.
	overSuppress = 2.0
)

func newSuppressor(b int) *suppressor {
	n := 2 * b
	bins := n/2 + 1
	s := &suppressor{
		b: b, n: n,
		fft:       fourier.NewFFT(n),
		win:       make([]float64, n),
		eIn:       make([]float64, n),
		yIn:       make([]float64, n),
		tf:        make([]float64, n),
		fe:        make([]complex128, bins),
		fy:        make([]complex128, bins),
		resid:     make([]float64, bins),
		gain:      make([]float64, bins),
		prior:     make([]float64, bins),
		overlap:   make([]float64, b),
		floorGain: minGain,
		coh:       newCoherence(b),
		noise:     make([]float64, bins),
		roomPow:   make([]float64, bins),
	}
	for i := range s.win {
		s.win[i] = math.Sqrt(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n)))
	}
	for k := range s.gain {
		s.gain[k] = 1
	}
	return s
}

// block is what the suppressor takes of one block.
type block struct {
	e, y     []float64 // the filter's error and echo estimate (y cleared when it did harm: aec.go)
	far, mic []float64 // the delayed reference and the microphone
	est      []float64 // the filter's own estimate, never cleared (coherence)
	leak     float64   // the filter's leak estimate (adapt.go)
	// unsure: the echo may be louder than the filter believes (not
	// converged yet, or it just did harm); pathGain is the rough
	// echo-to-reference power ratio then.
	unsure   bool
	pathGain float64
	// room: the far end has been silent for roomAfter, the error is the
	// room's own sound (its noise, or the user).
	room bool
}

// process cleans one block into out (b samples).
func (s *suppressor) process(in block, out []float64) {
	b := s.b
	slide(s.eIn, in.e)
	slide(s.yIn, in.y)
	s.transform(s.eIn, s.fe)
	s.coh.add(in.mic, in.est)
	leak := in.leak
	if in.unsure {
		// Before the filter converges its estimate is too small: predict
		// the echo from the reference itself.
		copy(s.yIn[b:], in.far)
		leak = in.pathGain
	}
	s.transform(s.yIn, s.fy)
	if in.unsure {
		copy(s.yIn[b:], in.y)
	}
	if in.room {
		s.learnNoise()
	}
	s.echoActive = false
	for k := range s.fe {
		pe := sq(s.fe[k]) + 1e-12
		r := overSuppress * leak * sq(s.fy[k])
		// The share of the microphone the estimate explains is echo in
		// the error too, wherever the filter's taps have slipped.
		r = max(r, s.coh.at(k, len(s.fe))*pe)
		s.resid[k] = max(r, residDecay*s.resid[k])
		post := pe / (s.resid[k] + 1e-12)
		// Decision-directed a-priori echo-to-signal ratio (Ephraim-Malah).
		prio := 0.8*s.prior[k]/(s.resid[k]+1e-12) + 0.2*max(post-1, 0)
		g := prio / (1 + prio)
		g = max(g, s.floorGain)
		// No deeper than the room's noise: a cut below it leaves holes in
		// the noise while the pet speaks, and the noise coming back as she
		// stops is a rise the voice detector hears (issue 35's rig, at
		// -45 dBFS: an utterance at the end of most replies).
		g = max(g, math.Sqrt(min(s.noise[k]/pe, 1)))
		if g < 0.5 {
			s.echoActive = true
		}
		s.gain[k] = g
		s.prior[k] = g * g * pe
		s.fe[k] *= complex(g, 0)
	}
	s.fft.Sequence(s.tf, s.fe)
	inv := 1 / float64(s.n)
	for i := range b {
		out[i] = s.overlap[i] + s.tf[i]*s.win[i]*inv
		s.overlap[i] = s.tf[b+i] * s.win[b+i] * inv
	}
}

// learnNoise follows the room's noise per bin from the error while the
// far end is silent: its power smoothed over about 80 ms (a single
// frame's lies anywhere from a tenth to three times the mean), and of
// that the floor, at once down and slowly up (about a second), so the
// user talking between replies lifts it little.
func (s *suppressor) learnNoise() {
	for k, f := range s.fe {
		s.roomPow[k] += noiseSmooth * (sq(f) - s.roomPow[k])
		p := s.roomPow[k]
		if p < s.noise[k] || s.noise[k] == 0 {
			s.noise[k] = p
		} else {
			s.noise[k] += noiseRise * (p - s.noise[k])
		}
	}
}

// noiseSmooth is the room's power's smoothing per block (8 ms);
// noiseRise is its floor's rise per block.
const (
	noiseSmooth = 0.1
	noiseRise   = 0.008
)

func (s *suppressor) transform(in []float64, dst []complex128) {
	for i, v := range in {
		s.tf[i] = v * s.win[i]
	}
	s.fft.Coefficients(dst, s.tf)
}
