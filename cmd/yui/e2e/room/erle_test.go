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
func readDebug(t *testing.T, dir, name string) []float64 {
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
func debugSamples(t *testing.T, dir string) int {
	return len(readDebug(t, dir, "mic.wav"))
}

// erleSkip is the far end's playing time after which the canceller is
// taken to have converged (its delay found, its filter grown).
const erleSkip = 10 * rate

// erle is the echo return loss enhancement of clean over mic between
// samples from and to: their energy ratio, in dB, over the 20 ms blocks
// where the reference plays (above -50 dBFS), after erleSkip of it. It
// counts the room's noise as echo left, so a loud floor bounds it.
func erle(ref, mic, clean []float64, from, to int, skip int) (db, seconds float64) {
	const n = 2 * block
	var em, ec float64
	played := 0
	for i := from; i+n <= to && i+n <= len(clean); i += n {
		var r float64
		for _, v := range ref[i : i+n] {
			r += v * v
		}
		if 10*math.Log10(r/n+1e-12) < -50 {
			continue
		}
		played += n
		if played <= skip {
			continue
		}
		for j := i; j < i+n; j++ {
			em += mic[j] * mic[j]
			ec += clean[j] * clean[j]
		}
	}
	seconds = float64(played) / rate
	if ec == 0 {
		return math.NaN(), seconds
	}
	return 10 * math.Log10(em/ec), seconds
}

// reportERLE logs the canceller's ERLE in the quiet room (the recording
// up to split) and in the loud one (after it).
func reportERLE(t *testing.T, dir string, split int) {
	ref, mic, clean := readDebug(t, dir, "ref.wav"), readDebug(t, dir, "mic.wav"), readDebug(t, dir, "clean.wav")
	end := min(len(ref), len(mic), len(clean))
	// NaN: the reference never played after the first 10 s (it read as
	// silence while the pet spoke).
	q, qs := erle(ref, mic, clean, 0, split, erleSkip)
	l, ls := erle(ref, mic, clean, split, end, 0)
	t.Logf("ERLE (raw microphone over cleaned, the reference playing): %.1f dB at -65 dBFS after the first 10 s (of %.1f s of reference), %.1f dB at -45 dBFS (%.1f s)", q, qs, l, ls)
}
