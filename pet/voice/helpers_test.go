package voice

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

const rate = 16000

// loadSpeech reads a testdata speech sample (16 kHz mono, espeak-ng).
func loadSpeech(t testing.TB, name string) []int16 {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	pcm, r, err := DecodeWAV(data)
	if err != nil || r != rate {
		t.Fatalf("%s: rate %d, %v", name, r, err)
	}
	return pcm
}

var speechFiles = []string{"speech-male.wav", "speech-female.wav", "speech-fast.wav", "speech-slow.wav"}

// truth is where speech really is in a clean sample: the first and last
// 20 ms frame within 35 dB of the loudest one, in samples.
func truth(pcm []int16) (start, end int) {
	n := FrameSamples(rate)
	peak := -100.0
	for i := 0; i+n <= len(pcm); i += n {
		peak = math.Max(peak, Level(pcm[i:i+n]))
	}
	start, end = -1, -1
	for i := 0; i+n <= len(pcm); i += n {
		if Level(pcm[i:i+n]) > peak-35 {
			if start < 0 {
				start = i
			}
			end = i + n
		}
	}
	return start, end
}

// scale returns pcm with its RMS level set to db dBFS.
func scale(pcm []int16, db float64) []int16 {
	g := math.Pow(10, (db-Level(pcm))/20)
	out := make([]int16, len(pcm))
	for i, s := range pcm {
		out[i] = clamp16(float64(s) * g)
	}
	return out
}

// noise is n samples of Gaussian noise at db dBFS RMS (-100: silence).
func noise(n int, db float64, seed uint64) []int16 {
	out := make([]int16, n)
	if db <= -100 {
		return out
	}
	r := rand.New(rand.NewPCG(seed, 1))
	a := math.Pow(10, db/20) * 32768
	for i := range out {
		out[i] = clamp16(r.NormFloat64() * a)
	}
	return out
}

// mix adds src into dst at offset.
func mix(dst, src []int16, at int) {
	for i, s := range src {
		if at+i < len(dst) {
			dst[at+i] = clamp16(float64(dst[at+i]) + float64(s))
		}
	}
}

// speechLevel is the RMS level of the voiced part of pcm.
func speechLevel(pcm []int16) float64 {
	s, e := truth(pcm)
	return Level(pcm[s:e])
}
