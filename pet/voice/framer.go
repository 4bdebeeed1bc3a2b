package voice

import "time"

// actionKind is what the frame loop asks the Listener to do.
type actionKind int

const (
	actListening actionKind = iota // an utterance opened: show "listening"
	actBargeIn                     // speech over the pet: stop it
	actUtterance                   // an utterance closed: transcribe pcm
	// actEarly: the speech paused for a tail's length, and pcm is what
	// the utterance will be if it ends now: transcribe it at once, and
	// keep the text for the utterance's end (early.go).
	actEarly
	actEarlyVoid // the speech went on: the early transcription is void
)

type action struct {
	kind actionKind
	pcm  []int16
	// early marks an actUtterance whose audio is the last actEarly's.
	early bool
}

// framer is the Listener's state machine without goroutines: it cuts
// blocks into frames, runs the VAD, keeps the audio an utterance needs,
// and says what to do. Time is counted in samples.
type framer struct {
	mode    Mode
	vad     *VAD
	n       int     // samples per frame
	pending []int16 // samples short of a frame
	hist    []int16 // recent audio; hist[0] is sample histAt
	histAt  int64
	pos     int64 // samples fed to the VAD
	keep    int   // samples kept before an utterance (pre-roll and onset)
	preRoll int
	tail    int
	held    bool
	heldAt  int64
	minHeld int
	// echoFloor, when set, is the pet's voice's level in the input (echo.go).
	echoFloor func() float64
	// earlyEnd is the end of the voiced audio an actEarly was cut at, 0
	// when none stands.
	earlyEnd int64
}

func newFramer(rate int, cfg VADConfig, mode Mode) *framer {
	cfg = cfg.withDefaults()
	samples := func(d time.Duration) int { return int(int64(rate) * int64(d) / int64(time.Second)) }
	return &framer{
		mode:    mode,
		vad:     NewVAD(rate, cfg),
		n:       FrameSamples(rate),
		keep:    samples(preRoll + cfg.RaisedOnset + 2*FrameDuration),
		preRoll: samples(preRoll),
		tail:    samples(tailPad),
		minHeld: samples(minPress),
	}
}

// feed takes one captured block; speaking tells whether the pet speaks.
func (f *framer) feed(block []int16, speaking func() bool) []action {
	var acts []action
	f.hist = append(f.hist, block...)
	f.pending = append(f.pending, block...)
	for len(f.pending) >= f.n {
		frame := f.pending[:f.n]
		raised := speaking()
		f.vad.SetRaised(raised)
		if f.echoFloor != nil {
			f.vad.SetEchoFloor(f.echoFloor())
		}
		ev := f.vad.Frame(frame)
		f.pos += int64(f.n)
		f.pending = f.pending[f.n:]
		switch ev {
		case VADStart:
			if raised && (f.mode.handsFree() || f.held) {
				acts = append(acts, action{kind: actBargeIn})
			}
			if f.mode.handsFree() {
				acts = append(acts, action{kind: actListening})
			}
		case VADEnd:
			if f.mode.handsFree() {
				s, e := f.vad.Utterance()
				acts = append(acts, action{kind: actUtterance, pcm: f.cut(s-int64(f.preRoll), e+int64(f.tail)), early: f.earlyEnd == e})
			}
			f.earlyEnd = 0
		case VADNone:
			acts = f.early(acts)
		}
	}
	f.pending = append([]int16(nil), f.pending...)
	f.trim()
	return acts
}

// early cuts the utterance as it would end now once its speech has
// paused for a tail's length (all of the audio the utterance will hold if
// it ends without more voice), and voids that cut when the voice goes on.
// The hangover (DefaultVADConfig) still decides the end: a pause between
// words must not end a turn, but the transcription can start at the
// pause and be ready when the hangover confirms it.
func (f *framer) early(acts []action) []action {
	if !f.mode.handsFree() || !f.vad.InUtterance() {
		return acts
	}
	s, e := f.vad.Utterance()
	if f.earlyEnd != 0 && f.earlyEnd != e {
		f.earlyEnd = 0
		acts = append(acts, action{kind: actEarlyVoid})
	}
	if f.earlyEnd == 0 && f.pos >= e+int64(f.tail) {
		f.earlyEnd = e
		acts = append(acts, action{kind: actEarly, pcm: f.cut(s-int64(f.preRoll), e+int64(f.tail))})
	}
	return acts
}

// press handles the push-to-talk button; a release returns the utterance
// (nil when the hold was too short).
func (f *framer) press(down bool) []int16 {
	if down == f.held {
		return nil
	}
	f.held = down
	end := f.histAt + int64(len(f.hist))
	if down {
		f.heldAt = max(end-int64(f.preRoll), f.histAt)
		return nil
	}
	if end-f.heldAt < int64(f.minHeld+f.preRoll) {
		f.trim()
		return nil
	}
	u := f.cut(f.heldAt, end)
	f.trim()
	return u
}

// cut copies the audio between two sample positions, clamped to what is kept.
func (f *framer) cut(from, to int64) []int16 {
	end := f.histAt + int64(len(f.hist))
	from, to = max(from, f.histAt), min(to, end)
	if to <= from {
		return nil
	}
	return append([]int16(nil), f.hist[from-f.histAt:to-f.histAt]...)
}

// trim drops audio no utterance can need any more.
func (f *framer) trim() {
	if f.held {
		return
	}
	keepFrom := f.histAt + int64(len(f.hist)) - int64(f.keep)
	if f.vad.InUtterance() {
		s, _ := f.vad.Utterance()
		keepFrom = min(keepFrom, s-int64(f.preRoll))
	}
	// Trimming copies what is kept: do it once the excess is as large.
	if drop := keepFrom - f.histAt; drop > int64(f.keep) {
		f.hist = append(f.hist[:0], f.hist[drop:]...)
		f.histAt = keepFrom
	}
}
