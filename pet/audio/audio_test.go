package audio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"yui/transport/clock/clocktest"
)

// tone is n samples of a sine at amplitude a.
func tone(n int, a float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = a * float32(math.Sin(float64(i)*2*math.Pi*440/Rate))
	}
	return s
}

func rms(s []float32) float64 {
	var sum float64
	for _, x := range s {
		sum += float64(x) * float64(x)
	}
	return math.Sqrt(sum / float64(max(1, len(s))))
}

func waitDone(t *testing.T, c <-chan error) error {
	t.Helper()
	return recvWithin(t, c, "done was not called")
}

// recvWithin returns the next value on c; the test fails with what when
// none comes within 5 s.
func recvWithin[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal(what)
		var zero T
		return zero
	}
}

func TestPlayerPlaysStreamToItsEndThenReportsDone(t *testing.T) {
	m := NewMixer()
	p := m.NewPlayer()
	s := NewStream()
	s.Write(tone(1000, 0.5))
	done := make(chan error, 1)
	p.Start(s, func(err error) { done <- err })

	out := make([]float32, 600)
	m.Read(out)
	if rms(out) < 0.3 {
		t.Fatalf("first block rms %.3f: the stream did not play", rms(out))
	}
	m.Read(out) // 400 left, the stream still open: the rest is silence
	if rms(out[400:]) != 0 {
		t.Fatal("an open stream with no more audio did not play silence")
	}
	select {
	case <-done:
		t.Fatal("done before the stream was closed")
	default:
	}
	s.Close(nil)
	m.Read(out)
	if err := waitDone(t, done); err != nil {
		t.Fatalf("done(%v)", err)
	}
	if p.Playing() {
		t.Fatal("the player still plays after the end")
	}
}

func TestStopSilencesAtOnceAndSkipsDone(t *testing.T) {
	m := NewMixer()
	p := m.NewPlayer()
	s := NewStream()
	s.Write(tone(Rate, 0.5))
	s.Close(nil)
	called := make(chan error, 1)
	stop := p.Start(s, func(err error) { called <- err })
	out := make([]float32, 240)
	m.Read(out)
	stop()
	m.Read(out)
	if rms(out) != 0 {
		t.Fatal("audio after stop")
	}
	select {
	case <-called:
		t.Fatal("done called after stop")
	case <-time.After(50 * time.Millisecond):
	}
}

func TestStreamErrorEndsWithTheErrorAfterWhatWasWritten(t *testing.T) {
	m := NewMixer()
	p := m.NewPlayer()
	s := NewStream()
	s.Write(tone(100, 0.5))
	boom := errors.New("boom")
	s.Close(boom)
	done := make(chan error, 1)
	p.Start(s, func(err error) { done <- err })
	out := make([]float32, 200)
	m.Read(out)
	if err := waitDone(t, done); !errors.Is(err, boom) {
		t.Fatalf("done(%v), want boom", err)
	}
}

func TestMixerFailEndsPlayingClipsAndLaterOnes(t *testing.T) {
	m := NewMixer()
	p := m.NewPlayer()
	s := NewStream()
	done := make(chan error, 2)
	p.Start(s, func(err error) { done <- err })
	gone := errors.New("device gone")
	m.Fail(gone)
	if err := waitDone(t, done); !errors.Is(err, gone) {
		t.Fatalf("playing clip ended with %v", err)
	}
	p.Start(NewStream(), func(err error) { done <- err })
	if err := waitDone(t, done); !errors.Is(err, gone) {
		t.Fatalf("later clip ended with %v", err)
	}
}

func TestVolumeAndMixingClip(t *testing.T) {
	m := NewMixer()
	a, b := m.NewPlayer(), m.NewPlayer()
	a.SetVolume(0.5)
	sa, sb := NewStream(), NewStream()
	ones := make([]float32, 10)
	for i := range ones {
		ones[i] = 0.8
	}
	sa.Write(ones)
	sb.Write(ones)
	a.Start(sa, func(error) {})
	b.Start(sb, func(error) {})
	out := make([]float32, 10)
	m.Read(out)
	if out[0] != 1 { // 0.4 + 0.8 clipped
		t.Fatalf("mix = %v, want 1 (clipped)", out[0])
	}
	sb2 := NewStream()
	sb2.Write(ones)
	b.Start(sb2, func(error) {})
	b.SetVolume(0)
	sa.Write(ones)
	m.Read(out)
	if math.Abs(float64(out[0])-0.4) > 1e-6 {
		t.Fatalf("mix = %v, want 0.4", out[0])
	}
}

