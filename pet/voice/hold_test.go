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
