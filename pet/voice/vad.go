package voice

import (
	"math"
	"time"
)

// FrameDuration is the VAD's analysis frame.
const FrameDuration = 20 * time.Millisecond

// VADConfig tunes the voice-activity detector. The zero value of a field
// takes its default (DefaultVADConfig); the defaults were tuned on
// espeak-ng voices mixed with noise from -70 to -35 dBFS (vad_test.go).
type VADConfig struct {
	// Threshold is how far above the noise floor a frame's energy must be
	// to count as voiced, in dB.
	Threshold float64
	// Raise is added to Threshold while the pet speaks, so that its own
	// voice leaking from the speakers into the microphone stays below it.
	Raise float64
	// MinLevel is the quietest frame that can count as voiced, in dBFS:
	// digital silence has no floor to be above.
	MinLevel float64
	// Onset is how much voiced audio opens an utterance; RaisedOnset is the
	// sustained speech needed while the pet speaks (barge-in).
	Onset, RaisedOnset time.Duration
	// Hangover is how long the utterance stays open after the last voiced
	// frame: the pauses between words must not close it.
	Hangover time.Duration
	// FloorWindow is how far back the noise floor looks for its minimum.
	FloorWindow time.Duration
	// MaxUtterance closes an utterance that goes on this long.
	MaxUtterance time.Duration
}

// DefaultVADConfig is the tuned configuration.
var DefaultVADConfig = VADConfig{
	Threshold:    8,
	Raise:        14,
	MinLevel:     -60,
	Onset:        60 * time.Millisecond,
	RaisedOnset:  300 * time.Millisecond,
	Hangover:     500 * time.Millisecond,
	FloorWindow:  4 * time.Second,
	MaxUtterance: 30 * time.Second,
}

func (c VADConfig) withDefaults() VADConfig {
	d := DefaultVADConfig
	if c.Threshold != 0 {
		d.Threshold = c.Threshold
	}
	if c.Raise != 0 {
		d.Raise = c.Raise
	}
	if c.MinLevel != 0 {
		d.MinLevel = c.MinLevel
	}
	if c.Onset != 0 {
		d.Onset = c.Onset
	}
	if c.RaisedOnset != 0 {
		d.RaisedOnset = c.RaisedOnset
	}
	if c.Hangover != 0 {
		d.Hangover = c.Hangover
	}
	if c.FloorWindow != 0 {
		d.FloorWindow = c.FloorWindow
	}
	if c.MaxUtterance != 0 {
		d.MaxUtterance = c.MaxUtterance
	}
	return d
}

// VADEvent is what a frame did to the utterance state.
type VADEvent int

const (
	VADNone  VADEvent = iota
	VADStart          // an utterance opened; Utterance tells where it began
	VADEnd            // the utterance closed; Utterance tells where it ended
)

// floorBlocks is how many sub-windows the noise floor's minimum spans.
const floorBlocks = 8

// VAD is an energy voice-activity detector with an adaptive noise floor
// (the minimum of the smoothed frame energy over the last FloorWindow, a
// "minimum statistics" estimate that follows a noise that rises or falls
// and that speech, which always pauses, does not lift) and a hangover. It
// counts time in samples, so it runs the same on a file, a microphone or
// a test. Not safe for concurrent use.
type VAD struct {
	cfg        VADConfig
	frame      int // samples per frame
	onset      int // frames
	raisedOn   int
	hangover   int
	maxUtt     int
	blockLen   int // frames per floor block
	raised     bool
	pos        int64 // frames seen
	smooth     float64
	mins       [floorBlocks]float64
	blockMin   float64
	blockFill  int
	blocksDone int
	recent     []bool // voiced flags of the last onset window
	in         bool
	start, end int64 // frame indexes of the open utterance
	lastVoiced int64
}