func TestTeeGetsTheMixOnlyWhilePlaying(t *testing.T) {
	m := NewMixer()
	p := m.NewPlayer()
	var buf seekBuffer
	w, err := NewWAVWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	m.SetTee(w)
	out := make([]float32, 480)
	m.Read(out) // idle: not written
	s := NewStream()
	s.Write(tone(960, 0.5))
	s.Close(nil)
	done := make(chan error, 1)
	p.Start(s, func(err error) { done <- err })
	for range 3 {
		m.Read(out)
	}
	waitDone(t, done)
	m.Read(out) // idle again
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Samples() != 960 {
		t.Fatalf("WAV holds %d samples, want the 960 played", w.Samples())
	}
	// The file reads back as what was played.
	back := NewStream()
	if err := Decode(bytes.NewReader(buf.b), Format{}, back); err != nil {
		t.Fatal(err)
	}
	if back.Written() != 960 {
		t.Fatalf("decoded %d samples", back.Written())
	}
	hdr := buf.b[:44]
	if string(hdr[:4]) != "RIFF" || binary.LittleEndian.Uint32(hdr[40:]) != 960*2 || binary.LittleEndian.Uint32(hdr[24:]) != Rate {
		t.Fatalf("bad header % x", hdr)
	}
}

// seekBuffer is an in-memory io.WriteSeeker.
type seekBuffer struct {
	b   []byte
	pos int
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	if need := s.pos + len(p); need > len(s.b) {
		s.b = append(s.b, make([]byte, need-len(s.b))...)
	}
	copy(s.b[s.pos:], p)
	s.pos += len(p)
	return len(p), nil
}

func (s *seekBuffer) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		s.pos = int(off)
	case io.SeekEnd:
		s.pos = len(s.b) + int(off)
	default:
		s.pos += int(off)
	}
	return int64(s.pos), nil
}

func pcm16(s []float32) []byte {
	var b []byte
	for _, x := range s {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(x*32767)))
	}
	return b
}

// wav builds a 16-bit WAV of s at rate with channels copies of each sample.
func wav(s []float32, rate, channels int, streamed bool) []byte {
	var data []byte
	for _, x := range s {
		for range channels {
			data = binary.LittleEndian.AppendUint16(data, uint16(int16(x*32767)))
		}
	}
	size := uint32(len(data))
	if streamed {
		size = 0xFFFFFFFF // espeak-ng and servers stream with a placeholder
	}
	var h []byte
	h = append(h, "RIFF"...)
	h = binary.LittleEndian.AppendUint32(h, size)
	h = append(h, "WAVEfmt "...)
	h = binary.LittleEndian.AppendUint32(h, 16)
	h = binary.LittleEndian.AppendUint16(h, 1)
	h = binary.LittleEndian.AppendUint16(h, uint16(channels))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate*channels*2))
	h = binary.LittleEndian.AppendUint16(h, uint16(channels*2))
	h = binary.LittleEndian.AppendUint16(h, 16)
	h = append(h, "LIST"...) // a chunk to skip
	h = binary.LittleEndian.AppendUint32(h, 3)
	h = append(h, 1, 2, 3, 0)
	h = append(h, "data"...)
	h = binary.LittleEndian.AppendUint32(h, size)
	return append(h, data...)
}

func TestDecodeResamplesWAVAndRawToTheMixerRate(t *testing.T) {
	src := tone(22050, 0.5) // one second at 22.05 kHz
	for _, tt := range []struct {
		name string
		in   []byte
		raw  Format
	}{
		{"wav 22050 mono streamed", wav(src, 22050, 1, true), Format{}},
		{"wav 22050 stereo", wav(src, 22050, 2, false), Format{}},
		{"raw 22050", pcm16(src), Format{Rate: 22050, Channels: 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStream()
			// One byte at a time: frames split across reads.
			if err := Decode(iotestOneByte{bytes.NewReader(tt.in)}, tt.raw, s); err != nil {
				t.Fatal(err)
			}
			if n := s.Written(); n < Rate-2 || n > Rate+2 {
				t.Fatalf("one second decoded to %d samples, want %d", n, Rate)
			}
			out := make([]float32, Rate)
			s.read(out)
			if r := rms(out); math.Abs(r-0.5/math.Sqrt2) > 0.01 {
				t.Fatalf("rms %.3f, want %.3f", r, 0.5/math.Sqrt2)
			}
		})
	}
}

