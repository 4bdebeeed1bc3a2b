package voice

import (
	"time"

	"yui/pet/voice/aec"
)

// FarEnd is what the speakers played: the echo canceller's reference
// (pet/audio.Reference implements it).
type FarEnd interface {
	// Played fills dst with the 16 kHz mono samples handed to the output
	// during the len(dst) samples that end at end, silence where nothing
	// played.
	Played(dst []float32, end time.Time)
}

// outputKeeper is a FarEnd that can keep its output running while the
// canceller listens (pet/audio.Reference): an output that sleeps between
// replies wakes with another latency, and each reply's echo would have
// to be found again while the user may already be talking over it.
type outputKeeper interface {
	KeepRunning() (release func())
}

// outputHolder is a FarEnd that can pause its output
// (pet/audio.Reference): hands-free listening pauses the pet the moment
// someone may be talking over her (framer.go's hold).
type outputHolder interface {
	Hold() (release func())
}

// EchoRaise is the VAD's raise while the pet speaks when its echo is
// cancelled: the threshold then counts from the echo floor (echoFloor),
// which already holds the pet's voice, instead of from the room's noise
// with DefaultVADConfig.Raise's 14 dB on top.
const EchoRaise = 2

// EchoRaisedOnset is the speech that barges in when the echo is
// cancelled, counted over twice its length (VAD.SetRaisedWide): shorter
// than DefaultVADConfig.RaisedOnset, which had to outlast the pet's own
// syllables, so that the pet stops within 600 ms of the user's first
// word (docs/hands-free.md).
const EchoRaisedOnset = 160 * time.Millisecond

// refGuard is how far before a block's capture stamp the reference it is
// cleaned against ends. The output pulls the mix in chunks, so the newest
// milliseconds before the stamp may not have been handed out yet when the
// microphone's callback runs (PulseAudio's ALSA plugin leaves 12–17 ms):
// a lookup reaching them gets silence for every block's tail, a reference
// full of holes the filter cannot model. Every real echo comes later than
// the guard (the output's own buffer is 30 ms and the capture's adds to
// it): it only shortens the delay the estimator finds.
const refGuard = 30 * time.Millisecond

// echoPath runs the canceller on the frame loop's blocks, in place of
// the raw microphone: the VAD, the meter and the transcript all get the
// cleaned signal. Its buffers grow to the largest block once.
type echoPath struct {
	c     *aec.Canceller
	far   FarEnd
	ref   []float32
	clean []int16
	rec   *debugRecorder // nil unless --voice-debug
	peak  float64        // the reference's loudness where its echo arrives now (echoFloor)
	gain  float64        // cleaned over reference level in single talk, dB
	past  refLevels      // the reference's recent block loudness
	near  bool           // the user is talking (setNearEnd)
	noise float64        // the cleaned stream's mean square with no echo due (learnNoise)
}

// setNearEnd tells the path whether the voice detector has an utterance
// open: the canceller then holds what it learned (aec.SetNearEnd), and
// the echo floor does not take the user's voice for the pet's.
func (e *echoPath) setNearEnd(on bool) {
	e.near = on
	e.c.SetNearEnd(on)
}

// refLevels is the reference's mean square block by block over the last
// second and a bit: its echo reaches the microphone the canceller's delay
// later and lasts the room's tail, so the loudness the pet's voice has in
// the microphone now is the reference's of that span, not of this block
// (which held it 50 ms and more too early on issue 35's rig).
type refLevels struct {
	ms  [64]float64
	dur [64]time.Duration
	at  int
}

// add records one block's mean square and length.
func (r *refLevels) add(ms float64, d time.Duration) {
	r.at = (r.at + 1) % len(r.ms)
	r.ms[r.at], r.dur[r.at] = ms, d
}

// loudest is the largest mean square of the blocks that ended between
// from and to ago (to > from), and of the newest block when from is zero.
func (r *refLevels) loudest(from, to time.Duration) float64 {
	var ago time.Duration
	best := 0.0
	for k := range len(r.ms) {
		i := (r.at - k + len(r.ms)) % len(r.ms)
		if ago >= from && ago <= to && r.ms[i] > best {
			best = r.ms[i]
		}
		ago += r.dur[i]
		if ago > to || r.dur[i] == 0 {
			break
		}
	}
	return best
}

// echoSpan is how far either side of the canceller's delay the echo of a
// reference block reaches the microphone: its timing's spread before,
// the room's tail (the filter's 128 ms) after.
const (
	echoEarly = 20 * time.Millisecond
	echoTail  = 160 * time.Millisecond
)

