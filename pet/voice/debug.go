package voice

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
)

// debugRecorder writes --voice-debug's three WAV files (16 kHz mono):
// mic.wav the raw microphone, ref.wav the far-end reference the canceller
// used, clean.wav what the detector heard. A write that fails closes the
// recorder and logs once; recording is never worth stopping voice input.
type debugRecorder struct {
	files [3]*os.File
	n     int64 // samples written to each
	buf   []byte
	log   *slog.Logger
}

// Names of the --voice-debug files.
var debugNames = [3]string{"mic.wav", "ref.wav", "clean.wav"}

// newDebugRecorder creates the files in dir.
func newDebugRecorder(dir string, log *slog.Logger) (*debugRecorder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("voice debug: %w", err)
	}
	r := &debugRecorder{log: log}
	for i, name := range debugNames {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("voice debug: %w", err)
		}
		r.files[i] = f
		if _, err := f.Write(EncodeWAV(nil, Mono16k)); err != nil {
			r.Close()
			return nil, fmt.Errorf("voice debug: %w", err)
		}
	}
	return r, nil
}

// write appends one block to each file; nil r does nothing.
func (r *debugRecorder) write(mic []int16, ref []float32, clean []int16) {
	if r == nil || r.files[0] == nil {
		return
	}
	var err error
	for i := range r.files {
		if cap(r.buf) < 2*len(mic) {
			r.buf = make([]byte, 2*len(mic))
		}
		b := r.buf[:2*len(mic)]
		for j := range mic {
			var s int16
			switch i {
			case 0:
				s = mic[j]
			case 1:
				s = int16(max(-32768, min(32767, math.Round(float64(ref[j])*32768))))
			default:
				s = clean[j]
			}
			binary.LittleEndian.PutUint16(b[2*j:], uint16(s))
		}
		if _, werr := r.files[i].Write(b); werr != nil {
			err = werr
		}
	}
	r.n += int64(len(mic))
	if err != nil {
		r.log.Warn("voice_debug_failed", "err", err.Error())
		r.Close()
	}
}

// Close fixes the files' headers and closes them.
func (r *debugRecorder) Close() error {
	if r == nil {
		return nil
	}
	var errs []error
	for i, f := range r.files {
		if f == nil {
			continue
		}
		var h [4]byte
		binary.LittleEndian.PutUint32(h[:], uint32(36+2*r.n))
		_, e1 := f.WriteAt(h[:], 4)
		binary.LittleEndian.PutUint32(h[:], uint32(2*r.n))
		_, e2 := f.WriteAt(h[:], 40)
		errs = append(errs, e1, e2, f.Close())
		r.files[i] = nil
	}
	return errors.Join(errs...)
}
