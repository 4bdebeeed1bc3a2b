package aec

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// filter is the partitioned-block frequency-domain adaptive filter: p
// partitions of b taps each, updated per block by normalised LMS with a
// per-bin step (after Valin, "On adjusting the learning rate in
// frequency domain echo cancellation with double-talk", 2007, the scheme
// Speex's MDF uses). The gradient constraint is applied to the first
// partition and to one other in turn each block (alternately
// unconstrained MDF), which keeps the cost at a few FFTs per block.
//
// Two filters share the far-end history (two-path, as Speex's and
// WebRTC's cancellers do, two.go): w, the background, adapts on every
// block and is allowed to go wrong; fw, the foreground, is what the
// canceller's output is cleaned with, and takes w's weights only when
// they do measurably better.
type filter struct {
	b, n, p int
	fft     *fourier.FFT
	x, w    [][]complex128 // far-end spectra (ring, x[head] newest) and background partitions
	fw      [][]complex128 // foreground partitions
	two     twoPath
	head    int
	far     []float64 // the last two far-end blocks, time domain
	power   []float64 // smoothed far-end power per bin
	prop    []float64 // proportionate step per partition
	tf      []float64 // time-domain scratch, n
	fy, fe  []complex128
	yf, ef  []float64 // |Y|², |E|² of the zero-padded echo estimate and error
	turn    int       // the constrained share this block (adapt.go)
	adapt   adaptState
	resets  int
}

// adaptState is the learning-rate control: smoothed correlations of the
// error with the echo estimate give the leak (the share of the echo the
// filter misses), from which the residual echo ratio and the step follow.
type adaptState struct {
	pey, pyy   float64 // smoothed power-spectrum covariances
	eh, yh     []float64
	leak       float64
	sumAdapt   float64
	adapted    bool
	divergence int
}

func newFilter(b, p int) *filter {
	n := 2 * b
	bins := n/2 + 1
	f := &filter{
		b: b, n: n, p: p,
		fft:   fourier.NewFFT(n),
		x:     make([][]complex128, p),
		w:     make([][]complex128, p),
		fw:    make([][]complex128, p),
		far:   make([]float64, n),
		power: make([]float64, bins),
		prop:  make([]float64, p),
		tf:    make([]float64, n),
		fy:    make([]complex128, bins),
		fe:    make([]complex128, bins),
		yf:    make([]float64, bins),
		ef:    make([]float64, bins),
	}
	for i := range p {
		f.x[i] = make([]complex128, bins)
		f.w[i] = make([]complex128, bins)
		f.fw[i] = make([]complex128, bins)
		f.prop[i] = 1 / float64(p)
	}
	f.adapt.eh = make([]float64, bins)
	f.adapt.yh = make([]float64, bins)
	f.adapt.leak = 1
	return f
}

// Levels below which a block counts as silent, as mean square (full scale 1).
const (
	farActiveMS = 1e-7  // -70 dBFS: the loudspeaker plays something
	regulariser = 1e-10 // keeps a silent bin's step finite
)

// blockStats are the energies of one block, summed over its samples.
type blockStats struct {
	sxx, sdd, syy, see, sey float64
}

// process runs one block: far and mic are b samples; y and e receive the
// foreground's echo estimate and error (mic minus the estimate), the
// canceller's output; yb and eb the background's, which it learns from.
// The returned stats are the foreground's and the background's.
func (f *filter) process(far, mic, y, e, yb, eb []float64) (fg, bg blockStats) {
	b := f.b
	copy(f.far, f.far[b:])
	copy(f.far[b:], far)
	f.head = (f.head + f.p - 1) % f.p
	f.fft.Coefficients(f.x[f.head], f.far)
	f.estimate(f.fw, y)
	f.estimate(f.w, yb)
	for i := range b {
		e[i] = mic[i] - y[i]
		eb[i] = mic[i] - yb[i]
		fg.sxx += far[i] * far[i]
		fg.sdd += mic[i] * mic[i]
		fg.syy += y[i] * y[i]
		fg.see += e[i] * e[i]
		fg.sey += e[i] * y[i]
		bg.syy += yb[i] * yb[i]
		bg.see += eb[i] * eb[i]
		bg.sey += eb[i] * yb[i]
	}
	bg.sxx, bg.sdd = fg.sxx, fg.sdd
	return fg, bg
}

