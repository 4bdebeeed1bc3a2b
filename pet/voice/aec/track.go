package aec

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"
)

// tracker follows the echo to the sample once the filter has learned it.
//
// The delay estimator (delay.go) finds the bulk delay to 4 ms and the
// filter's taps hold the rest; but a filter that learned an echo is lost
// when the echo moves by a fraction of a block — 2 ms turns its phase
// around above 250 Hz — and relearning takes it seconds. On a real sound
// server such moves are common: issue 35's rig, on PulseAudio, measured
// the echo stepping by 1–17 ms several times a minute, as the output's
// reference caught up with an output that had run dry or a pull that came
// late (pet/audio/reference.go) and as the server's own buffers moved
// (docs/hands-free.md). The tracker measures where the echo's strongest
// path lies in the delayed reference, by the phase transform of their
// cross-spectrum (GCC-PHAT) over the last half second, and remembers it
// once the filter has converged; when two measurements in a row agree the
// path has moved, the canceller moves its reference by as much and the
// filter's taps fit again.
//
// For example, the filter learns an echo whose strongest path lies 40 ms
// into its span (sample 640); the output stalls and its reference jumps
// 2.5 ms: the path now measures at sample 600, twice, and the canceller
// reads its reference 40 samples earlier. Not safe for concurrent use.
type tracker struct {
	fft        *fourier.FFT
	n          int       // FFT size
	win, span  int       // microphone window; lags searched, 0 to span-1
	mic, far   []float64 // rings of the last win+span samples
	pos        int       // where the next block goes in the rings: the oldest sample
	fill       int       // samples in the rings since the last reset
	active     []bool    // far-end activity of each block in the window (ring)
	blocks     int
	since      int // samples since the last measurement
	ref        int // where the path lay when the filter had learned it; -1: not yet
	cand       int // the last measurement that disagreed with ref; -1: none
	a, b, cc   []float64
	ca, cb     []complex128
	loBin, hiB int
}

// Tracker tuning: half a second of microphone, a measurement every
// 128 ms, the path's peak standing trackPeak times over the correlation's
// RMS across the lags, and moves of at least trackMin samples.
const (
	trackWin   = 4096
	trackEvery = 1024
	trackPeak  = 6.0
	trackMin   = 3 // the measurement wobbles by a sample
	trackAgree = 2
)

func newTracker(span int) *tracker {
	n := 1
	for n < trackWin+span {
		n *= 2
	}
	t := &tracker{
		fft: fourier.NewFFT(n), n: n, win: trackWin, span: span,
		mic: make([]float64, trackWin+span), far: make([]float64, trackWin+span),
		active: make([]bool, trackWin/Block),
		ref:    -1, cand: -1,
		a: make([]float64, n), b: make([]float64, n), cc: make([]float64, n),
		ca: make([]complex128, n/2+1), cb: make([]complex128, n/2+1),
	}
	// The speech band: below it the room's hum, above it the low-pass of
	// speaker and air leave little of the reference to align on.
	t.loBin, t.hiB = 200*n/Rate, 5000*n/Rate
	return t
}

// reset forgets the window: what follows a move must fill it again.
func (t *tracker) reset() { t.fill, t.since, t.cand = 0, 0, -1 }

// forget also drops the learned position (the filter starts over).
func (t *tracker) forget() { t.reset(); t.ref = -1 }

// shifted tells the tracker the delayed reference moved by k samples
// later (the bulk delay grew by k and the filter's partitions with it):
// the path lies k samples earlier in it.
func (t *tracker) shifted(k int) {
	t.reset()
	if t.ref >= 0 {
		t.ref -= k
		if t.ref < 0 || t.ref >= t.span {
			t.ref = -1
		}
	}
}

// add takes one block of microphone and delayed reference; learned says
// the filter has converged. It returns by how many samples the echo has
// moved later (negative: earlier), 0 when it has not.
func (t *tracker) add(mic, dfar []float64, farOn, learned bool) int {
	m := len(t.mic)
	ringPut(t.mic, t.pos, mic)
	ringPut(t.far, t.pos, dfar)
	t.pos = (t.pos + Block) % m
	t.active[t.blocks%len(t.active)] = farOn
	t.blocks++
	t.fill = min(t.fill+Block, m)
	t.since += Block
	if t.fill < m || t.since < trackEvery {
		return 0
	}
	t.since = 0
	var on int
	for _, a := range t.active {
		if a {
			on++
		}
	}
	if !learned || 2*on < len(t.active) {
		return 0
	}
	lag, ok := t.measure()
	if !ok {
		return 0
	}
	if t.ref < 0 {
		t.ref = lag
		return 0
	}
	if abs(lag-t.ref) < trackMin {
		t.cand = -1
		return 0
	}
	if t.cand < 0 || abs(lag-t.cand) > trackAgree {
		t.cand = lag
		return 0
	}
	move := lag - t.ref
	t.reset()
	return move
}

// measure returns the lag L (0..span-1) at which the window's microphone
// best matches the delayed reference L samples before, and whether its
// peak stands clear.
func (t *tracker) measure() (int, bool) {
	// a is the microphone's window, b the reference from span samples
	// before it: a[i] = mic(T-win+i) matches b[i+span-L] for a path L.
	m := len(t.mic)
	clear(t.a)
	ringGet(t.a[:t.win], t.mic, (t.pos+t.span)%m)
	clear(t.b)
	ringGet(t.b[:m], t.far, t.pos)
	t.fft.Coefficients(t.ca, t.a)
	t.fft.Coefficients(t.cb, t.b)
	for k := range t.ca {
		if k < t.loBin || k > t.hiB {
			t.ca[k] = 0
			continue
		}
		x := cmplx.Conj(t.ca[k]) * t.cb[k]
		if m := cmplx.Abs(x); m > 1e-20 {
			t.ca[k] = x / complex(m, 0)
		} else {
			t.ca[k] = 0
		}
	}
	t.fft.Sequence(t.cc, t.ca)
	best, at := math.Inf(-1), 0
	var sum float64
	for L := range t.span {
		v := t.cc[t.span-L]
		sum += v * v
		if v > best {
			best, at = v, L
		}
	}
	rms := math.Sqrt(sum / float64(t.span))
	return at, rms > 0 && best > trackPeak*rms
}

// ringPut writes x into ring from pos on, wrapping at its end.
func ringPut(ring []float64, pos int, x []float64) {
	n := copy(ring[pos:], x)
	copy(ring, x[n:])
}

// ringGet fills dst from ring, from pos on, wrapping at its end.
func ringGet(dst, ring []float64, pos int) {
	n := copy(dst, ring[pos:])
	copy(dst[n:], ring)
}
