package aec

import (
	"fmt"
	"time"
)

// Rate is the only sample rate the canceller runs at: voice input's.
const Rate = 16000

// Block is the canceller's block: 8 ms at 16 kHz.
const Block = 128

// Config tunes a Canceller; zero fields take the defaults.
type Config struct {
	// Tail is how much of the room's response the filter models after the
	// bulk delay; 128 ms by default (the delay estimator takes the bulk,
	// and each partition costs BenchmarkCancel 0.1% of a core).
	Tail time.Duration
	// MaxDelay bounds the bulk delay the estimator may find; 1 s by
	// default. The sound server's buffers count: issue 35's rig, on
	// PulseAudio through ALSA's pulse plugin, measured echoes from 100 ms
	// to 500 ms behind the reference (docs/hands-free.md).
	MaxDelay time.Duration
	// NoSuppressor leaves out the residual echo suppressor (measurements
	// of the linear filter alone).
	NoSuppressor bool
}

// Canceller removes the far end's echo from the microphone. Process
// takes microphone and reference in step, any number of samples at a
// time, and returns the cleaned microphone delayed by Latency. Not safe
// for concurrent use; nothing allocates after New.
type Canceller struct {
	cfg    Config
	f      *filter
	s      *suppressor
	d      *delayEstimator
	line   []float64 // far-end delay line (ring)
	lineAt int
	delay  int // delay applied to the reference, samples: the bulk delay and the tracker's moves
	tr     *tracker
	resets int // the filter's starts over the tracker has seen
	mic    []float64
	far    []float64
	fill   int
	y, e   []float64 // the foreground's estimate and error: the output
	est    []float64 // the foreground's estimate, kept when y is cleared (the suppressor's coherence)
	yb, eb []float64 // the background's, which it learns from
	dfar   []float64
	clean  []float64
	out    fifo
	stats  stats
	shifts int  // delay changes applied
	moves  int  // echo moves the tracker followed
	near   bool // the user is talking (SetNearEnd)
	lost   int  // blocks the suppressor still predicts from the reference (block)
	quiet  int  // blocks since the delayed reference last played
}

// roomAfter is how long the delayed reference must have been silent for
// the microphone to hold no echo: the filter's span, 128 ms, and a bit.
const roomAfter = 20

// lostHold is how long after the filter last did harm the suppressor
// keeps predicting the echo from the reference: 96 ms.
const lostHold = 12

// margin is how far before the estimated delay the filter starts: the
// direct path may come a little before the strongest one.
const margin = 4 * Block

// Latency is how much later a sample comes out of Process than it went in.
const Latency = 2 * Block * time.Second / Rate

// New returns a canceller.
func New(cfg Config) *Canceller {
	if cfg.Tail <= 0 {
		cfg.Tail = 128 * time.Millisecond
	}
	if cfg.MaxDelay <= 0 {
		cfg.MaxDelay = time.Second
	}
	parts := max(int(cfg.Tail*Rate/time.Second)/Block, 2)
	maxDelay := int(cfg.MaxDelay * Rate / time.Second)
	c := &Canceller{
		cfg:   cfg,
		f:     newFilter(Block, parts),
		s:     newSuppressor(Block),
		d:     newDelayEstimator(maxDelay),
		tr:    newTracker(parts * Block),
		line:  make([]float64, maxDelay+2*Block),
		mic:   make([]float64, Block),
		far:   make([]float64, Block),
		y:     make([]float64, Block),
		e:     make([]float64, Block),
		est:   make([]float64, Block),
		yb:    make([]float64, Block),
		eb:    make([]float64, Block),
		dfar:  make([]float64, Block),
		clean: make([]float64, Block),
		out:   newFIFO(4*Rate + 2*Block),
	}
	c.out.pushZeros(Block)
	return c
}

// Process cancels one stretch of audio: mic and far (the reference,
// full scale 1) are the same length, and out receives as many cleaned
// samples. It panics on different lengths: a caller's bug.
func (c *Canceller) Process(mic []int16, far []float32, out []int16) {
	if len(mic) != len(far) || len(out) != len(mic) {
		panic(fmt.Sprintf("aec: Process with %d mic, %d far, %d out samples", len(mic), len(far), len(out)))
	}
	for i := range mic {
		c.mic[c.fill] = float64(mic[i]) / 32768
		c.far[c.fill] = float64(far[i])
		c.fill++
		if c.fill == Block {
			c.block()
			c.fill = 0
		}
	}
	c.out.pop(out)
}

