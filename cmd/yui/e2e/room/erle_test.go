//go:build e2e

package room

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The --voice-debug files are WAVs whose header is fixed when the
// recorder closes; while the app runs their samples follow a 44-byte
// header as they are written.
const wavHeader = 44

// readDebug is one --voice-debug file's samples so far, full scale 1.
func readDebug(t testing.TB, dir, name string) []float64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < wavHeader {
		return nil
	}
	data = data[wavHeader:]
	out := make([]float64, len(data)/2)
	for i := range out {
		out[i] = float64(int16(binary.LittleEndian.Uint16(data[2*i:]))) / 32768
	}
	return out
}

// debugSamples is how many samples the recording holds so far.
func debugSamples(t testing.TB, dir string) int {
	return len(readDebug(t, dir, "mic.wav"))
}

// erleSkip is the far end's playing time after which the canceller is
// taken to have converged (its delay found, its filter grown).
const erleSkip = 10 * rate

// erle is the echo return loss enhancement of clean over mic between
// samples from and to: their energy ratio, in dB, over the 20 ms blocks
// where the reference plays (above -50 dBFS), after erleSkip of it. It
// counts the room's noise as echo left, so a loud floor bounds it: the
// -45 dBFS room's noise is 18 dB under the pet's echo at the microphone.
// echo is the same with the noise taken out of both sides, as ERLE is
// meant (the echo's reduction, not the noise's): each stream's power less
// its own noise, measured over the blocks where the reference has been
// silent for echoQuiet (the room's tail has died away). A residual below
// a tenth of the cleaned stream's noise counts as that tenth: past it the
// figure says only that the echo left is under the noise.
func erle(ref, mic, clean []float64, from, to int, skip int) (db, echo, seconds float64) {
	const n = 2 * block
	var em, ec, nm, nc float64
	played, quiet, quietBlocks := 0, 0, 0
	for i := from; i+n <= to && i+n <= len(clean); i += n {
		var r float64
		for _, v := range ref[i : i+n] {
			r += v * v
		}
		if 10*math.Log10(r/n+1e-12) < -50 {
			quiet += n
			if quiet >= echoQuiet {
				nm += power(mic[i : i+n])
				nc += power(clean[i : i+n])
				quietBlocks++
			}
			continue
		}
		quiet = 0
		played += n
		if played <= skip {
			continue
		}
		em += power(mic[i : i+n])
		ec += power(clean[i : i+n])
	}
	seconds = float64(played) / rate
	if ec == 0 {
		return math.NaN(), math.NaN(), seconds
	}
	db = 10 * math.Log10(em/ec)
	if quietBlocks == 0 {
		return db, math.NaN(), seconds
	}
	blocks := float64(played-skip) / n
	nm, nc = nm/float64(quietBlocks)*blocks, nc/float64(quietBlocks)*blocks
	echo = 10 * math.Log10((em-nm)/max(ec-nc, nc/10))
	return db, echo, seconds
}

// echoQuiet is how long the reference must have been silent before a
// block counts as the room's noise alone: the echo's delay and tail.
const echoQuiet = 300 * rate / 1000

// power is the sum of squares of x.
func power(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s
}

// erleFigure is one stretch's ERLE: raw and of the echo (see erle), and
// how much reference it had.
type erleFigure struct{ raw, echo, seconds float64 }

// measureERLE is the canceller's ERLE in the quiet room (the recording
// up to split, after its first 10 s) and in the loud one (after it).
func measureERLE(t testing.TB, dir string, split int) roomERLE {
	ref, mic, clean := readDebug(t, dir, "ref.wav"), readDebug(t, dir, "mic.wav"), readDebug(t, dir, "clean.wav")
	end := min(len(ref), len(mic), len(clean))
	// NaN: the reference never played after the first 10 s (it read as
	// silence while the pet spoke).
	var e roomERLE
	e.quiet.raw, e.quiet.echo, e.quiet.seconds = erle(ref, mic, clean, 0, split, erleSkip)
	e.loud.raw, e.loud.echo, e.loud.seconds = erle(ref, mic, clean, split, end, 0)
	return e
}
