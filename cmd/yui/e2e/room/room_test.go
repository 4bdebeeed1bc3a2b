//go:build e2e

package room

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// speakReplies makes the pet say n short replies, one at a time: each
// is spoken to its end (speech_done) or cut (a barge-in, or a spoken turn,
// which stops her), and the speaker's monitor is silent, before the next.
func speakReplies(a *harness.App, r *rig, b *backend, n int) {
	r.t.Helper()
	for i := range n {
		speak(a, r, b, shortReplies[i%len(shortReplies)], i)
	}
}

// speak makes the pet say text as reply i and waits for its end.
func speak(a *harness.App, r *rig, b *backend, text string, i int) {
	r.t.Helper()
	done := a.Count("speech_done", map[string]string{"text": text})
	cut := interruptions(a)
	b.reply(text)
	harness.WaitFor(r.t, 30*time.Second, fmt.Sprintf("reply %d spoken or cut", i+1), func() bool {
		return a.Count("speech_done", map[string]string{"text": text}) > done || interruptions(a) > cut
	})
	r.waitSilent(30 * time.Second)
}

// interruptions counts what stops the pet's speech: barge-ins and the
// turns her hearing started.
func interruptions(a *harness.App) int {
	return a.Count("voice_barge_in", nil) + a.Count("turn", map[string]string{"trigger": "user voice"})
}

// TestRoomRepliesDoNotInterrupt: twenty replies over the speakers in a
// quiet room (-65 dBFS), then twenty more once its floor rose to -45 dBFS,
// no one talking: no barge-in, no utterance, no spoken turn. One run
// serves both floors; the canceller's cleaning of each (ERLE) comes from
// the --voice-debug recording.
func TestRoomRepliesDoNotInterrupt(t *testing.T) {
	e := quietRoom(t)
	t.Logf("ERLE (raw microphone over cleaned, the reference playing): %.1f dB at -65 dBFS after the first 10 s (of %.1f s of reference), %.1f dB at -45 dBFS (%.1f s)", e.quiet.raw, e.quiet.seconds, e.loud.raw, e.loud.seconds)
	t.Logf("ERLE of the echo (each stream's noise taken out): %.1f dB at -65 dBFS, %.1f dB at -45 dBFS", e.quiet.echo, e.loud.echo)
}

// roomERLE is the canceller's ERLE in each half of quietRoom.
type roomERLE struct{ quiet, loud erleFigure }

// quietRoom makes the pet say twenty replies at -65 dBFS and twenty at
// -45 dBFS with no one talking, fails t on any barge-in, utterance or
// spoken turn, and measures the canceller from its recording.
func quietRoom(t testing.TB) roomERLE {
	p := startPulse(t)
	r := startRig(t, p, issueRoom(-65))
	b := startBackend(t, "room-key")
	tr := startTranscriber(t)
	// The recording stays with the test's artifacts, for a listen.
	debug := filepath.Join(harness.Artifacts(t), "voice-debug")
	a := startApp(t, p, b, tr, "hands_free", true, debug)
	a.WaitRecord(30*time.Second, "voice_echo_cancel", map[string]string{"debug": "true"})

	speakReplies(a, r, b, 20)
	quiet := debugSamples(t, debug)
	nb, nu, nt := checkQuiet(t, a, b, "-65 dBFS", 0, 0, 0)
	r.setNoise(-45)
	speakReplies(a, r, b, 20)
	checkQuiet(t, a, b, "-45 dBFS", nb, nu, nt)
	// A hold pauses her while the detector decides whether someone talks
	// over her; with no one talking, each is a stutter in her speech.
	t.Logf("the pet paused %d times over 40 replies (voice_hold)", a.Count("voice_hold", nil))
	t.Logf("the pet's speech peaked at %.1f dBFS in the speaker's monitor", r.peak())
	return measureERLE(t, debug, quiet)
}

