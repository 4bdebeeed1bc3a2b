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
	// actHold: someone may be talking over the pet: pause her output
	// while the detector decides; actRelease: it decided (a barge-in
	// came first) or heard nothing more: let her go on.
	actHold
	actRelease
	// actDoubtDropped: an utterance opened over the pet's echo ended, or
	// the hold ended with her going on, before any voice was heard once
	// her echo was gone (holdState.vet, holdState.step): it was her.
	actDoubtDropped
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
	// echoDue, when set, tells whether the pet's voice may still reach
	// the input though she no longer speaks: the echo of her last words
	// arrives the room's delay and tail after the output fell silent
	// (echo.go). The raised threshold holds over it; a barge-in does not.
	echoDue func() bool
	// earlyEnd is the end of the voiced audio an actEarly was cut at, 0
	// when none stands.
	earlyEnd int64
	hold     holdState
}

// holdState is the framer's pause of the pet's output (actHold): on a
// tentative onset while she speaks (VAD.Tentative), until the detector
// barges in, she has nothing left to say, the input has had no voiced
// frame for holdQuiet, or holdMax went by. Held, her echo fades from the
// input within the canceller's delay and the room's tail, and the user's
// next words are heard against the room alone: on issue 35's rig the
// raised onset came only with "tell me", the second burst of "Could you
// tell me…", 560 ms after the first word; the hold stops her at "Could".
type holdState struct {
	on          bool    // the listener can hold the output (hands-free, echo cancelled)
	held        bool    // holding now
	from, voice int64   // where the hold began and the last voiced frame since, in samples
	quiet, max  int64   // holdQuiet and holdMax in samples
	floor       float64 // the echo floor when the hold began
	lastFloor   float64 // the echo floor of the last frame
	doubt       bool    // an utterance opened while held waits for vet's proof
}

// echoFloor is the echo floor the detector counts from: while held, no
// lower than when the hold began. The pet's voice stops, and with it the
// reference the floor is read from, but her last words still reach the
// microphone (through the output's buffers, the room's delay and tail),
// and the room's own noise lies under a floor that counted from her: on
// the rig, a floor that fell with the reference let those through, and
// holds on a syllable of her echo became barge-ins.
func (h *holdState) echoFloor(now float64) float64 {
	h.lastFloor = now
	if h.held {
		return max(now, h.floor)
	}
	return now
}

// vet takes an utterance the detector opened while the pet is held for
// the user's only once a voiced frame comes after her echo is no longer
// due (echoDue): held, she is silent, and her voice stops reaching the
// microphone within the echo's delay and tail, so voice after that is
// not hers. Until then the opening waits (doubt) and ev reads VADNone;
// the first voiced frame with her echo gone returns the deferred
// VADStart; an utterance that ends first, or that the hold's end finds
// still in doubt (step), is dropped. On issue 35's rig,
// under load, a syllable the canceller took only 12 dB out of (30 dB
// elsewhere) opened an utterance while held: a barge-in and a spoken
// turn nobody said. A user's words go on past her echo ("Could you…
// tell me"), and the hold stopped her at their first word: the barge-in
// comes later, her silence does not.
func (h *holdState) vet(ev VADEvent, voiced, gone bool) (out VADEvent, dropped bool) {
	switch {
	case ev == VADStart && h.held && !gone:
		h.doubt = true
		return VADNone, false
	case !h.doubt:
		return ev, false
	case ev == VADEnd:
		h.doubt = false
		return VADNone, true
	case voiced && gone:
		h.doubt = false
		return VADStart, false
	}
	return VADNone, false
}

// How long a hold lasts without a barge-in: holdQuiet after the last
// voiced frame (longer than the pause between a user's first words),
// holdMax at the most.
const (
	holdQuiet = 300 * time.Millisecond
	holdMax   = 1500 * time.Millisecond
)

// step moves the hold on after a frame; owed tells whether the pet's
// speech is owed, ev what the frame did to the utterance.
func (h *holdState) step(acts []action, v *VAD, pos int64, owed bool, ev VADEvent) []action {
	if !h.on {
		return acts
	}
	if !h.held {
		if owed && v.Tentative() {
			h.held, h.from, h.voice, h.floor = true, pos, pos, h.lastFloor
			acts = append(acts, action{kind: actHold})
		}
		return acts
	}
	if v.LastVoiced() {
		h.voice = pos
	}
	if ev == VADStart || !owed || pos-h.voice >= h.quiet || pos-h.from >= h.max {
		h.held = false
		acts = append(acts, action{kind: actRelease})
		// An utterance still in doubt is dropped with the hold when she
		// goes on: while it stayed open her echo could never be gone, nor
		// a new hold begin (VAD.Tentative). With nothing owed her echo
		// goes, and vet decides as it comes.
		if h.doubt && owed {
			h.doubt = false
			v.Drop()
			acts = append(acts, action{kind: actDoubtDropped})
		}
	}
	return acts
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
		hold:    holdState{quiet: int64(samples(holdQuiet)), max: int64(samples(holdMax))},
	}
}

// feed takes one captured block; speaking tells whether the pet speaks
// (her speech is owed: what a barge-in stops).
func (f *framer) feed(block []int16, speaking func() bool) []action {
	var acts []action
	f.hist = append(f.hist, block...)
	f.pending = append(f.pending, block...)
	for len(f.pending) >= f.n {
		frame := f.pending[:f.n]
		owed := speaking()
		due := f.echoDue != nil && f.echoDue()
		raised := owed || due
		f.vad.SetRaised(raised)
		if f.echoFloor != nil {
			f.vad.SetEchoFloor(f.hold.echoFloor(f.echoFloor()))
		}
		ev := f.vad.Frame(frame)
		f.pos += int64(f.n)
		f.pending = f.pending[f.n:]
		ev, dropped := f.hold.vet(ev, f.vad.LastVoiced(), !due)
		if dropped {
			acts = append(acts, action{kind: actDoubtDropped})
		}
		switch ev {
		case VADStart:
			if owed && (f.mode.handsFree() || f.held) {
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
		acts = f.hold.step(acts, f.vad, f.pos, owed, ev)
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
	if !f.mode.handsFree() || !f.vad.InUtterance() || f.hold.doubt {
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