type iotestOneByte struct{ r io.Reader }

func (o iotestOneByte) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return o.r.Read(p[:1])
}

func TestDecodeRefusesWhatIsNot16BitPCM(t *testing.T) {
	b := wav(tone(10, 0.5), 22050, 1, false)
	binary.LittleEndian.PutUint16(b[34:], 8) // bits per sample
	if err := Decode(bytes.NewReader(b), Format{}, NewStream()); err == nil {
		t.Fatal("an 8-bit WAV decoded")
	}
	if err := Decode(bytes.NewReader([]byte("RIFF\x00\x00\x00\x00JUNK")), Format{}, NewStream()); err == nil {
		t.Fatal("a RIFF that is not WAVE decoded")
	}
	if err := Decode(bytes.NewReader(pcm16(tone(10, 0.5))), Format{}, NewStream()); err == nil {
		t.Fatal("raw PCM with no format decoded")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(wav(tone(100, 0.5), 22050, 1, true))
	f.Add(wav(tone(100, 0.5), 48000, 2, false))
	f.Add([]byte("RIFF\xff\xff\xff\xffWAVEdata\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := NewStream()
		_ = Decode(bytes.NewReader(b), Format{Rate: 16000, Channels: 1}, s)
		if s.Written() > 4*len(b)+16 {
			t.Fatalf("%d bytes decoded to %d samples", len(b), s.Written())
		}
	})
}

func TestPacedPullsInRealTimeOnTheClock(t *testing.T) {
	c := clocktest.NewFake(time.Unix(0, 0))
	m := NewMixer()
	p := m.NewPlayer()
	// The sink runs on the clock's goroutine or on the output's own (a
	// stream starting is pulled at once).
	var pulled, loud atomic.Int64
	out := NewPaced(m, c, func(b []float32) {
		pulled.Add(int64(len(b)))
		for _, x := range b {
			if x != 0 {
				loud.Add(1)
			}
		}
	})
	defer out.Close()
	s := NewStream()
	s.Write(tone(Rate/2, 0.5)) // half a second
	s.Close(nil)
	done := make(chan error, 1)
	p.Start(s, func(err error) { done <- err })
	for range 20 { // 400 ms
		c.Advance(PacedPeriod)
	}
	if n := pulled.Load(); n != Rate*4/10 {
		t.Fatalf("pulled %d samples in 400 ms, want %d", n, Rate*4/10)
	}
	select {
	case <-done:
		t.Fatal("half a second of audio ended within 400 ms")
	default:
	}
	for range 6 {
		c.Advance(PacedPeriod)
	}
	if err := waitDone(t, done); err != nil {
		t.Fatal(err)
	}
	if n := loud.Load(); n < Rate/2-100 {
		t.Fatalf("%d loud samples of %d", n, Rate/2)
	}
}

func TestEnvelopeFollowsLoudness(t *testing.T) {
	m := NewMixer()
	p := m.NewPlayer()
	s := NewStream()
	block := Rate / 50                // 20 ms
	s.Write(make([]float32, block))   // silence
	s.Write(tone(block, 0.5))         // loud
	s.Write(tone(block, 0.02))        // quiet
	s.Write(make([]float32, 5*block)) // a pause
	p.Start(s, func(error) {})
	out := make([]float32, block)
	var levels []float64
	for range 8 {
		m.Read(out)
		l, playing := p.Level()
		if !playing {
			t.Fatal("not playing")
		}
		levels = append(levels, l)
	}
	if levels[0] != 0 || levels[1] < 0.9 || levels[2] >= levels[1] || levels[7] > 0.05 {
		t.Fatalf("levels %.2f: want 0, loud, falling, closed", levels)
	}
	if LevelOf(0) != 0 || LevelOf(1) != 1 {
		t.Fatal("LevelOf bounds")
	}
}

func TestWAVWriterFileIsReadableWhileWritten(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out.wav"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := NewWAVWriter(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteSamples(tone(Rate+10, 0.5)); err != nil {
		t.Fatal(err)
	}
	// Synced after a second: a crash now leaves a valid file.
	b, _ := os.ReadFile(f.Name())
	if got := binary.LittleEndian.Uint32(b[40:]); got != (Rate+10)*2 {
		t.Fatalf("data size %d before Close", got)
	}
}