// checkQuiet fails when the app heard speech in this phase: barge-ins,
// utterances or spoken turns beyond the counts before it. It returns the
// counts so far.
func checkQuiet(t testing.TB, a *harness.App, b *backend, phase string, barges, utts, turns int) (int, int, int) {
	t.Helper()
	nb, nu, nt := a.Count("voice_barge_in", nil), a.Count("voice_utterance", nil), len(b.userTurns())
	if nb > barges || nu > utts || nt > turns {
		t.Errorf("%s: %d barge-ins, %d utterances, %d spoken turns over 20 replies with no one talking", phase, nb-barges, nu-utts, nt-turns)
	} else {
		t.Logf("%s: no barge-in, utterance or spoken turn over 20 replies", phase)
	}
	return nb, nu, nt
}

// TestRoomWithoutCancellerInterrupts: the same room with voice.echo_cancel
// false makes the pet interrupt herself over five long replies: the rig
// can fail.
func TestRoomWithoutCancellerInterrupts(t *testing.T) {
	p := startPulse(t)
	r := startRig(t, p, issueRoom(-65))
	b := startBackend(t, "room-key")
	a := startApp(t, p, b, startTranscriber(t), "hands_free", false, "")
	// Long replies: a one-sentence reply of a second or so ends before
	// its echo has been over the raised threshold for the raised onset
	// (300 ms) as often as not (0–2 barge-ins over 5 of them).
	for i := range 5 {
		speak(a, r, b, longReply, i)
	}
	n := a.Count("voice_barge_in", nil)
	t.Logf("without the canceller: %d barge-ins over 5 long replies", n)
	if n == 0 {
		t.Fatal("without the canceller the pet was not interrupted: the rig tests nothing")
	}
}

// TestRoomUserBargesIn: the user talking over a reply, a second into it,
// stops the pet's speech in the speaker's monitor within 600 ms of the
// speech's onset at the microphone, in at least 9 of 10 replies, and the
// turn that follows carries the user's words. Three replies alone come
// first: the canceller hears the room.
func TestRoomUserBargesIn(t *testing.T) {
	ok, _ := bargeInTries(t)
	if ok < 9 {
		t.Fatalf("the user stopped the pet in time with their words heard in %d of 10 replies", ok)
	}
}

// bargeInTries has the user talk over ten replies after three alone, and
// returns how many stopped her within 600 ms with the user's words heard
// and, sorted, the time from the user's onset to the speaker's silence
// of each reply that played.
func bargeInTries(t testing.TB) (ok int, lats []time.Duration) {
	p := startPulse(t)
	r := startRig(t, p, issueRoom(-45))
	b := startBackend(t, "room-key")
	weather := loadClip(t, "speech-male.wav", weatherText)
	debug := filepath.Join(harness.Artifacts(t), "voice-debug")
	a := startApp(t, p, b, startTranscriber(t, weather), "hands_free", true, debug)
	speakReplies(a, r, b, 3)
	for try := range 10 {
		lat, text := bargeIn(t, a, r, b, weather)
		good := lat >= 0 && lat <= 600*time.Millisecond && text == weatherText
		if good {
			ok++
		}
		if lat < 0 {
			t.Logf("try %d: the reply did not play or was cut before the user spoke; heard %q", try+1, text)
			continue
		}
		lats = append(lats, lat)
		t.Logf("try %d: the pet stopped %v after the user's onset; heard %q", try+1, lat, text)
	}
	if slices.Sort(lats); len(lats) > 0 {
		t.Logf("stopped in time with the user's words in %d of 10; over the %d replies played, median %v, slowest %v; %d barge-ins",
			ok, len(lats), lats[len(lats)/2], lats[len(lats)-1], a.Count("voice_barge_in", nil))
	}
	return ok, lats
}

