package audio

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// WAVWriter writes the mix as a 16-bit mono WAV at Rate. Its header is
// brought up to date every second of audio and on Close, so a file cut
// short by a crash still plays.
type WAVWriter struct {
	f       io.WriteSeeker
	w       *bufio.Writer
	samples int
	synced  int
	buf     []byte
}

// NewWAVWriter writes a WAV header to f and returns the writer.
func NewWAVWriter(f io.WriteSeeker) (*WAVWriter, error) {
	w := &WAVWriter{f: f, w: bufio.NewWriterSize(f, 32<<10)}
	if _, err := w.w.Write(wavHeader(0)); err != nil {
		return nil, fmt.Errorf("audio: writing WAV header: %w", err)
	}
	return w, nil
}

// wavHeader is the 44-byte header of a 16-bit mono PCM WAV at Rate
// holding n samples.
func wavHeader(n int) []byte {
	data := uint32(min(n*2, math.MaxUint32-36))
	h := make([]byte, 44)
	copy(h[0:], "RIFF")
	binary.LittleEndian.PutUint32(h[4:], 36+data)
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], 1) // PCM
	binary.LittleEndian.PutUint16(h[22:], 1) // mono
	binary.LittleEndian.PutUint32(h[24:], Rate)
	binary.LittleEndian.PutUint32(h[28:], Rate*2)
	binary.LittleEndian.PutUint16(h[32:], 2)
	binary.LittleEndian.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], data)
	return h
}

// WriteSamples appends samples (clipped to [-1, 1]).
func (w *WAVWriter) WriteSamples(s []float32) error {
	w.buf = w.buf[:0]
	for _, x := range s {
		v := int16(max(-1, min(1, x)) * 32767)
		w.buf = binary.LittleEndian.AppendUint16(w.buf, uint16(v))
	}
	if _, err := w.w.Write(w.buf); err != nil {
		return fmt.Errorf("audio: writing WAV: %w", err)
	}
	w.samples += len(s)
	if w.samples-w.synced >= Rate {
		return w.sync()
	}
	return nil
}

// sync flushes and rewrites the header's sizes.
func (w *WAVWriter) sync() error {
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("audio: writing WAV: %w", err)
	}
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("audio: WAV header: %w", err)
	}
	if _, err := w.f.Write(wavHeader(w.samples)); err != nil {
		return fmt.Errorf("audio: WAV header: %w", err)
	}
	if _, err := w.f.Seek(0, io.SeekEnd); err != nil {
		return fmt.Errorf("audio: WAV header: %w", err)
	}
	w.synced = w.samples
	return nil
}

// Samples is how many samples were written.
func (w *WAVWriter) Samples() int { return w.samples }

// Close writes what is buffered and the final header; it does not close f.
func (w *WAVWriter) Close() error { return w.sync() }