func TestMarksSayWhereEachStreamStartsInTheTee(t *testing.T) {
	m := NewMixer()
	p := m.NewPlayer()
	var buf seekBuffer
	w, _ := NewWAVWriter(&buf)
	m.SetTee(w)
	var marks []Mark
	m.SetMarks(func(mk Mark) { marks = append(marks, mk) })
	out := make([]float32, 100)
	for i, label := range []string{"one", "two"} {
		s := NewStream()
		s.Label = label
		if i == 1 {
			s.Write(nil) // nothing yet: synthesis lags, silence is written first
		}
		done := make(chan error, 1)
		p.Start(s, func(err error) { done <- err })
		if i == 1 {
			m.Read(out)
		}
		s.Write(tone(150, 0.5))
		s.Close(nil)
		m.Read(out)
		m.Read(out)
		waitDone(t, done)
	}
	want := []Mark{{"one", 0}, {"two", 300}}
	if len(marks) != 2 || marks[0] != want[0] || marks[1] != want[1] {
		t.Fatalf("marks %v, want %v", marks, want)
	}
}

// An engine that gives nothing at all is told apart from a bad format.
func TestDecodeEmptyStream(t *testing.T) {
	s := NewStream()
	defer s.Close(nil)
	if err := Decode(bytes.NewReader(nil), Format{}, s); !errors.Is(err, ErrNoAudio) {
		t.Fatalf("Decode of an empty stream = %v, want ErrNoAudio", err)
	}
}

// A stream that starts between two periods is pulled at once, and so is
// its first speech when it comes after the start: with no device there
// is no period to wait for.
func TestPacedPullsAStreamAsItStarts(t *testing.T) {
	for _, late := range []bool{false, true} {
		c := clocktest.NewFake(time.Unix(0, 0))
		m := NewMixer()
		p := m.NewPlayer()
		loud := make(chan int, 64)
		out := NewPaced(m, c, func(b []float32) {
			n := 0
			for _, x := range b {
				if x != 0 {
					n++
				}
			}
			loud <- n
		})
		c.Advance(PacedPeriod / 2)
		s := NewStream()
		if !late {
			s.Write(tone(Rate/10, 0.5))
		}
		p.Start(s, func(error) {})
		if late {
			// The start's own pull, on silence; the speech comes 5 ms on.
			if n := <-loud; n != 0 {
				t.Fatalf("%d loud samples before any speech", n)
			}
			c.Advance(PacedPeriod / 4)
			s.Write(tone(Rate/10, 0.5))
		}
		s.Close(nil)
		deadline := time.After(5 * time.Second)
	wait:
		for {
			select {
			case n := <-loud:
				if n > 0 {
					break wait
				}
			case <-deadline:
				t.Fatalf("speech written late=%v waited for the next period", late)
			}
		}
		out.Close()
	}
}

// TestHoldPausesEveryPlayerWhereItIs: a held mixer hands out silence,
// moves no stream on and ends none; released, the streams go on from
// where they paused. A release called twice releases once.
func TestHoldPausesEveryPlayerWhereItIs(t *testing.T) {
	m := NewMixer()
	ref := NewReference(nil)
	m.SetReference(ref)
	p := m.NewPlayer()
	s := NewStream()
	s.Write(tone(1000, 0.5))
	s.Close(nil)
	done := make(chan error, 1)
	p.Start(s, func(err error) { done <- err })

	out := make([]float32, 400)
	m.Read(out)
	handed := p.Handed()
	release := ref.Hold()
	inner := m.Hold()
	for range 3 {
		m.Read(out)
		if rms(out) != 0 {
			t.Fatal("a held mixer played")
		}
	}
	if p.Handed() != handed || !p.Playing() {
		t.Fatalf("held: %d samples handed (want %d), playing %v", p.Handed(), handed, p.Playing())
	}
	release()
	release() // once only: the second hold still stands
	m.Read(out)
	if rms(out) != 0 {
		t.Fatal("the mixer played with a hold still on")
	}
	inner()
	m.Read(out)
	if rms(out) < 0.3 || p.Handed() != handed+len(out) {
		t.Fatalf("released: rms %.3f, %d samples handed: the stream did not go on where it paused", rms(out), p.Handed())
	}
	m.Read(out)
	if err := waitDone(t, done); err != nil {
		t.Fatalf("done(%v)", err)
	}
}
