package voice

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// A quiet room alone opens nothing, from the first frame on: the floor is
// the room as the first frame hears it (issue 35: the old floor opened a
// 4-5 s utterance a second after start at -60 dBFS).
func TestVADQuietRoomAtStart(t *testing.T) {
	for _, db := range []float64{-70, -65, -60, -55, -50, -45} {
		t.Run(fmt.Sprintf("noise%.0f", db), func(t *testing.T) {
			if u := runVAD(noise(10*rate, db, uint64(-db)), nil); len(u) != 0 {
				t.Fatalf("noise alone opened %v", u)
			}
		})
	}
}

// typing is key clicks: a 4 ms broadband burst with a fast decay, about
// eight a second, at peak dBFS, over a -60 dBFS room.
func typing(n int, peak float64, seed uint64) []int16 {
	out := noise(n, -60, seed)
	r := rand.New(rand.NewPCG(seed, 2))
	a := math.Pow(10, peak/20) * 32768
	for at := rate / 10; at < n; at += rate/10 + r.IntN(rate/20) {
		for i := range rate / 100 {
			if at+i < n {
				env := math.Exp(-float64(i) / float64(rate/1000*2))
				out[at+i] = clamp16(float64(out[at+i]) + r.NormFloat64()*a*env)
			}
		}
	}
	return out
}

// music is held chords: three notes of four harmonics each, a new chord
// every 600 ms with no gap, at db dBFS, over a -60 dBFS room.
func music(n int, db float64) []int16 {
	out := noise(n, -60, 9)
	roots := []float64{220, 261.6, 196, 174.6}
	a := math.Pow(10, db/20) * 32768 / 3
	for i := range out {
		c := roots[(i/(rate*6/10))%len(roots)]
		var v float64
		for _, m := range []float64{1, 1.25, 1.5} {
			for h := 1.0; h <= 4; h++ {
				v += math.Sin(2*math.Pi*c*m*h*float64(i)/rate) / h
			}
		}
		out[i] = clamp16(float64(out[i]) + a*v/2)
	}
	return out
}

// Typing near the microphone opens nothing: its clicks are flat and short.
func TestVADIgnoresTyping(t *testing.T) {
	if u := runVAD(typing(10*rate, -20, 4), nil); len(u) != 0 {
		t.Fatalf("typing opened %v", u)
	}
}

// Held chords starting in a quiet room open at most their first second: they do not
// pause, so the dip test closes them, and they never open again.
func TestVADMusicHeldBriefly(t *testing.T) {
	pcm := append(noise(2*rate, -60, 8), music(10*rate, -30)...)
	u := runVAD(pcm, nil)
	if len(u) > 1 {
		t.Fatalf("music opened %d utterances %v", len(u), u)
	}
	for _, x := range u {
		if d := ms(x[1] - x[0]); d > 1500*time.Millisecond {
			t.Fatalf("music held an utterance %v", d)
		}
	}
	t.Logf("music: %d utterances", len(u))
}

// Speech over typing is still found once.
func TestVADSpeechOverTyping(t *testing.T) {
	pcm := typing(8*rate, -25, 5)
	s := loadSpeech(t, "speech-male.wav")
	mix(pcm, scale(s, -22+(Level(s)-speechLevel(s))), 2*rate)
	if u := runVAD(pcm, nil); len(u) != 1 {
		t.Fatalf("speech over typing: %v, want one utterance", u)
	}
}
