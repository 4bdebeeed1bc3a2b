package aec

import "math"

// delayEstimator finds the bulk delay from the reference to its echo in
// the microphone: the lag that maximises the normalised cross-correlation
// of their envelopes (RMS over envStep samples) over the last
// envHistory steps, searched from 0 to maxLag steps. The playback and
// capture timestamps already align the two streams to within the
// device's buffering; what is left (output and input latency, the path
// through the air) is what this finds, and it follows it when the
// device's latency moves. A new lag is adopted after two estimates in a
// row agree on it.
type delayEstimator struct {
	step, maxLag, hist int
	mic, far           []float64 // envelopes, rings of hist+maxLag
	at                 int       // envelopes written
	accMic, accFar     float64
	fill               int
	every, since       int
	lag                int // adopted lag in envelope steps
	cand               int // last estimate, waiting for a second one
	known              bool
	score              float64
}

// Estimator tuning: 4 ms envelope steps at 16 kHz, 3 s of history, an
// estimate every 250 ms of far-end activity; the lags searched are the
// canceller's (Config.MaxDelay).
const (
	envStep    = 64
	envHistory = 750
	envEvery   = 62
	minScore   = 0.35 // weaker peaks are noise or double talk
	// switchMargin is how much better than the adopted lag's a new one
	// must score.
	switchMargin = 0.15
	farStepRMS2  = farActiveMS
)

// newDelayEstimator searches lags of 0 to maxDelay samples.
func newDelayEstimator(maxDelay int) *delayEstimator {
	maxLag := maxDelay / envStep
	n := envHistory + maxLag
	return &delayEstimator{
		step: envStep, maxLag: maxLag, hist: envHistory, every: envEvery,
		mic: make([]float64, n), far: make([]float64, n), cand: -1,
	}
}

// add takes samples of microphone and reference (same length).
func (d *delayEstimator) add(mic, far []float64) {
	for i := range mic {
		d.accMic += mic[i] * mic[i]
		d.accFar += far[i] * far[i]
		d.fill++
		if d.fill < d.step {
			continue
		}
		n := len(d.mic)
		d.mic[d.at%n] = math.Sqrt(d.accMic / float64(d.step))
		d.far[d.at%n] = math.Sqrt(d.accFar / float64(d.step))
		if d.accFar/float64(d.step) > farStepRMS2 {
			d.since++
		}
		d.at++
		d.accMic, d.accFar, d.fill = 0, 0, 0
		if d.since >= d.every && d.at >= n {
			d.since = 0
			d.estimate()
		}
	}
}

// estimate runs the correlation and adopts a lag two estimates agree on.
func (d *delayEstimator) estimate() {
	n := len(d.mic)
	// Mean of the microphone's window and of the reference's over every lag.
	var mm, mf float64
	for t := range d.hist {
		mm += d.mic[(d.at-1-t+n)%n]
	}
	for t := range n {
		mf += d.far[t]
	}
	mm /= float64(d.hist)
	mf /= float64(n)
	var vm float64
	for t := range d.hist {
		v := d.mic[(d.at-1-t+n)%n] - mm
		vm += v * v
	}
	best, bestLag, cur := -1.0, -1, -1.0
	for lag := 0; lag <= d.maxLag && lag < n-d.hist; lag++ {
		var c, vf float64
		for t := range d.hist {
			m := d.mic[(d.at-1-t+n)%n] - mm
			f := d.far[(d.at-1-t-lag+2*n)%n] - mf
			c += m * f
			vf += f * f
		}
		if vf <= 0 || vm <= 0 {
			continue
		}
		s := c / math.Sqrt(vm*vf)
		if s > best {
			best, bestLag = s, lag
		}
		if d.known && abs(lag-d.lag) <= 1 {
			cur = max(cur, s)
		}
	}
	d.score = best
	// A lag already adopted keeps its place against a peak barely
	// higher: over a second of lags, speech of the user's own or a
	// reply that repeats itself finds a weak one somewhere (a filter
	// moved to it forgets the room).
	if best < minScore || d.known && abs(bestLag-d.lag) > 1 && best < cur+switchMargin {
		d.cand = -1
		return
	}
	if d.cand >= 0 && abs(bestLag-d.cand) <= 1 {
		d.lag, d.known = bestLag, true
	}
	d.cand = bestLag
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Lag is the adopted delay in samples, and whether one was found.
func (d *delayEstimator) Lag() (int, bool) { return d.lag * d.step, d.known }