// bargeIn plays one try: a long reply, the user's sentence a second into
// it. It returns how long after the user's onset the pet's speech ended in
// the monitor (-1: the reply did not play, or was cut before the user
// spoke) and the text of the spoken turn
// that carried the sentence ("" when none did).
func bargeIn(t testing.TB, a *harness.App, r *rig, b *backend, c *clip) (time.Duration, string) {
	t.Helper()
	turns := len(b.userTurns())
	_, placedN := r.lastSaid()
	r.sayInNextReply(c, time.Second)
	b.reply(longReply)
	var said placed
	if !harness.WaitForOr(30*time.Second, func() bool { var n int; said, n = r.lastSaid(); return n > placedN }) {
		r.sayInNextReply(nil, 0)
		return -1, ""
	}
	// A reply cut before the user spoke (the pet interrupted herself) has
	// no end after the onset until she speaks again.
	end, cutBefore := 0, false
	harness.WaitFor(t, 30*time.Second, "the pet's speech to end after the user's onset", func() bool {
		var ok bool
		if end, ok = r.endAfter(said.onset()); ok {
			return true
		}
		cutBefore = r.silentSince(said.onset())
		return cutBefore
	})
	harness.WaitFor(t, 30*time.Second, "the user's sentence to play out", r.quiet)
	// The sentence's turn comes once the utterance closed (within a second
	// or two of the speech's end) and was transcribed (at once, locally);
	// the pet's own voice may have started others.
	text := ""
	harness.WaitForOr(8*time.Second, func() bool {
		for _, tf := range b.userTurns()[turns:] {
			if text = tf.Text; text == c.text {
				return true
			}
		}
		return false
	})
	// A spoken turn makes the pet say a filler; the next try's sentence
	// must go into the next reply, not into it.
	harness.WaitFor(t, 30*time.Second, "the pet to fall silent", func() bool { s, e := r.counts(); return s == e })
	if cutBefore {
		return -1, text
	}
	logSplit(t, a, r, said.onset(), end)
	return samplesToDur(end - said.onset()), text
}

// logSplit says where the time from the user's onset to the speaker's
// silence went: when the app held her output (voice_hold, the first after
// the onset), when it barged in (voice_barge_in: the microphone's path,
// the canceller, the detector), and when the speaker's last loud block
// went through the room (the stop and the output's buffers after it), all
// from the rig's wall time of the onset's block.
func logSplit(t testing.TB, a *harness.App, r *rig, onset, end int) {
	t.Helper()
	from, to := r.wallAt(onset), r.wallAt(end-block)
	if from.IsZero() || to.IsZero() {
		return
	}
	first := func(msg string) string {
		for _, rec := range a.Log() {
			at, err := time.Parse(time.RFC3339Nano, rec.Str("time"))
			if rec.Str("msg") == msg && err == nil && !at.Before(from.Add(-time.Second)) && !at.After(to.Add(time.Second)) {
				return at.Sub(from).Round(time.Millisecond).String()
			}
		}
		return "none"
	}
	t.Logf("  after the onset went into the microphone: held %s, barge-in %s, the speaker's last loud block %v",
		first("voice_hold"), first("voice_barge_in"), to.Sub(from).Round(time.Millisecond))
}

// TestRoomWakeWord: in wake_word mode a sentence without the pet's name
// is dropped (voice_ignored, "no wake word"); one that begins with it
// starts a turn without it, which the pet answers over the speakers.
func TestRoomWakeWord(t *testing.T) {
	p := startPulse(t)
	r := startRig(t, p, issueRoom(-55))
	b := startBackend(t, "room-key")
	plain, hey := espeakClip(t, nameless), espeakClip(t, named)
	a := startApp(t, p, b, startTranscriber(t, plain, hey), "wake_word", true, "")

	r.sayNow(plain)
	a.WaitRecord(30*time.Second, "voice_ignored", map[string]string{"reason": "no wake word"})
	harness.WaitFor(t, 30*time.Second, "the sentence to play out", r.quiet)

	b.mu.Lock()
	b.answer = "Why did the cat sit on the computer? To keep an eye on the mouse."
	b.mu.Unlock()
	_, ends := r.counts()
	r.sayNow(hey)
	a.WaitRecord(30*time.Second, "voice_wake", map[string]string{"alone": "false"})
	harness.WaitFor(t, 30*time.Second, "the spoken turn", func() bool { return len(b.userTurns()) > 0 })
	got := b.userTurns()
	if len(got) != 1 || got[0].Text != "tell me a joke." {
		t.Fatalf("spoken turns %+v, want one with text %q", got, "tell me a joke.")
	}
	r.waitEnds(30*time.Second, ends+1) // the answer, heard over the speakers
	if n := a.Count("voice_ignored", nil); n != 1 {
		t.Fatalf("%d utterances ignored, want the one without the name", n)
	}
	t.Logf("ignored %q; %q started the turn %q", nameless, named, got[0].Text)
}
