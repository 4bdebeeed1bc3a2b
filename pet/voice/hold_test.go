package voice

import (
	"slices"
	"testing"
)

// raisedVAD is a detector in the state a frame left it: raised while the
// pet speaks, with these voiced flags for its last frames, oldest first.
func raisedVAD(voiced ...bool) *VAD {
	v := NewVAD(rate, VADConfig{Raise: EchoRaise, RaisedOnset: EchoRaisedOnset})
	v.SetRaised(true)
	v.recent = append(v.recent[:0], voiced...)
	if len(voiced) > 0 {
		v.lastFrame = voiced[len(voiced)-1]
	}
	return v
}

func kinds(acts []action) []actionKind {
	var k []actionKind
	for _, a := range acts {
		k = append(k, a.kind)
	}
	return k
}

// TestHoldStartsOnATentativeOnset: four voiced frames of the last six,
// the last voiced, while the pet speaks, pause her; fewer, a last frame
// unvoiced, nothing owed or no holder do not.
func TestHoldStartsOnATentativeOnset(t *testing.T) {
	y, n := true, false
	for _, c := range []struct {
		name   string
		voiced []bool
		owed   bool
		on     bool
		want   []actionKind
	}{
		{"four of six", []bool{n, y, y, n, y, y}, true, true, []actionKind{actHold}},
		{"three of six", []bool{n, y, n, n, y, y}, true, true, nil},
		{"last unvoiced", []bool{y, y, y, y, y, n}, true, true, nil},
		{"nothing owed", []bool{y, y, y, y, y, y}, false, true, nil},
		{"no holder", []bool{y, y, y, y, y, y}, true, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := holdState{on: c.on, quiet: 4800, max: 24000}
			got := kinds(h.step(nil, raisedVAD(c.voiced...), 16000, c.owed, VADNone))
			if !slices.Equal(got, c.want) || h.held != (len(c.want) > 0) {
				t.Fatalf("actions %v held %v, want %v", got, h.held, c.want)
			}
		})
	}
}

// TestHoldEnds: a hold ends with the barge-in (after it, so the stop
// comes first), when nothing is owed any more, after holdQuiet with no
// voiced frame, and after holdMax whatever was heard.
func TestHoldEnds(t *testing.T) {
	const quiet, most = 4800, 24000 // 300 ms and 1.5 s
	voiced, silent := raisedVAD(true), raisedVAD(false)
	for _, c := range []struct {
		name string
		v    *VAD
		at   int64 // samples after the hold began
		owed bool
		ev   VADEvent
		end  bool
	}{
		{"voice goes on", voiced, 320, true, VADNone, false},
		{"a pause shorter than holdQuiet", silent, quiet - 320, true, VADNone, false},
		{"quiet for holdQuiet", silent, quiet, true, VADNone, true},
		{"the barge-in", voiced, 320, true, VADStart, true},
		{"nothing owed", voiced, 320, false, VADNone, true},
		{"holdMax", voiced, most, true, VADNone, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := holdState{on: true, held: true, from: 1000, voice: 1000, quiet: quiet, max: most}
			acts := []action{{kind: actBargeIn}}
			got := kinds(h.step(acts, c.v, 1000+c.at, c.owed, c.ev))
			want := []actionKind{actBargeIn}
			if c.end {
				want = append(want, actRelease)
			}
			if !slices.Equal(got, want) || h.held == c.end {
				t.Fatalf("actions %v held %v, want %v", got, h.held, want)
			}
		})
	}
}

// TestHoldKeepsTheEchoFloor: while held the detector counts from the
// echo floor the hold began with, not one that falls with the paused
// reference; after it, from the floor as it is.
func TestHoldKeepsTheEchoFloor(t *testing.T) {
	h := holdState{on: true, quiet: 4800, max: 24000}
	if got := h.echoFloor(-40); got != -40 {
		t.Fatalf("before the hold: %v, want -40", got)
	}
	h.step(nil, raisedVAD(true, true, true, true), 16000, true, VADNone)
	if !h.held {
		t.Fatal("no hold")
	}
	for _, now := range []float64{-60, -100, -35} {
		if got, want := h.echoFloor(now), max(now, -40); got != want {
			t.Fatalf("held, floor now %v: %v, want %v", now, got, want)
		}
	}
	h.step(nil, raisedVAD(true), 16000+320, false, VADNone)
	if got := h.echoFloor(-60); h.held || got != -60 {
		t.Fatalf("released: held %v, floor %v, want -60", h.held, got)
	}
}

