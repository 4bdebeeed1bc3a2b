package voice

import (
	"context"
	"sync"
	"time"
)

// frameLoop cuts blocks into VAD frames and runs the mode's state machine.
func (l *Listener) frameLoop(ctx context.Context, utts chan<- utterance) {
	r := &frameRun{l: l, ctx: ctx, utts: utts, fr: newFramer(l.rate, l.o.VAD, l.o.Mode), echo: l.newEcho()}
	defer r.releaseHold()
	if r.echo != nil {
		defer r.wireEcho()()
	}
	defer r.settleEarly()
	for {
		select {
		case <-ctx.Done():
			return
		case down := <-l.presses:
			r.press(down)
		case b := <-l.blocks:
			r.block(b)
		}
	}
}

// frameRun is one frame loop's state: the framer, the echo path when the
// canceller is on, the output's hold while it lasts and the early
// transcription in flight. Only the frame loop's goroutine touches it.
type frameRun struct {
	l    *Listener
	ctx  context.Context
	utts chan<- utterance
	fr   *framer
	echo *echoPath // nil without echo cancelling

	holder outputHolder // the far end, when it can hold its output
	unhold func()       // the output's hold while it lasts

	at      time.Time // the block being processed
	pending *early    // the early transcription in flight, if any
	earlies sync.WaitGroup
}

// wireEcho lets the framer and the detector hear through the echo path and
// keeps the output running (and held while the user talks) in hands-free
// modes: push-to-talk listens while the key is down, not between replies,
// so the output may sleep then. It returns what undoes it.
func (r *frameRun) wireEcho() (undo func()) {
	l, fr, echo := r.l, r.fr, r.echo
	var keep func()
	if k, ok := l.o.FarEnd.(outputKeeper); ok && l.o.Mode.handsFree() {
		keep = k.KeepRunning()
	}
	fr.echoFloor = echo.echoFloor
	fr.echoDue = echo.echoDue
	if h, ok := l.o.FarEnd.(outputHolder); ok && l.o.Mode.handsFree() {
		r.holder, fr.hold.on = h, true
	}
	fr.vad.SetRaisedWide(true)
	rec := echo.rec
	return func() {
		if rec != nil {
			rec.Close()
		}
		if keep != nil {
			keep()
		}
	}
}

// settleEarly voids the early transcription still pending and waits for
// every one started to end.
func (r *frameRun) settleEarly() {
	r.pending.void(r.l)
	r.earlies.Wait()
}

// releaseHold ends the output's hold if one lasts.
func (r *frameRun) releaseHold() {
	if r.unhold != nil {
		r.unhold()
	}
}

// speaking tells the framer whether the pet owes speech, opening the
// follow-up window from the block being processed while it does.
func (r *frameRun) speaking() bool {
	s := r.l.o.Target.SpeechOwed()
	if s {
		r.l.wake.open(r.at.Add(FollowUp))
	}
	return s
}

// press takes a push-to-talk key going down or up.
func (r *frameRun) press(down bool) {
	switch u := r.fr.press(down); {
	case u != nil:
		r.l.enqueue(utterance{pcm: u}, r.utts)
	case down:
		r.l.o.Target.SetVoiceStatus(StatusListening)
	default: // released too soon to hold any speech
		r.l.o.Target.SetVoiceStatus("")
	}
}

// block runs one captured block through the echo path and the framer and
// acts on what the framer decides.
func (r *frameRun) block(b stamped) {
	r.at = b.at
	pcm := b.pcm
	if r.echo != nil {
		// A hold stands for the user talking as much as an open
		// utterance does: the canceller's estimator must not
		// take the user's first words for the pet's paused voice
		// (on the rig it adopted a 634 ms echo so).
		r.echo.setNearEnd(r.fr.vad.InUtterance() || r.fr.hold.held)
		pcm = r.echo.process(pcm, b.at)
	}
	for _, a := range r.fr.feed(pcm, r.speaking) {
		r.act(a)
	}
	if r.l.afterBlock != nil {
		r.l.afterBlock()
	}
}

// act carries out one of the framer's decisions.
func (r *frameRun) act(a action) {
	l := r.l
	switch a.kind {
	case actBargeIn:
		r.bargeIn()
	case actHold:
		if r.unhold == nil {
			r.unhold = r.holder.Hold()
			l.o.Logger.Info("voice_hold")
		}
	case actRelease:
		if r.unhold != nil {
			r.unhold()
			r.unhold = nil
			l.o.Logger.Info("voice_hold_released")
		}
	case actDoubtDropped:
		l.o.Logger.Info("voice_ignored", "reason", "echo")
	case actListening:
		l.o.Target.SetVoiceStatus(StatusListening)
	case actEarly:
		r.pending.void(l)
		r.pending = l.startEarly(r.ctx, &r.earlies, a.pcm)
	case actEarlyVoid:
		r.pending.void(l)
		r.pending = nil
	case actUtterance:
		r.utterance(a)
	}
}

// bargeIn logs what the detector heard and interrupts the pet. heard_ms:
// the speech the detector took, from its first voiced frame; lag_ms: from
// the block's capture to now.
func (r *frameRun) bargeIn() {
	l, fr, echo := r.l, r.fr, r.echo
	s, _ := fr.vad.Utterance()
	attrs := []any{"heard_ms", (fr.pos - s) * 1000 / int64(l.rate),
		"lag_ms", l.o.Clock.Now().Sub(r.at).Milliseconds(),
		"level_db", round1(fr.vad.LastLevel()), "floor_db", round1(fr.vad.Floor())}
	if echo != nil {
		attrs = append(attrs, "echo_floor_db", round1(echo.echoFloor()), "echo_gain_db", round1(echo.gain),
			"echo_ms", echo.c.Delay().Milliseconds())
	}
	l.o.Logger.Info("voice_barge_in", attrs...)
	l.o.Target.BargeIn()
}

// utterance sends a finished utterance on, with the early transcription
// that covers it, or voids the one pending.
func (r *frameRun) utterance(a action) {
	l := r.l
	began := r.at.Add(-time.Duration(len(a.pcm)) * time.Second / time.Duration(l.rate))
	u := utterance{pcm: a.pcm, followUp: l.wake.within(began)}
	if a.early {
		u.early, r.pending = r.pending, nil
	} else {
		r.pending.void(l)
		r.pending = nil
	}
	l.enqueue(u, r.utts)
}
