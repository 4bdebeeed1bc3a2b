// Package localservertest has fakes of the local speech and transcription
// servers Yui finds and speaks to (docs/voices.md), each written from the
// server's own code (the version its Source names): every request Yui
// sends is answered with the status, headers, body and audio format that
// code gives, errors included, and every other path as that server's
// framework answers it. Servers (table.go) lists them, one row per server
// and version; the e2e tests bind them on the engines' real ports; the app
// never links this package.
package localservertest

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// ToneHz is the pitch of every fake's speech: a test listening to the
// app's --audio-out finds it there.
const ToneHz = 300

// Tone is n samples of 16-bit mono PCM at rate: a ToneHz sine at half
// scale, little-endian.
func Tone(rate, n int) []byte {
	b := make([]byte, 0, 2*n)
	for i := range n {
		v := int16(16000 * math.Sin(float64(i)*2*math.Pi*ToneHz/float64(rate)))
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

// WAVHeader is the 44-byte header of a 16-bit mono WAV at rate whose data
// is size bytes; a streamed WAV gives 0, as GPT-SoVITS does.
func WAVHeader(rate int, size uint32) []byte {
	h := make([]byte, 44)
	copy(h, "RIFF")
	binary.LittleEndian.PutUint32(h[4:], 36+size)
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], 1)
	binary.LittleEndian.PutUint16(h[22:], 1)
	binary.LittleEndian.PutUint32(h[24:], uint32(rate))
	binary.LittleEndian.PutUint32(h[28:], uint32(rate*2))
	binary.LittleEndian.PutUint16(h[32:], 2)
	binary.LittleEndian.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], size)
	return h
}

// Hold makes a streaming fake send its first chunk at once and the rest
// only once Release is called (or the request ends), so a test can see
// playback start before the answer has ended. The zero value holds
// nothing.
type Hold struct {
	mu      sync.Mutex
	release chan struct{}
}

// Hold arms it: answers from now wait for Release after their first chunk.
func (h *Hold) Hold() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.release = make(chan struct{})
}

// Release lets every held answer finish.
func (h *Hold) Release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.release != nil {
		close(h.release)
		h.release = nil
	}
}

// wait blocks until Release or the request's end when armed.
func (h *Hold) wait(r *http.Request) {
	h.mu.Lock()
	c := h.release
	h.mu.Unlock()
	if c == nil {
		return
	}
	select {
	case <-c:
	case <-r.Context().Done():
	}
}

// Requests keeps what a fake was asked, safe for the test to read.
type Requests struct {
	mu   sync.Mutex
	list []map[string]string
}

func (q *Requests) add(m map[string]string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.list = append(q.list, m)
}

// All returns a copy of the requests so far.
func (q *Requests) All() []map[string]string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]map[string]string(nil), q.list...)
}

// stringFields reads a JSON object's string and boolean fields as text.
func stringFields(body io.Reader) map[string]string {
	var raw map[string]any
	json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&raw)
	out := map[string]string{}
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			out[k] = v
		case bool, float64:
			b, _ := json.Marshal(v)
			out[k] = string(b)
		}
	}
	return out
}

func jsonList(l []string) string {
	b, _ := json.Marshal(l)
	return string(b)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Timing is when a fake got a request and when it wrote the first byte
// of its answer (its first audio chunk, or its whole text answer).
type Timing struct {
	Text              string // what it was asked to say, or heard
	Arrived, Answered time.Time
	// Cancelled: the client gave up before the answer (Answered is then
	// when the fake saw it).
	Cancelled bool
}

// Timings keeps each request's Timing, safe for the test to read.
type Timings struct {
	mu   sync.Mutex
	list []Timing
}

func (q *Timings) add(t Timing) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.list = append(q.list, t)
}

// All returns a copy of the timings so far.
func (q *Timings) All() []Timing {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]Timing(nil), q.list...)
}

// sleep waits d or until the request ends.
func sleep(r *http.Request, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
	}
}

// Pitch is the frequency of a tone in samples at rate, from its rising
// zero crossings between the first and the last (0 when there are fewer
// than two): how a test hears whether ToneHz came out as ToneHz.
func Pitch(samples []float32, rate int) float64 {
	first, last, n := -1, -1, 0
	for i := 1; i < len(samples); i++ {
		if samples[i-1] < 0 && samples[i] >= 0 {
			if first < 0 {
				first = i
			}
			last = i
			n++
		}
	}
	if n < 2 || rate <= 0 {
		return 0
	}
	return float64(n-1) * float64(rate) / float64(last-first)
}