// estimate writes into y the echo the partitions w make of the far-end
// history: the sum over partitions of W_j X_{m-j}, back in time.
func (f *filter) estimate(w [][]complex128, y []float64) {
	clear(f.fy)
	for j := range f.p {
		xj, wj := f.x[(f.head+j)%f.p], w[j]
		for k := range f.fy {
			f.fy[k] += wj[k] * xj[k]
		}
	}
	f.fft.Sequence(f.tf, f.fy)
	inv := 1 / float64(f.n)
	for i := range f.b {
		y[i] = f.tf[f.b+i] * inv
	}
}

// learn adapts the background on the block process just ran (its
// stats, estimate and error), unless the far end was silent for the
// filter's whole span.
func (f *filter) learn(st blockStats, y, e []float64) {
	f.spectra(y, e)
	// NLMS normalises by the far end's power over the filter's span: the
	// mean over the partitions of |X|², per bin.
	clear(f.power)
	for _, xj := range f.x {
		for k, v := range xj {
			f.power[k] += sq(v)
		}
	}
	for k := range f.power {
		f.power[k] /= float64(f.p)
	}
	if st.sxx < farActiveMS*float64(f.b) && !f.recentFar() {
		return
	}
	f.update(st)
}

// recentFar reports whether the far end played during the filter's span:
// its echo may still be arriving.
func (f *filter) recentFar() bool {
	var s float64
	for _, p := range f.power {
		s += p
	}
	// Parseval: the bins' sum is n times the mean square of 2b samples... times n.
	return s > farActiveMS*float64(f.n*f.n)/4
}

// spectra fills yf and ef with the power spectra of the zero-padded echo
// estimate and error, and leaves the error's spectrum in fe.
func (f *filter) spectra(y, e []float64) {
	b := f.b
	clear(f.tf[:b])
	copy(f.tf[b:], y)
	f.fft.Coefficients(f.fy, f.tf)
	copy(f.tf[b:], e)
	clear(f.tf[:b])
	f.fft.Coefficients(f.fe, f.tf)
	for k := range f.yf {
		f.yf[k] = sq(f.fy[k])
		f.ef[k] = sq(f.fe[k])
	}
}

func sq(c complex128) float64 { return real(c)*real(c) + imag(c)*imag(c) }

// diverged starts both filters over when the foreground's output is far
// louder than the microphone (it can only add echo then: the background
// it took went wrong where the comparison could not see it) and reports
// it. A background gone wrong alone is taken back to the foreground
// (two.go).
func (f *filter) diverged(fg blockStats) bool {
	if fg.see > 4*(fg.sdd+1e-5*float64(f.b)) && fg.syy > fg.sdd {
		f.adapt.divergence++
	} else {
		f.adapt.divergence = 0
	}
	if f.adapt.divergence < 2 && !math.IsNaN(fg.see) {
		return false
	}
	for j := range f.p {
		clear(f.w[j])
		clear(f.fw[j])
	}
	f.two = twoPath{}
	f.adapt.divergence, f.adapt.adapted, f.adapt.sumAdapt = 0, false, 0
	f.adapt.pey, f.adapt.pyy = 0, 0
	f.resets++
	return true
}

// shift moves the filter by k partitions when the bulk delay grows by k
// blocks (k < 0: shrinks): the echo then comes k blocks earlier in the
// delayed reference, so partition j takes partition j+k's weights and the
// far-end history moves with it; what falls off either end is zeroed.
func (f *filter) shift(k int) {
	if k == 0 {
		return
	}
	p := f.p
	// Work on the history in filter order (index j is X_{m-j}).
	order := func(j int) int { return (f.head + j) % p }
	if k > 0 {
		for j := 0; j < p; j++ {
			if j+k < p {
				copy(f.w[j], f.w[j+k])
				copy(f.fw[j], f.fw[j+k])
				copy(f.x[order(j)], f.x[order(j+k)])
			} else {
				clear(f.w[j])
				clear(f.fw[j])
				clear(f.x[order(j)])
			}
		}
		return
	}
	k = -k
	for j := p - 1; j >= 0; j-- {
		if j-k >= 0 {
			copy(f.w[j], f.w[j-k])
			copy(f.fw[j], f.fw[j-k])
			copy(f.x[order(j)], f.x[order(j-k)])
		} else {
			clear(f.w[j])
			clear(f.fw[j])
			clear(f.x[order(j)])
		}
	}
}
