package aec

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// coherence follows how much of the microphone the filter's own echo
// estimate explains, bin by bin: their magnitude-squared coherence over
// frames of cohBlocks blocks (Hann-windowed, a block apart), its spectra
// smoothed over about 50 ms (cohSmooth). The suppressor (suppress.go)
// takes that share of the error for echo.
//
// The frame is longer than the suppressor's so that an echo that stepped
// under the filter still lies within it: coherence does not care where
// in a frame the echo lies, only that it is there. On issue 35's rig the
// echo steps by up to 10 ms at a time (track.go); over the suppressor's
// own 16 ms frames a step of 8.6 ms left a fifth of the coherence and let
// 100 ms of the pet's voice through at -26 dBFS. Not safe for concurrent
// use.
type coherence struct {
	fft      *fourier.FFT
	win, tf  []float64
	d, a     []float64 // the last frame of microphone and estimate
	fd, fa   []complex128
	pdd, paa []float64
	pda      []complex128
}

// cohBlocks is the coherence frame's length in blocks: 32 ms.
const cohBlocks = 4

// cohSmooth is the spectra's smoothing per block: about 50 ms, short
// enough that the user's first syllable over the pet lowers the coherence
// of the bins it fills before it is cut.
const cohSmooth = 0.85

// cohBias is what the estimate reads for two unrelated signals over so
// few frames (about 1/12 for this smoothing, more for frames that
// overlap by three quarters): taken off, so that the user's voice, which
// the estimate does not explain, keeps its gain. Without it the 32 ms
// frames cost the user's sentence over the pet 0.4 dB of signal to
// distortion in TestDoubleTalkKeepsNearEnd.
const cohBias = 0.1

func newCoherence(b int) *coherence {
	n := cohBlocks * b
	bins := n/2 + 1
	c := &coherence{
		fft: fourier.NewFFT(n),
		win: make([]float64, n), tf: make([]float64, n),
		d: make([]float64, n), a: make([]float64, n),
		fd: make([]complex128, bins), fa: make([]complex128, bins),
		pdd: make([]float64, bins), paa: make([]float64, bins),
		pda: make([]complex128, bins),
	}
	for i := range c.win {
		c.win[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n))
	}
	return c
}

// add takes one block of microphone and estimate.
func (c *coherence) add(mic, est []float64) {
	slide(c.d, mic)
	slide(c.a, est)
	c.transform(c.d, c.fd)
	c.transform(c.a, c.fa)
	const s = cohSmooth
	for k, d := range c.fd {
		y := c.fa[k]
		c.pdd[k] = s*c.pdd[k] + (1-s)*sq(d)
		c.paa[k] = s*c.paa[k] + (1-s)*sq(y)
		c.pda[k] = complex(s, 0)*c.pda[k] + complex(1-s, 0)*d*complex(real(y), -imag(y))
	}
}

// at is the coherence at bin k of a spectrum of bins bins over the same
// band (the suppressor's): the nearest of this one's.
func (c *coherence) at(k, bins int) float64 {
	j := k * (len(c.fd) - 1) / (bins - 1)
	den := c.pdd[j]*c.paa[j] + 1e-20
	v := min(sq(c.pda[j])/den, 1)
	return max(v-cohBias, 0) / (1 - cohBias)
}

func (c *coherence) transform(in []float64, dst []complex128) {
	for i, v := range in {
		c.tf[i] = v * c.win[i]
	}
	c.fft.Coefficients(dst, c.tf)
}

// slide moves a frame on by one block: the oldest block out, b in.
func slide(frame, b []float64) {
	copy(frame, frame[len(b):])
	copy(frame[len(frame)-len(b):], b)
}
