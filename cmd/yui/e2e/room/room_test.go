//go:build e2e

package room

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// speakReplies makes the pet say n short replies, each heard to its end
// in the speaker's monitor before the next is sent.
func speakReplies(r *rig, b *backend, n int) {
	r.t.Helper()
	for i := range n {
		_, ends := r.counts()
		b.reply(shortReplies[i%len(shortReplies)])
		r.waitEnds(30*time.Second, ends+1)
	}
}

// TestRoomRepliesDoNotInterrupt: twenty replies over the speakers in a
// quiet room (-65 dBFS), then twenty more once its floor rose to -45 dBFS,
// no one talking: no barge-in, no utterance, no spoken turn. One run
// serves both floors; the canceller's cleaning of each (ERLE) comes from
// the --voice-debug recording.
func TestRoomRepliesDoNotInterrupt(t *testing.T) {
	p := startPulse(t)
	r := startRig(t, p, issueRoom(-65))
	b := startBackend(t, "room-key")
	tr := startTranscriber(t)
	// The recording stays with the test's artifacts, for a listen.
	debug := filepath.Join(harness.Artifacts(t), "voice-debug")
	a := startApp(t, p, b, tr, "hands_free", true, debug)
	a.WaitRecord(30*time.Second, "voice_echo_cancel", map[string]string{"debug": "true"})

	speakReplies(r, b, 20)
	quiet := debugSamples(t, debug)
	checkQuiet(t, a, b, "-65 dBFS", 0, 0)
	r.setNoise(-45)
	speakReplies(r, b, 20)
	checkQuiet(t, a, b, "-45 dBFS", 0, 0)
	t.Logf("the pet's speech peaked at %.1f dBFS in the speaker's monitor", r.peak())
	reportERLE(t, debug, quiet)
}

// checkQuiet fails when the app heard speech: barge-ins, utterances or
// spoken turns beyond the counts before this phase.
func checkQuiet(t *testing.T, a *harness.App, b *backend, phase string, barges, utts int) {
	t.Helper()
	nb, nu, nt := a.Count("voice_barge_in", nil)-barges, a.Count("voice_utterance", nil)-utts, len(b.userTurns())
	t.Logf("%s: %d barge-ins, %d utterances, %d spoken turns over 20 replies", phase, nb, nu, nt)
	if nb != 0 || nu != 0 || nt != 0 {
		t.Errorf("%s: %d barge-ins, %d utterances, %d spoken turns over 20 replies with no one talking", phase, nb, nu, nt)
	}
}

// TestRoomWithoutCancellerInterrupts: the same room with voice.echo_cancel
// false makes the pet interrupt herself: the rig can fail.
func TestRoomWithoutCancellerInterrupts(t *testing.T) {
	p := startPulse(t)
	r := startRig(t, p, issueRoom(-65))
	b := startBackend(t, "room-key")
	a := startApp(t, p, b, startTranscriber(t), "hands_free", false, "")
	speakReplies(r, b, 5)
	n := a.Count("voice_barge_in", nil)
	t.Logf("without the canceller: %d barge-ins over 5 replies", n)
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
	p := startPulse(t)
	r := startRig(t, p, issueRoom(-45))
	b := startBackend(t, "room-key")
	weather := loadClip(t, "speech-male.wav", weatherText)
	a := startApp(t, p, b, startTranscriber(t, weather), "hands_free", true, "")
	speakReplies(r, b, 3)
	ok := 0
	var lats []time.Duration
	for try := range 10 {
		lat, text := bargeIn(t, a, r, b, weather, try)
		good := lat <= 600*time.Millisecond && text == weatherText
		if good {
			ok++
		}
		lats = append(lats, lat)
		t.Logf("try %d: the pet stopped %v after the user's onset; heard %q", try+1, lat, text)
	}
	slices.Sort(lats)
	t.Logf("stopped in time with the user's words in %d of 10; median %v, slowest %v; %d barge-ins",
		ok, lats[len(lats)/2], lats[len(lats)-1], a.Count("voice_barge_in", nil))
	if ok < 9 {
		t.Fatalf("the user stopped the pet in time with their words heard in %d of 10 replies", ok)
	}
}

// bargeIn plays one try: a long reply, the user's sentence a second into
// it. It returns how long after the user's onset the pet's speech ended in
// the monitor and the text of the spoken turn that followed.
func bargeIn(t *testing.T, a *harness.App, r *rig, b *backend, c *clip, try int) (time.Duration, string) {
	t.Helper()
	turns := len(b.userTurns())
	r.sayInNextReply(c, time.Second)
	b.reply(longReply)
	var said placed
	harness.WaitFor(t, 30*time.Second, "the reply to start and the user to speak over it", func() bool {
		var n int
		said, n = r.lastSaid()
		return n == try+1
	})
	var end int
	harness.WaitFor(t, 30*time.Second, "the pet's speech to end after the user's onset", func() bool {
		var ok bool
		end, ok = r.endAfter(said.onset())
		return ok
	})
	fillers := a.Count("speech", map[string]string{"kind": "filler"})
	harness.WaitFor(t, 60*time.Second, "the spoken turn", func() bool { return len(b.userTurns()) > turns })
	harness.WaitFor(t, 30*time.Second, "the user's sentence to play out", r.quiet)
	// The pet acknowledges a spoken turn with a filler; the next try's
	// sentence must go into the next reply, not into it.
	harness.WaitForOr(5*time.Second, func() bool { return a.Count("speech", map[string]string{"kind": "filler"}) > fillers })
	harness.WaitFor(t, 30*time.Second, "the pet to fall silent", func() bool { s, e := r.counts(); return s == e })
	return samplesToDur(end - said.onset()), b.userTurns()[turns].Text
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
