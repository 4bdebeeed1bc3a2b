package audio

import (
	"math"
	"sync"
	"time"

	"yui/transport/clock"
)

// RefRate is the reference's rate: voice input's (pet/voice.Mono16k).
const RefRate = 16000

// Reference keeps the last seconds of the mix as handed to the output,
// resampled to RefRate and stamped with the time it was handed: the far
// end of voice input's echo canceller (pet/voice/aec, docs/hands-free.md).
// Every sample Yui plays passes through Mixer.read, which writes it here
// (Mixer.SetReference). The output pulls ahead of what it plays by its
// buffers; that fixed lead, the device's latency and the air are the delay
// the canceller's estimator finds. All methods are safe for concurrent use.
type Reference struct {
	clk clock.Clock
	t0  time.Time

	mu    sync.Mutex
	ring  []float32
	w     int64 // slot of the next sample written; slot = 1/RefRate since t0
	rs    resampler
	out   []float32 // resampler output scratch
	ready bool
	line  refTimeline
	keep  func() (release func()) // the mixer's KeepAwake (SetReference)
	hold  func() (release func()) // the mixer's Hold (SetReference)
}

// refKeep is how much of the mix the reference keeps.
const refKeep = 2 * time.Second

// refSlack is how far a pull may come behind the count and still be on
// time: a millisecond, the resampler's rounding and nothing more
// (timeline.go).
const refSlack = RefRate / 1000

// NewReference returns an empty reference on c (nil: the wall clock).
func NewReference(c clock.Clock) *Reference {
	if c == nil {
		c = clock.Real{}
	}
	return &Reference{clk: c, t0: c.Now(), ring: make([]float32, int(refKeep*RefRate/time.Second)), out: make([]float32, 0, Rate)}
}

func (r *Reference) slot(t time.Time) int64 {
	return int64(t.Sub(r.t0) * RefRate / time.Second)
}

// write takes the mix at Rate as the output is handed it.
//
// The timeline counts on from where the last write ended, because an
// output pulls its mix ahead of what it plays (its buffers: DeviceBuffer,
// PlayerBuffer, the sound server's) and what it pulls plays one sample
// after the other: the count, not the clock at each pull, says when a
// sample plays. It leaves the count only when the pulls prove it wrong
// (refTimeline, timeline.go): a pull comes behind it (the output ran dry
// and played silence: the timeline moves up, silence left where nothing
// was handed), or the pulls keep running far ahead of the clock (the
// output dropped what it had pulled: the timeline moves back). It does
// not follow each pull's jitter: a timeline that wobbles moves the echo
// under a filter that had learned it (pet/voice/aec/track.go). Issue 35's
// rig found the old rule (move up only past 150 ms) left the timeline up
// to 120 ms behind the output for seconds, a reference read as silence
// and an echo delay that moved with every stall (docs/hands-free.md).
//
// For example, an output that pulls 15 ms every 15 ms, 45 ms ahead: a
// stall of 30 ms costs nothing (the lead covers it, the count is still
// ahead of the clock); one of 60 ms leaves the count 15 ms behind the
// clock, and the next pull is stamped at the clock: the 15 ms the
// speaker played silence are silence in the reference too.
func (r *Reference) write(mix []float32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.slot(r.clk.Now())
	if !r.ready {
		r.zero(r.w, now)
		r.w, r.ready, r.line = now, true, newRefTimeline()
	} else if to := r.line.place(r.w, now); to != r.w {
		// Moving back leaves the slots past the new end unread (Played).
		r.zero(r.w, to)
		r.w = to
	}
	r.out = r.rs.run(mix, r.out[:0])
	n := int64(len(r.ring))
	for _, v := range r.out {
		r.ring[r.w%n] = v
		r.w++
	}
}

// zero silences the slots from..to (the output was idle there).
func (r *Reference) zero(from, to int64) {
	n := int64(len(r.ring))
	from = max(from, to-n)
	for s := from; s < to; s++ {
		r.ring[(s%n+n)%n] = 0
	}
}

// Played fills dst with the reference's samples handed out during the
// len(dst) slots that end at end; what was never written is silence.
func (r *Reference) Played(dst []float32, end time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := int64(len(r.ring))
	last := r.slot(end)
	first := last - int64(len(dst))
	for i := range dst {
		s := first + int64(i)
		if !r.ready || s >= r.w || s < r.w-n || s < 0 {
			dst[i] = 0
			continue
		}
		dst[i] = r.ring[s%n]
	}
}

// resampler takes the mix from 24 kHz to 16 kHz: output j sits at input
// 1.5 j, so its taps alternate between two phases of a windowed-sinc
// low-pass at 7 kHz, 16 taps each.
type resampler struct {
	hist  [resTaps]float32 // the last input samples, oldest first
	phase float64          // position of the next output in the input, from hist's end
}

const resTaps = 16

var resKernel = func() (k [2][resTaps]float64) {
	const fc = 7000.0 / Rate
	for p, off := range []float64{0, 0.5} {
		var sum float64
		for i := range resTaps {
			x := float64(i-resTaps/2+1) - off
			v := 2 * fc
			if x != 0 {
				v = math.Sin(2*math.Pi*fc*x) / (math.Pi * x)
			}
			w := 0.5 + 0.5*math.Cos(math.Pi*x/(resTaps/2))
			k[p][i] = v * w
			sum += k[p][i]
		}
		for i := range resTaps {
			k[p][i] /= sum
		}
	}
	return k
}()

// run appends to out the 16 kHz samples in.
func (r *resampler) run(in []float32, out []float32) []float32 {
	for _, x := range in {
		copy(r.hist[:], r.hist[1:])
		r.hist[resTaps-1] = x
		// An output is due each time the input passes 1.5 samples.
		r.phase += 1
		for r.phase >= 1.5 {
			r.phase -= 1.5
			p := 0
			if r.phase >= 0.5 {
				p = 1
			}
			var v float64
			for i, h := range r.hist {
				v += float64(h) * resKernel[p][i]
			}
			out = append(out, float32(v))
		}
	}
	return out
}

// SetReference makes the mixer write every block it hands out into r
// (reference.go); nil removes it.
func (m *Mixer) SetReference(r *Reference) {
	m.mu.Lock()
	m.ref = r
	m.mu.Unlock()
	if r != nil {
		r.mu.Lock()
		r.keep, r.hold = m.KeepAwake, m.Hold
		r.mu.Unlock()
	}
}

// KeepRunning keeps the output the reference hears running until release
// is called (Mixer.KeepAwake): the echo canceller holds it while it
// listens (pet/voice's outputKeeper). A reference on no mixer keeps
// nothing.
func (r *Reference) KeepRunning() (release func()) { return r.through(&r.keep) }

// Hold pauses the output the reference hears until release is called
// (Mixer.Hold): the echo canceller's listener holds it while the user may
// be talking over the pet (pet/voice's outputHolder). A reference on no
// mixer holds nothing.
func (r *Reference) Hold() (release func()) { return r.through(&r.hold) }

// through calls the mixer's method *f (set by SetReference, r.mu guards
// it), or returns a release that does nothing when there is no mixer.
func (r *Reference) through(f *func() (release func())) (release func()) {
	r.mu.Lock()
	call := *f
	r.mu.Unlock()
	if call == nil {
		return func() {}
	}
	return call()
}
