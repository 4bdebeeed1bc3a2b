package voice

import (
	"fmt"
	"testing"
	"time"
)

// runVAD feeds pcm frame by frame and returns the utterances found.
func runVAD(pcm []int16, raisedFor func(pos int) bool) (utts [][2]int) {
	v := NewVAD(rate, VADConfig{})
	n := FrameSamples(rate)
	for i := 0; i+n <= len(pcm); i += n {
		if raisedFor != nil {
			v.SetRaised(raisedFor(i))
		}
		switch v.Frame(pcm[i : i+n]) {
		case VADEnd:
			s, e := v.Utterance()
			utts = append(utts, [2]int{int(s), int(e)})
		}
	}
	if v.InUtterance() {
		s, e := v.Utterance()
		utts = append(utts, [2]int{int(s), int(e)})
	}
	return utts
}

func ms(samples int) time.Duration { return time.Duration(samples) * time.Second / rate }

// Speech from several voices at a conversational level, in silence and in
// noise from a quiet room to a loud fan: one utterance per sentence, its
// boundaries within 200 ms of the truth.
func TestVADBoundariesOnSpeechInNoise(t *testing.T) {
	const speechDB = -22 // RMS of the voiced part
	for _, name := range speechFiles {
		clean := loadSpeech(t, name)
		clean = scale(clean, speechDB+(Level(clean)-speechLevel(clean)))
		ts, te := truth(clean)
		for _, noiseDB := range []float64{-100, -65, -50, -40, -35} {
			t.Run(fmt.Sprintf("%s/noise%.0f", name, noiseDB), func(t *testing.T) {
				// 2 s of noise, the sentence, 1.5 s of noise, the sentence again, 2 s.
				gap1, gap2 := 2*rate, 3*rate/2
				total := gap1 + len(clean) + gap2 + len(clean) + 2*rate
				pcm := noise(total, noiseDB, uint64(len(name)))
				at := []int{gap1, gap1 + len(clean) + gap2}
				for _, a := range at {
					mix(pcm, clean, a)
				}
				utts := runVAD(pcm, nil)
				if len(utts) != 2 {
					t.Fatalf("found %d utterances %v, want 2", len(utts), utts)
				}
				for i, u := range utts {
					ds, de := ms(u[0]-(at[i]+ts)), ms(u[1]-(at[i]+te))
					if ds.Abs() > 200*time.Millisecond || de.Abs() > 200*time.Millisecond {
						t.Errorf("utterance %d: start off by %v, end off by %v", i, ds, de)
					}
				}
			})
		}
	}
}

// Noise alone, steady or stepping up, opens nothing for long.
func TestVADIgnoresNoise(t *testing.T) {
	pcm := noise(10*rate, -45, 7)
	if u := runVAD(pcm, nil); len(u) != 0 {
		t.Fatalf("steady noise: %v", u)
	}
	// A fan turning on: the floor follows within its window.
	step := append(noise(3*rate, -65, 1), noise(12*rate, -40, 2)...)
	u := runVAD(step, nil)
	for _, x := range u {
		if d := ms(x[1] - x[0]); d > 5*time.Second {
			t.Fatalf("noise step held an utterance %v", d)
		}
	}
	if v := NewVAD(rate, VADConfig{}); v.Floor() != DefaultVADConfig.MinLevel {
		t.Fatal("floor before audio")
	}
}

// The pet's own voice reaching the microphone at normal volume (speakers
// about 20 dB below the user's voice at the microphone) does not pass the
// raised threshold; the user talking over it does.
func TestVADRaisedThresholdIgnoresPetVoice(t *testing.T) {
	user := loadSpeech(t, "speech-male.wav")
	pet := loadSpeech(t, "speech-female.wav")
	user = scale(user, -22+(Level(user)-speechLevel(user)))
	pet = scale(pet, -42+(Level(pet)-speechLevel(pet)))
	room := noise(8*rate, -60, 3)
	mix(room, pet, rate)
	mix(room, pet, rate+len(pet))
	always := func(int) bool { return true }
	if u := runVAD(room, always); len(u) != 0 {
		t.Fatalf("the pet's voice opened %v", u)
	}
	// Without the raise it would have: the test mix is a real risk.
	if u := runVAD(room, nil); len(u) == 0 {
		t.Fatal("the pet's voice in the mix is too quiet to test anything")
	}
	mix(room, user, 2*rate)
	if u := runVAD(room, always); len(u) != 1 {
		t.Fatalf("user over the pet: %v, want one utterance", u)
	}
}

func BenchmarkVADFrame(b *testing.B) {
	pcm := noise(rate, -40, 1)
	mix(pcm, loadSpeech(b, "speech-male.wav")[:rate/2], rate/4)
	v := NewVAD(rate, VADConfig{})
	n := FrameSamples(rate)
	frames := len(pcm) / n
	b.ResetTimer()
	for i := range b.N {
		k := i % frames
		v.Frame(pcm[k*n : (k+1)*n])
	}
	b.ReportMetric(float64(FrameDuration)/(float64(b.Elapsed())/float64(b.N)), "x-realtime")
}

// While the pet speaks with her echo cancelled, the barge-in onset may
// find its voiced frames within twice its length: the user's first words
// over her come in bursts ("Could you", a pause, "tell me"). Speech in
// 100 ms bursts 60 ms apart never fills a 160 ms onset four fifths
// voiced; the wide count opens on the second burst. Continuous speech
// opens as soon either way.
func TestVADRaisedWideOpensOnBursts(t *testing.T) {
	user := loadSpeech(t, "speech-male.wav")
	user = scale(user, -22+(Level(user)-speechLevel(user)))
	n := FrameSamples(rate)
	// The sentence's voiced frames, in bursts of five with three frames
	// of the room between them.
	var voicedFrames [][]int16
	for i := 0; i+n <= len(user); i += n {
		if Level(user[i:i+n]) > -40 {
			voicedFrames = append(voicedFrames, user[i:i+n])
		}
	}
	at := 2 * rate
	bursty := noise(6*rate, -60, 5)
	for k, pos := 0, at; k < len(voicedFrames) && pos+n < len(bursty); k++ {
		mix(bursty, voicedFrames[k], pos)
		pos += n
		if k%5 == 4 {
			pos += 3 * n
		}
	}
	steady := noise(6*rate, -60, 5)
	for k, pos := 0, at; k < len(voicedFrames) && pos+n < len(steady); k, pos = k+1, pos+n {
		mix(steady, voicedFrames[k], pos)
	}
	open := func(pcm []int16, wide bool) time.Duration {
		v := NewVAD(rate, VADConfig{Raise: EchoRaise, RaisedOnset: EchoRaisedOnset})
		v.SetRaisedWide(wide)
		for i := 0; i+n <= at+rate; i += n {
			v.SetRaised(true)
			if v.Frame(pcm[i:i+n]) == VADStart {
				return ms(i + n - at)
			}
		}
		return -1
	}
	if got := open(bursty, false); got >= 0 {
		t.Fatalf("bursts opened the onset counted over its own length, %v after the first", got)
	}
	if got := open(bursty, true); got < 0 || got > 240*time.Millisecond {
		t.Fatalf("bursts opened the wide onset %v after the first (want within 240 ms)", got)
	}
	if narrow, wide := open(steady, false), open(steady, true); narrow < 0 || wide != narrow {
		t.Fatalf("steady speech opened %v counted over the onset, %v over twice it", narrow, wide)
	}
}
