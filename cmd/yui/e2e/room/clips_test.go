//go:build e2e

package room

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"yui/pet/voice"
	"yui/pet/voice/room"
)

// issueRoom is issue 35's room at a noise floor: the speaker's sound 60 ms
// later at 0.4 with two reflections, low-passed.
func issueRoom(noiseDB float64) room.Room {
	rm := room.Issue35()
	rm.NoiseDB = noiseDB
	return rm
}

// userDB is the user's speech at the microphone (RMS over the clip), the
// unit tests' level: a few dB above the pet's echo (about -26 dBFS in the
// issue's room at her voice's level), as someone at the desk talking over her.
const userDB = -22

// The user's sentences. The barge-in one is the unit tests' male speaker.
const (
	weatherText = "Could you tell me what the weather looks like this afternoon?"
	nameless    = "Remind me to buy some bread."
	named       = "Hey Yui, tell me a joke."
)

// shortReplies are the pet's one-sentence replies over the speakers.
var shortReplies = []string{
	"The kettle is on.", "It looks sunny outside.", "Your meeting starts at ten.",
	"I saved the file for you.", "That sounds like fun.", "The build has finished.",
	"Here is the next song.", "I found three results.", "Time for a short break.",
	"The package arrives tomorrow.",
}

// longReply is long enough to talk over: about seven seconds, one
// sentence, no pause the rig would take for its end.
const longReply = "I have been reading about the history of tea and how it travelled from the mountains of China to the rest of the world over many centuries."

// loadClip reads a 16 kHz WAV of pet/voice/testdata.
func loadClip(t testing.TB, name, text string) *clip {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "pet", "voice", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return newClip(t, data, text)
}

// espeakClip is espeak-ng saying text.
func espeakClip(t testing.TB, text string) *clip {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Fatal("espeak-ng is missing (.ci/deps.sh test installs it)")
	}
	wav := filepath.Join(t.TempDir(), "said.wav")
	if out, err := exec.Command("espeak-ng", "-v", "en-us", "-s", "160", "-w", wav, text).CombinedOutput(); err != nil {
		t.Fatalf("espeak-ng: %v\n%s", err, out)
	}
	data, err := os.ReadFile(wav)
	if err != nil {
		t.Fatal(err)
	}
	return newClip(t, data, text)
}

// newClip decodes a WAV, resamples it to the rig's rate and sets its
// level to userDB.
func newClip(t testing.TB, wav []byte, text string) *clip {
	t.Helper()
	pcm, r, err := voice.DecodeWAV(wav)
	if err != nil {
		t.Fatal(err)
	}
	pcm = voice.Resample(pcm, r, rate)
	c := &clip{text: text, pcm: make([]float64, len(pcm)), onset: -1}
	var ms float64
	for i, s := range pcm {
		c.pcm[i] = float64(s) / 32768
		ms += c.pcm[i] * c.pcm[i]
	}
	g := math.Pow(10, userDB/20) / math.Sqrt(ms/float64(len(pcm)))
	env := contour(c.pcm)
	peak := -100.0
	for _, v := range env {
		peak = max(peak, v)
	}
	for i := range c.pcm {
		c.pcm[i] *= g
	}
	// The onset is the first 10 ms within 30 dB of the clip's loudest.
	for i, v := range env {
		if v > peak-30 {
			c.onset = i * block
			break
		}
	}
	return c
}

func (c *clip) duration() time.Duration { return samplesToDur(len(c.pcm)) }