// TestVetWaitsForHerEchoToGo: an utterance the detector opens while the
// pet is held counts once a voiced frame comes with her echo no longer
// due, and is dropped when it ends first; one opened while she is not
// held, or with her echo already gone, counts at once.
func TestVetWaitsForHerEchoToGo(t *testing.T) {
	type frame struct {
		ev             VADEvent
		voiced, gone   bool
		want           VADEvent
		dropped, doubt bool
	}
	for _, c := range []struct {
		name   string
		held   bool
		frames []frame
	}{
		{"the user goes on past her echo", true, []frame{
			{VADStart, true, false, VADNone, false, true},
			{VADNone, true, false, VADNone, false, true}, // still her echo's time
			{VADNone, false, true, VADNone, false, true}, // a pause between words
			{VADNone, true, true, VADStart, false, false},
			{VADNone, true, true, VADNone, false, false},
		}},
		{"her echo, over when she is", true, []frame{
			{VADStart, true, false, VADNone, false, true},
			{VADNone, false, true, VADNone, false, true},
			{VADEnd, false, true, VADNone, true, false},
		}},
		{"opened with her echo gone", true, []frame{
			{VADStart, true, true, VADStart, false, false},
		}},
		{"not held", false, []frame{
			{VADStart, true, false, VADStart, false, false},
			{VADEnd, false, false, VADEnd, false, false},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := holdState{on: true, held: c.held}
			for i, f := range c.frames {
				got, dropped := h.vet(f.ev, f.voiced, f.gone)
				if got != f.want || dropped != f.dropped || h.doubt != f.doubt {
					t.Fatalf("frame %d: %v dropped %v doubt %v, want %v dropped %v doubt %v", i, got, dropped, h.doubt, f.want, f.dropped, f.doubt)
				}
			}
		})
	}
}

// TestFramerDropsHerEchoWhileHeld runs the frame loop's state machine
// on the first words of a recording while the pet is held and her echo
// still due, then on the room's noise alone (her echo: it ended with her)
// or on the rest of the words once her echo is gone (the user): the
// first opens no utterance and is dropped; the second barges in once,
// and its utterance holds the words from their start.
func TestFramerDropsHerEchoWhileHeld(t *testing.T) {
	speech := scale(loadSpeech(t, "speech-male.wav"), -22)
	on, _ := truth(speech)
	first := on + rate*2/5 // 400 ms of words while her echo is due
	room := noise(rate, -65, 7)
	for _, c := range []struct {
		name                   string
		rest                   []int16 // once her echo is gone
		barge, dropped, utters int
	}{
		{"her echo", nil, 0, 1, 0},
		{"the user", speech[first:], 1, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFramer(rate, VADConfig{Raise: EchoRaise, RaisedOnset: EchoRaisedOnset}, ModeHandsFree)
			f.vad.SetRaisedWide(true)
			f.hold.on = true
			due := true
			f.echoDue = func() bool { return due }
			f.echoFloor = func() float64 { return -70 }
			got := map[actionKind]int{}
			var utt []int16
			feed := func(pcm []int16) {
				for len(pcm) > 0 {
					n := min(len(pcm), rate/100)
					for _, a := range f.feed(pcm[:n], func() bool { return true }) {
						got[a.kind]++
						if a.kind == actUtterance {
							utt = a.pcm
						}
					}
					pcm = pcm[n:]
				}
			}
			feed(room)
			feed(speech[:first])
			if got[actHold] != 1 || got[actBargeIn] != 0 || !f.hold.doubt {
				t.Fatalf("while her echo is due: %v, doubt %v; want one hold, no barge-in, in doubt", got, f.hold.doubt)
			}
			due = false
			feed(c.rest)
			feed(room)
			if got[actBargeIn] != c.barge || got[actDoubtDropped] != c.dropped || got[actUtterance] != c.utters {
				t.Fatalf("actions %v, want %d barge-in, %d dropped, %d utterance", got, c.barge, c.dropped, c.utters)
			}
			if c.utters > 0 && len(utt) < len(speech)-on {
				t.Fatalf("the utterance holds %v, the words %v", ms(len(utt)), ms(len(speech)-on))
			}
		})
	}
}

// TestHoldEndDropsTheDoubt: a hold that ends with the pet going on drops
// the utterance still in doubt (closed with no VADEnd, so a new hold can
// begin); one that ends because nothing is owed leaves it to vet.
func TestHoldEndDropsTheDoubt(t *testing.T) {
	const quiet, most = 4800, 24000
	for _, c := range []struct {
		name    string
		owed    bool
		dropped bool
	}{{"she goes on", true, true}, {"nothing owed", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			v := raisedVAD(false)
			v.in = true
			h := holdState{on: true, held: true, doubt: true, from: 1000, voice: 1000, quiet: quiet, max: most}
			got := kinds(h.step(nil, v, 1000+quiet, c.owed, VADNone))
			want := []actionKind{actRelease}
			if c.dropped {
				want = append(want, actDoubtDropped)
			}
			if !slices.Equal(got, want) || h.doubt == c.dropped || v.InUtterance() == c.dropped {
				t.Fatalf("actions %v doubt %v open %v, want %v", got, h.doubt, v.InUtterance(), want)
			}
		})
	}
}