// block runs the chain on one full block.
func (c *Canceller) block() {
	if !c.near {
		c.d.add(c.mic, c.far)
	}
	c.follow()
	n := len(c.line)
	for i, v := range c.far {
		c.line[(c.lineAt+i)%n] = v
	}
	for i := range c.dfar {
		c.dfar[i] = c.line[(c.lineAt+i-c.delay+n)%n]
	}
	c.lineAt = (c.lineAt + Block) % n
	st, bg := c.f.process(c.dfar, c.mic, c.y, c.e, c.yb, c.eb)
	st, bg = c.f.choose(st, bg, c.mic, c.y, c.e, c.yb, c.eb)
	dt := c.stats.block(st, c.f.adapt.adapted)
	if !dt && !c.f.diverged(st) {
		c.f.learn(bg, c.yb, c.eb)
	}
	// A filter whose error is louder than the microphone models an echo
	// that is not there (the reference's timeline jumped, the room
	// changed): it would add the pet's voice. The block goes on as the
	// microphone heard it while the filter follows or starts over, and
	// the suppressor predicts the echo from the reference itself, as
	// before the filter converged, until lostHold blocks after the last
	// such block: on issue 35's rig a 2 ms step of the echo passed the
	// pet's voice through whole for the 100–150 ms the tracker took.
	copy(c.est, c.y)
	if st.see > st.sdd {
		copy(c.e, c.mic)
		clear(c.y)
		c.lost = lostHold
	} else if c.lost > 0 {
		c.lost--
	}
	farOn := st.sxx > farActiveMS*Block
	c.track(st, farOn)
	if farOn {
		c.quiet = 0
	} else {
		c.quiet++
	}
	if c.cfg.NoSuppressor {
		copy(c.clean, c.e)
	} else {
		c.s.process(block{
			e: c.e, y: c.y, far: c.dfar, mic: c.mic, est: c.est,
			leak:   c.f.adapt.leak,
			unsure: !c.f.adapt.adapted || c.lost > 0, pathGain: c.stats.pathGain,
			room: c.quiet >= roomAfter,
		}, c.clean)
	}
	c.out.push(c.clean)
}

// track moves the reference with the echo (track.go): by the tracker's
// measure, within what the delay line holds.
func (c *Canceller) track(st blockStats, farOn bool) {
	if c.f.resets != c.resets {
		c.resets = c.f.resets
		c.tr.forget()
	}
	move := c.tr.add(c.mic, c.dfar, farOn, c.f.adapt.adapted)
	if move == 0 {
		return
	}
	c.moveBy(move)
}

// moveBy moves the reference by the tracker's move, within what the
// delay line holds.
func (c *Canceller) moveBy(move int) {
	to := min(max(c.delay+move, 0), len(c.line)-2*Block)
	if applied := to - c.delay; applied != move {
		// The line held less than the move: the path lies where the
		// part not applied leaves it, not where the tracker learned it.
		c.tr.shifted(applied - move)
	}
	c.delay = to
	c.moves++
}

// follow applies the estimator's delay once it is a block or more away
// from the one applied, by whole blocks, shifting the filter so that what
// it learned stays in place (the tracker's sub-block moves are kept).
func (c *Canceller) follow() {
	lag, ok := c.d.Lag()
	if !ok {
		return
	}
	want := max(lag-margin, 0) / Block * Block
	want = min(want, len(c.line)-2*Block)
	k := (want - c.delay) / Block
	if k == 0 {
		return
	}
	c.f.shift(k)
	c.tr.shifted(k * Block)
	c.delay += k * Block
	c.shifts++
}

// SetNearEnd tells the canceller whether the user is talking (the voice
// detector has an utterance open on its output). While they are, the
// delay estimator takes no blocks (the filters go on, the foreground
// guarded by the background's comparison and both by the double-talk
// hold): on issue 35's rig it took a sentence said over a reply for a
// 950 ms echo, and every reply after it broke through
// (docs/hands-free.md). The tracker goes on: it moves only on two
// measurements of the echo's own path that agree (track.go), which the
// user's voice does not make, and an utterance her own voice opened just
// as the echo moved had held it where the echo no longer was, so her
// voice kept opening utterances (the rig, once in twelve runs).
func (c *Canceller) SetNearEnd(on bool) { c.near = on }

// Delay is the delay applied to the reference: the bulk delay and the
// tracker's moves.
func (c *Canceller) Delay() time.Duration {
	return time.Duration(c.delay) * time.Second / Rate
}

// Converged reports whether the filter's step control trusts its own
// estimate of the echo (it has heard enough of the far end).
func (c *Canceller) Converged() bool { return c.f.adapt.adapted }

// DoubleTalk reports whether the last block had near-end sound over the
// echo: the filter holds its adaptation then.
func (c *Canceller) DoubleTalk() bool { return c.stats.hold > 0 }

// ERLE is the echo return loss enhancement of the linear filter over the
// last second of far-end single talk, in dB.
func (c *Canceller) ERLE() float64 { return c.stats.erle() }

// ResidualGain is the power ratio from the reference to the echo left in
// the output: the room's gain from the reference to the microphone times
// the share of the microphone the filter leaves, both measured in far-end
// single talk (stats.go). Before the filter has
// converged it is 1: the pet's voice is taken to be as loud at the
// microphone as it was played. The detector holds the pet's own voice
// below it (pet/voice/echo.go); the suppressor takes more than this.
func (c *Canceller) ResidualGain() float64 {
	if !c.f.adapt.adapted {
		return 1
	}
	return c.stats.pathGain * max(c.stats.ratio, minResidual)
}

// minResidual bounds the share the detector counts on: -30 dB.
const minResidual = 0.001

// Restarts counts the bulk delay changes the canceller followed, the
// echo moves its tracker followed, and the times its filter diverged and
// started over.
func (c *Canceller) Restarts() (shifts, moves, resets int) { return c.shifts, c.moves, c.f.resets }
