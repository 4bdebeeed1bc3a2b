package audio

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Format describes 16-bit little-endian PCM as an engine sends it.
type Format struct {
	Rate     int // samples per second
	Channels int // interleaved; mixed down to mono
}

// ErrNoAudio is Decode's error for a stream that ended before its first byte.
var ErrNoAudio = errors.New("audio: the speech engine gave no audio")

// maxWAVHeader bounds the chunks read before a WAV's data: a stream that
// sends megabytes of metadata is not audio.
const maxWAVHeader = 1 << 16

// Decode reads an engine's audio from r into s until r ends; the caller
// closes s. r is a WAV stream (16-bit PCM, any rate
// and channel count) when it starts with "RIFF", else raw 16-bit
// little-endian PCM in format raw. Samples reach s as they arrive, so a
// player reading s starts before r ends.
func Decode(r io.Reader, raw Format, s *Stream) error {
	br := bufio.NewReaderSize(r, 4096)
	f := raw
	magic, err := br.Peek(4)
	if len(magic) == 0 && errors.Is(err, io.EOF) {
		// A synthesiser that exits without a byte (SAPI with no voice,
		// Wine's PowerShell stub) says nothing a format could explain.
		return ErrNoAudio
	}
	if err == nil && bytes.Equal(magic, []byte("RIFF")) {
		wf, err := readWAVHeader(br)
		if err != nil {
			return err
		}
		f = wf
	} else if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if f.Rate <= 0 || f.Channels <= 0 {
		return fmt.Errorf("audio: bad PCM format %d Hz × %d", f.Rate, f.Channels)
	}
	rs := NewResampler(f.Rate)
	frame := 2 * f.Channels
	buf := make([]byte, 4096/frame*frame)
	var carry int // bytes of a partial frame kept at buf's start
	mono := make([]float32, 0, len(buf)/frame)
	for {
		n, err := br.Read(buf[carry:])
		n += carry
		whole := n / frame * frame
		mono = mono[:0]
		for i := 0; i < whole; i += frame {
			var sum float32
			for c := 0; c < f.Channels; c++ {
				sum += float32(int16(binary.LittleEndian.Uint16(buf[i+2*c:])))
			}
			mono = append(mono, sum/float32(f.Channels)/32768)
		}
		s.Write(rs.Process(mono))
		carry = copy(buf, buf[whole:n])
		if errors.Is(err, io.EOF) {
			s.Write(rs.Flush())
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readWAVHeader reads a RIFF/WAVE header up to the start of the data
// chunk. A streamed WAV's sizes may be placeholders: the data is read to
// the end of the stream.
// minWAVRate is the lowest sample rate a WAV may have.
const minWAVRate = 8000

func readWAVHeader(r *bufio.Reader) (Format, error) {
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return Format{}, fmt.Errorf("audio: WAV header: %w", err)
	}
	if string(hdr[8:12]) != "WAVE" {
		return Format{}, errors.New("audio: RIFF stream is not WAVE")
	}
	var f Format
	read := 12
	for {
		var ch [8]byte
		if _, err := io.ReadFull(r, ch[:]); err != nil {
			return Format{}, fmt.Errorf("audio: WAV chunk: %w", err)
		}
		id, size := string(ch[:4]), int(binary.LittleEndian.Uint32(ch[4:]))
		read += 8
		if id == "data" {
			if f.Rate == 0 {
				return Format{}, errors.New("audio: WAV data before its fmt chunk")
			}
			return f, nil
		}
		if size < 0 || read+size > maxWAVHeader {
			return Format{}, fmt.Errorf("audio: WAV chunk %q too large", id)
		}
		body := make([]byte, size+size%2)
		if _, err := io.ReadFull(r, body); err != nil {
			return Format{}, fmt.Errorf("audio: WAV chunk %q: %w", id, err)
		}
		read += len(body)
		if id != "fmt " {
			continue
		}
		if size < 16 {
			return Format{}, errors.New("audio: WAV fmt chunk too short")
		}
		tag := binary.LittleEndian.Uint16(body[0:])
		chans := int(binary.LittleEndian.Uint16(body[2:]))
		rate := int(binary.LittleEndian.Uint32(body[4:]))
		bits := binary.LittleEndian.Uint16(body[14:])
		if tag == 0xFFFE && size >= 26 { // WAVE_FORMAT_EXTENSIBLE: the sub-format's tag
			tag = binary.LittleEndian.Uint16(body[24:])
		}
		if tag != 1 || bits != 16 {
			return Format{}, fmt.Errorf("audio: WAV format %d with %d bits: only 16-bit PCM is read", tag, bits)
		}
		// Speech comes at 8 kHz or more: a lower rate would be
		// upsampled many times over, a few bytes growing into seconds.
		if chans < 1 || chans > 8 || rate < minWAVRate || rate > 384000 {
			return Format{}, fmt.Errorf("audio: WAV of %d channels at %d Hz", chans, rate)
		}
		f = Format{Rate: rate, Channels: chans}
	}
}

// Resampler converts a mono stream from one rate to Rate by linear
// interpolation, block by block: good enough for speech, and it keeps no
// more than one sample of state.
type Resampler struct {
	from int
	step float64 // input samples per output sample
	pos  float64 // position of the next output sample, relative to prev
	prev float32
	have bool
	out  []float32
}

// NewResampler returns a resampler from rate from to Rate.
func NewResampler(from int) *Resampler {
	return &Resampler{from: from, step: float64(from) / Rate}
}

// Process resamples the next block; the result is valid until the next call.
func (r *Resampler) Process(in []float32) []float32 {
	if r.from == Rate {
		return in
	}
	r.out = r.out[:0]
	for _, x := range in {
		if !r.have {
			r.prev, r.have = x, true
			continue
		}
		// Output samples between prev (at 0) and x (at 1).
		for r.pos < 1 {
			r.out = append(r.out, r.prev+(x-r.prev)*float32(r.pos))
			r.pos += r.step
		}
		r.pos--
		r.prev = x
	}
	return r.out
}

// Flush returns the samples still owed at the end of the stream.
func (r *Resampler) Flush() []float32 {
	if r.from == Rate || !r.have {
		return nil
	}
	r.out = r.out[:0]
	for r.pos < 1 {
		r.out = append(r.out, r.prev)
		r.pos += r.step
	}
	r.have = false
	return r.out
}
