// Package audio is speech output's sound path (docs/product.md §6): a Mixer that
// sums every pet's Player into one mono stream at Rate, the Streams that
// synthesisers fill while a Player reads them, the conversions from an
// engine's PCM or WAV to the mixer's format, the loudness envelope the
// pet's mouth follows, a WAV writer the mix can be teed to, and the two
// outputs that pull the mix: the audio device (through
// github.com/ebitengine/oto/v3, one context per process) and a clock-paced
// pump for machines with no device.
//
// Who calls what: the app makes one Mixer and one output per process and
// one Player per pet; a speech engine makes a Stream per sentence, fills
// it from its synthesiser (Decoder) and hands it to the pet's Player when
// the playback queue starts the sentence; the output calls Mixer.Read.
package audio

import (
	"errors"
	"sync"
)

// Rate is the mixer's sample rate: mono float32 samples, 24 kHz, the rate
// OpenAI-compatible servers send PCM at. Other rates are resampled on the
// way in; the device converts to its own.
const Rate = 24000

// ErrStopped is the error a Stream's reader sees when synthesis was
// abandoned.
var ErrStopped = errors.New("audio: synthesis abandoned")

// Stream is one sentence's audio at Rate, written by a synthesiser while a
// Player reads it: playback starts before synthesis ends. All methods are
// safe for concurrent use.
type Stream struct {
	// Label names the stream in the tee's marks (the sentence); set it
	// before the stream is handed to a player.
	Label string

	mu      sync.Mutex
	buf     []float32 // unread samples are buf[off:]
	off     int
	written int
	closed  bool
	err     error
	// ready is closed at the first Write or at Close: a reader can wait
	// for the first audio.
	ready     chan struct{}
	readyOnce sync.Once
}

// NewStream returns an empty open stream.
func NewStream() *Stream { return &Stream{ready: make(chan struct{})} }

// Write appends samples at Rate. Writes after Close are dropped.
func (s *Stream) Write(samples []float32) {
	if len(samples) == 0 {
		return
	}
	s.mu.Lock()
	if !s.closed {
		if s.off > 0 && s.off >= len(s.buf)/2 {
			n := copy(s.buf, s.buf[s.off:])
			s.buf = s.buf[:n]
			s.off = 0
		}
		s.buf = append(s.buf, samples...)
		s.written += len(samples)
	}
	s.mu.Unlock()
	s.readyOnce.Do(func() { close(s.ready) })
}

// Close ends the stream: err nil means synthesis finished, otherwise the
// sentence failed (what was written still plays first). Only the first
// Close counts.
func (s *Stream) Close(err error) {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		s.err = err
	}
	s.mu.Unlock()
	s.readyOnce.Do(func() { close(s.ready) })
}

// Ready is closed once the stream has its first audio or has ended.
func (s *Stream) Ready() <-chan struct{} { return s.ready }

// Written is how many samples synthesis has written so far.
func (s *Stream) Written() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written
}

// Err is the error the stream was closed with.
func (s *Stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// read moves up to len(dst) samples into dst. end is true once the stream
// is closed and drained; err is its Close error then.
func (s *Stream) read(dst []float32) (n int, end bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n = copy(dst, s.buf[s.off:])
	s.off += n
	if s.off == len(s.buf) {
		s.buf, s.off = s.buf[:0], 0
	}
	if s.closed && s.off == len(s.buf) {
		return n, true, s.err
	}
	return n, false, nil
}

// Closed reports whether the stream has been closed.
func (s *Stream) Closed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Unread returns a copy of the samples not yet played.
func (s *Stream) Unread() []float32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]float32(nil), s.buf[s.off:]...)
}
