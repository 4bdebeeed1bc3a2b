package voice

import (
	"math"
	"time"
)

// FrameDuration is the VAD's analysis frame.
const FrameDuration = 20 * time.Millisecond

// VADConfig tunes the voice-activity detector. The zero value of a field
// takes its default (DefaultVADConfig); the defaults were tuned on
// espeak-ng voices mixed with noise from -70 to -35 dBFS, typing and
// music (vad_test.go, vad_spectral_test.go).
type VADConfig struct {
	// Threshold is how far above the noise floor a frame's speech-band
	// energy (300–3400 Hz) must be to count as voiced, in dB.
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
	// Flatness is the speech band's spectral flatness a voiced frame stays
	// under, in dB: noise, fans and key clicks are flat (about -2.5 dB),
	// a voice's harmonics are not.
	Flatness float64
	// Dip is how far below a voiced frame the band energy must have been
	// within the last DipWindow: speech pauses between syllables, a held
	// chord or a hum does not.
	Dip       float64
	DipWindow time.Duration
}

// DefaultVADConfig is the tuned configuration.
var DefaultVADConfig = VADConfig{
	Threshold:    8,
	Raise:        14,
	MinLevel:     -70,
	Onset:        60 * time.Millisecond,
	RaisedOnset:  300 * time.Millisecond,
	Hangover:     500 * time.Millisecond,
	FloorWindow:  4 * time.Second,
	MaxUtterance: 30 * time.Second,
	Flatness:     -5,
	Dip:          9,
	DipWindow:    time.Second,
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
	if c.Flatness != 0 {
		d.Flatness = c.Flatness
	}
	if c.Dip != 0 {
		d.Dip = c.Dip
	}
	if c.DipWindow != 0 {
		d.DipWindow = c.DipWindow
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

// VAD is a spectral voice-activity detector: a frame is voiced when its
// speech-band energy stands Threshold above a per-bin noise floor, its
// band spectrum is not flat (a voice has harmonics; noise, fans and key
// clicks do not) and the band energy dipped within the last second
// (speech pauses; a held chord does not). The floor (spectrum.go) starts
// from the room as the first frame hears it and follows it, down at once
// and up slowly, and holds still while the pet speaks, when the echo
// canceller's suppressor (pet/voice/aec) may dip the room below itself.
// It counts time in samples, so it runs the same on a file, a microphone
// or a test. Not safe for concurrent use.
type VAD struct {
	cfg        VADConfig
	frame      int // samples per frame
	onset      int // frames
	raisedOn   int
	raisedWide bool // while raised, RaisedOnset's voiced frames within twice it (SetRaisedWide)
	hangover   int
	maxUtt     int
	raised     bool
	echoFloor  float64 // the pet's voice's level in the input, dBFS (SetEchoFloor)
	pos        int64   // frames seen
	spec       *spectrum
	levels     []float64 // band levels of the last DipWindow (ring)
	last       float64   // the last frame's band level
	recent     []bool    // voiced flags of the last onset window
	in         bool
	start, end int64 // frame indexes of the open utterance
	lastVoiced int64
	lastFrame  bool // the last frame was voiced
}

// NewVAD returns a detector for mono audio at rate samples per second,
// fed FrameSamples(rate) samples at a time.
func NewVAD(rate int, cfg VADConfig) *VAD {
	cfg = cfg.withDefaults()
	frames := func(d time.Duration) int { return max(int(d/FrameDuration), 1) }
	v := &VAD{
		cfg:       cfg,
		frame:     FrameSamples(rate),
		onset:     frames(cfg.Onset),
		raisedOn:  frames(cfg.RaisedOnset),
		hangover:  frames(cfg.Hangover),
		maxUtt:    frames(cfg.MaxUtterance),
		spec:      newSpectrum(rate, FrameSamples(rate)),
		levels:    make([]float64, frames(cfg.DipWindow)),
		last:      -100,
		echoFloor: -100,
	}
	v.recent = make([]bool, 0, max(v.onset, 2*v.raisedOn)+1)
	return v
}

// FrameSamples is the number of samples in one FrameDuration at rate.
func FrameSamples(rate int) int { return rate * int(FrameDuration/time.Millisecond) / 1000 }

// SetRaisedWide makes the raised onset find its voiced frames within
// twice its length (echo-cancelled barge-in, pet/voice/echo.go).
func (v *VAD) SetRaisedWide(on bool) { v.raisedWide = on }

// Tentative reports whether, while raised and with no utterance open,
// the last frame was voiced and tentNeed of the last tentFrames were:
// the first words of someone talking over the pet, long before the
// raised onset can tell them from a syllable of her echo (framer.go's
// hold).
func (v *VAD) Tentative() bool {
	if !v.raised || v.in || len(v.recent) == 0 || !v.recent[len(v.recent)-1] {
		return false
	}
	n, _ := voicedIn(v.recent, tentFrames)
	return n >= tentNeed
}

// LastVoiced reports whether the last frame was voiced.
func (v *VAD) LastVoiced() bool { return v.lastFrame }

// A tentative onset: 4 voiced frames of the last 6 (80 of 120 ms). On
// issue 35's rig "Could" passes it; 3 of 5 paused the pet 11–14 times
// over the quiet room's 40 replies, 4 of 6 six times (docs/hands-free.md).
const (
	tentFrames = 6
	tentNeed   = 4
)

// SetRaised raises the threshold and the onset while the pet speaks.
func (v *VAD) SetRaised(on bool) { v.raised = on }

// SetEchoFloor tells how loud the pet's own voice may be in the input
// (echo.go); while raised, the threshold counts from it when it is above
// the noise floor. -100 (the default) is none.
func (v *VAD) SetEchoFloor(db float64) { v.echoFloor = db }

// Floor is the current noise floor estimate in the speech band, dBFS.
func (v *VAD) Floor() float64 {
	if v.spec.noise == nil {
		return v.cfg.MinLevel
	}
	return v.spec.floor()
}

// LastLevel is the last frame's speech-band level in dBFS: the meter's.
func (v *VAD) LastLevel() float64 { return v.last }

// Drop closes the open utterance with no VADEnd: what opened it was not
// speech to keep (framer.go's holdState.vet). The next frames may open
// another.
func (v *VAD) Drop() {
	v.in = false
	v.recent = v.recent[:0]
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
	i := v.pos
	v.pos++
	voiced := v.voiced(pcm)
	v.lastFrame = voiced

	onset := v.onset
	if v.raised {
		onset = v.raisedOn
	}
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

	// Open on a window mostly voiced (all of a short onset; four fifths of
	// a sustained one, since words have quiet consonants), ending voiced.
	// While the pet speaks it may also open on the onset's worth of voiced
	// frames within twice the onset (SetRaisedWide): a user's first words
	// over her come in bursts with gaps between them (issue 35's rig:
	// "Could you" and a 200 ms pause before "tell me"), and waiting for
	// one burst that alone fills the onset took half a second.
	need := (onset*4 + 4) / 5
	if onset <= 3 {
		need = onset
	}
	wide := v.raised && v.raisedWide
	keep := onset
	if wide {
		keep = 2 * onset
	}
	v.recent = append(v.recent, voiced)
	if len(v.recent) > keep {
		n := copy(v.recent, v.recent[len(v.recent)-keep:])
		v.recent = v.recent[:n]
	}
	n, first := voicedIn(v.recent, onset)
	if wide && !(voiced && n >= need) {
		if m, f := voicedIn(v.recent, 2*onset); m >= onset {
			n, first, need = m, f, onset
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

// voiced runs the spectral tests on one frame and moves the floor.
func (v *VAD) voiced(pcm []int16) bool {
	v.spec.analyse(pcm)
	e := v.spec.level()
	v.last = e
	seeded := v.spec.noise != nil
	dip := e
	for _, l := range v.levels {
		dip = math.Min(dip, l)
	}
	v.levels[int(v.pos)%len(v.levels)] = e
	thr := v.cfg.Threshold
	floor := v.spec.floor()
	if v.raised {
		thr += v.cfg.Raise
		floor = math.Max(floor, v.echoFloor)
	}
	voiced := seeded && e >= v.cfg.MinLevel && e > floor+thr &&
		v.spec.flatness() < v.cfg.Flatness && e-dip >= v.cfg.Dip
	if !v.raised || !seeded {
		v.spec.track(voiced)
	}
	return voiced
}

// voicedIn counts the voiced frames among the last k of recent and
// returns the index of the first of them in recent (-1: none).
func voicedIn(recent []bool, k int) (n, first int) {
	first = -1
	for j := max(len(recent)-k, 0); j < len(recent); j++ {
		if recent[j] {
			n++
			if first < 0 {
				first = j
			}
		}
	}
	return n, first
}

// Level is the RMS level of pcm in dBFS (-100 for silence).
func Level(pcm []int16) float64 { return dbOf(meanSquare(pcm)) }
