package aec

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// suppressor takes out the echo the linear filter left: a short-time
// spectral gain on the error, from the residual echo the filter's leak
// estimate predicts (leak times the echo estimate's power, held over a
// short decay for the room's tail). Frames of n = 2b samples, hop b, with
// a square-root Hann window on analysis and synthesis (their product sums
// to one at 50% overlap), so the output is the input, delayed by b, where
// the gain is one.
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
	echoActive bool // last frame had a residual worth suppressing
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
	}
	for i := range s.win {
		s.win[i] = math.Sqrt(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n)))
	}
	for k := range s.gain {
		s.gain[k] = 1
	}
	return s
}

// process takes one block of error e and echo estimate y, the filter's
// leak and whether the echo may be louder than the filter believes
// (unsure: not converged yet, pathGain the rough echo-to-reference
// power ratio then), and writes b samples of cleaned signal into out.
func (s *suppressor) process(e, y, far []float64, leak float64, unsure bool, pathGain float64, out []float64) {
	b := s.b
	copy(s.eIn, s.eIn[b:])
	copy(s.eIn[b:], e)
	copy(s.yIn, s.yIn[b:])
	copy(s.yIn[b:], y)
	s.transform(s.eIn, s.fe)
	if unsure {
		// Before the filter converges its estimate is too small: predict
		// the echo from the reference itself.
		for i := range b {
			s.yIn[b+i] = far[i]
		}
		leak = pathGain
	}
	s.transform(s.yIn, s.fy)
	if unsure {
		copy(s.yIn[b:], y)
	}
	s.echoActive = false
	for k := range s.fe {
		r := overSuppress * leak * sq(s.fy[k])
		s.resid[k] = max(r, residDecay*s.resid[k])
		pe := sq(s.fe[k]) + 1e-12
		post := pe / (s.resid[k] + 1e-12)
		// Decision-directed a-priori echo-to-signal ratio (Ephraim-Malah).
		prio := 0.8*s.prior[k]/(s.resid[k]+1e-12) + 0.2*max(post-1, 0)
		g := prio / (1 + prio)
		g = max(g, s.floorGain)
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

func (s *suppressor) transform(in []float64, dst []complex128) {
	for i, v := range in {
		s.tf[i] = v * s.win[i]
	}
	s.fft.Coefficients(dst, s.tf)
}