// NewVAD returns a detector for mono audio at rate samples per second,
// fed FrameSamples(rate) samples at a time.
func NewVAD(rate int, cfg VADConfig) *VAD {
	cfg = cfg.withDefaults()
	frames := func(d time.Duration) int { return max(int(d/FrameDuration), 1) }
	v := &VAD{
		cfg:      cfg,
		frame:    FrameSamples(rate),
		onset:    frames(cfg.Onset),
		raisedOn: frames(cfg.RaisedOnset),
		hangover: frames(cfg.Hangover),
		maxUtt:   frames(cfg.MaxUtterance),
		blockLen: max(frames(cfg.FloorWindow)/floorBlocks, 1),
		blockMin: math.Inf(1),
		smooth:   math.NaN(),
	}
	return v
}

// FrameSamples is the number of samples in one FrameDuration at rate.
func FrameSamples(rate int) int { return rate * int(FrameDuration/time.Millisecond) / 1000 }

// SetRaised raises the threshold and the onset while the pet speaks.
func (v *VAD) SetRaised(on bool) { v.raised = on }

// Floor is the current noise floor estimate in dBFS.
func (v *VAD) Floor() float64 {
	f := v.blockMin
	n := min(v.blocksDone, floorBlocks)
	for i := range n {
		f = math.Min(f, v.mins[i])
	}
	if math.IsInf(f, 1) {
		return v.cfg.MinLevel
	}
	return f
}

// InUtterance reports whether an utterance is open.
func (v *VAD) InUtterance() bool { return v.in }

// Utterance returns the open (or last) utterance's bounds in samples from
// the first frame fed: start is the first voiced frame, end is the end of
// the last voiced frame.
func (v *VAD) Utterance() (start, end int64) {
	return v.start * int64(v.frame), (v.end + 1) * int64(v.frame)
}

// Frame analyses one frame of FrameSamples samples (a shorter one is
// analysed as it is) and reports whether it opened or closed an utterance.
func (v *VAD) Frame(pcm []int16) VADEvent {
	e := Level(pcm)
	i := v.pos
	v.pos++
	// The floor follows the smoothed energy, so a single quiet frame inside
	// a word does not drag it down.
	if math.IsNaN(v.smooth) {
		v.smooth = e
	} else {
		v.smooth = 0.6*v.smooth + 0.4*e
	}
	floor := v.updateFloor(v.smooth)

	thr := v.cfg.Threshold
	onset := v.onset
	if v.raised {
		thr += v.cfg.Raise
		onset = v.raisedOn
	}
	voiced := e >= v.cfg.MinLevel && e > floor+thr

	if v.in {
		if voiced {
			v.lastVoiced = i
			v.end = i
		}
		if i-v.lastVoiced >= int64(v.hangover) || i-v.start >= int64(v.maxUtt) {
			v.in = false
			v.recent = v.recent[:0]
			return VADEnd
		}
		return VADNone
	}

	v.recent = append(v.recent, voiced)
	if len(v.recent) > onset {
		v.recent = v.recent[len(v.recent)-onset:]
	}
	// Open on a window mostly voiced (all of a short onset; four fifths of
	// a sustained one, since words have quiet consonants), ending voiced.
	need := (onset*4 + 4) / 5
	if onset <= 3 {
		need = onset
	}
	n, first := 0, -1
	for j, on := range v.recent {
		if on {
			n++
			if first < 0 {
				first = j
			}
		}
	}
	if voiced && n >= need {
		v.in = true
		v.start = i - int64(len(v.recent)-1-first)
		v.end, v.lastVoiced = i, i
		return VADStart
	}
	return VADNone
}

func (v *VAD) updateFloor(e float64) float64 {
	v.blockMin = math.Min(v.blockMin, e)
	v.blockFill++
	if v.blockFill >= v.blockLen {
		v.mins[v.blocksDone%floorBlocks] = v.blockMin
		v.blocksDone++
		v.blockMin = math.Inf(1)
		v.blockFill = 0
	}
	return v.Floor()
}

// Level is the RMS level of pcm in dBFS (-100 for silence).
func Level(pcm []int16) float64 {
	if len(pcm) == 0 {
		return -100
	}
	var sum float64
	for _, s := range pcm {
		f := float64(s)
		sum += f * f
	}
	ms := sum / float64(len(pcm)) / (32768 * 32768)
	if ms <= 1e-10 {
		return -100
	}
	return 10 * math.Log10(ms)
}