func newEchoPath(far FarEnd, rec *debugRecorder) *echoPath {
	return &echoPath{c: aec.New(aec.Config{}), far: far, rec: rec}
}

// process cleans one captured block, captured by at; the result is the
// path's buffer, valid until the next call.
func (e *echoPath) process(pcm []int16, at time.Time) []int16 {
	if cap(e.ref) < len(pcm) {
		e.ref = make([]float32, len(pcm))
		e.clean = make([]int16, len(pcm))
	}
	ref, clean := e.ref[:len(pcm)], e.clean[:len(pcm)]
	e.far.Played(ref, at.Add(-refGuard))
	e.c.Process(pcm, ref, clean)
	var ms float64
	for _, v := range ref {
		ms += float64(v) * float64(v)
	}
	ms /= float64(max(len(ref), 1))
	e.past.add(ms, time.Duration(len(ref))*time.Second/aec.Rate)
	d := e.c.Delay()
	e.peak = e.past.loudest(max(d-echoEarly, 0), d+echoTail)
	left := meanSquare(clean)
	if !e.echoDue() {
		e.learnNoise(left)
	}
	e.learnGain(e.peak, left)
	e.rec.write(pcm, ref, clean)
	return clean
}

// learnGain follows how far below the reference the pet's voice comes
// out of the canceller (filter and suppressor together), in dB, on blocks
// where the far end plays and the canceller hears no double talk; ms is
// the cleaned block's mean square. It starts at 0 dB: until the canceller
// has heard the room, the pet's voice counts as loud as it was played.
//
// What is left of her voice is the cleaned block less the room's noise,
// down to a sixteenth of it (12 dB under: the echo floor, 6 dB over what
// is left, then lies under the detector's noise floor, which counts the
// speech band only): the suppressor cuts no deeper than the noise
// (aec/suppress.go), and a gain learned from the noise itself put the
// echo floor 6 dB over the noise floor in a -45 dBFS room, where the
// user's first words over her did not reach it (issue 35's rig: held at
// "tell me" instead of at "Could you", 580 ms after their onset).
func (e *echoPath) learnGain(refMS, ms float64) {
	if refMS < farActive || e.c.DoubleTalk() || e.near {
		return
	}
	x := min(dbOf(max(ms-e.noise, e.noise/16))-dbOf(refMS), 0)
	rate := gainRate
	if x > e.gain {
		rate = gainRise
	}
	e.gain += rate * (x - e.gain)
}

// learnNoise follows the room's noise in the cleaned stream on blocks
// with no echo due and no one talking: at once down, slowly up.
func (e *echoPath) learnNoise(ms float64) {
	if e.near {
		return
	}
	switch {
	case e.noise == 0:
		e.noise = ms
	case ms < e.noise:
		e.noise += noiseFall * (ms - e.noise)
	default:
		e.noise += noiseRise * (ms - e.noise)
	}
}

// The cleaned stream's noise estimate moves a fifth of the way down per
// block and a hundredth up.
const (
	noiseFall = 0.2
	noiseRise = 0.01
)

// meanSquare is pcm's mean square, full scale 1 (0 for no samples).
func meanSquare(pcm []int16) float64 {
	var sum float64
	for _, s := range pcm {
		f := float64(s) / 32768
		sum += f * f
	}
	return sum / float64(max(len(pcm), 1))
}

// Echo floor tuning: a block counts as the far end playing above
// farActive (-50 dBFS mean square); the gain moves a twentieth of the way
// per block down and gainRise of it up (a louder cleaned block may be the
// user, not the echo); echoMargin covers a syllable louder than the
// average.
const (
	farActive  = 1e-5
	gainRate   = 0.05
	gainRise   = 0.02
	echoMargin = 6
)

// echoDue reports whether the reference was playing where its echo
// reaches the microphone now: after the pet's speech stops, her last
// words still arrive for the room's delay and tail, and a spoken turn's
// filler cut at once (its turn ended with nothing to say) leaves such a
// tail with no speech owed. On issue 35's rig each of those tails, heard
// with the threshold of a quiet room whenever the canceller had let a
// little through, opened an utterance, which became a spoken turn whose
// own cut filler opened the next: a loop every 0.7 s.
func (e *echoPath) echoDue() bool { return e.peak >= farActive }

// echoFloor is the level, in dBFS, the pet's own voice may still reach in
// the cleaned signal: the reference's recent loudness less what the
// canceller takes out, plus a margin. The VAD's raised threshold counts
// from it.
func (e *echoPath) echoFloor() float64 {
	return dbOf(e.peak) + e.gain + echoMargin
}
