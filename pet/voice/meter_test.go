package voice

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"yui/pet/voice/room"
	"yui/transport/clock"
)

// fixedCapture plays its blocks once and returns.
type fixedCapture [][]int16

func (c fixedCapture) Start(ctx context.Context, _ Format, onFrame func([]int16)) error {
	for _, b := range c {
		onFrame(b)
	}
	return nil
}

func tone(n int, amp float64) []int16 {
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(amp * 32767 * math.Sin(float64(i)*2*math.Pi*440/16000))
	}
	return out
}

// TestMeterFollowsTheLevel: quiet audio reads low, a loud tone reads high,
// and the threshold sits the configured dB over the floor.
func TestMeterFollowsTheLevel(t *testing.T) {
	var blocks fixedCapture
	for range 20 { // 2 s of near silence, in odd-sized blocks
		blocks = append(blocks, tone(1597, 0.001))
	}
	blocks = append(blocks, tone(16000, 0.5)) // 1 s of a loud tone
	var got []Reading
	if err := Meter(context.Background(), blocks, MeterOptions{VAD: VADConfig{Threshold: 12}}, func(r Reading) { got = append(got, r) }); err != nil {
		t.Fatal(err)
	}
	if len(got) < 25 {
		t.Fatalf("%d readings for 3 s of audio", len(got))
	}
	first, last := got[5], got[len(got)-1]
	if first.Level > -50 || last.Level < -12 {
		t.Fatalf("levels quiet %.1f, loud %.1f dBFS", first.Level, last.Level)
	}
	if d := first.Threshold - first.Floor; math.Abs(d-12) > 1e-9 {
		t.Fatalf("threshold %.1f dB over the floor, want 12", d)
	}
}

// meterRoom is the pet talking in issue 35's room, as a microphone
// capture and the far end it cleans against, on one sample clock.
type meterRoom struct {
	far, mic []float64
	t0       time.Time
	mu       sync.Mutex
	pos      int
}

func (m *meterRoom) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t0.Add(time.Duration(m.pos) * time.Second / rate)
}

func (*meterRoom) AfterFunc(time.Duration, func()) clock.Timer { panic("not used") }

func (m *meterRoom) Played(dst []float32, end time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	playedFrom(dst, m.far, m.t0, end, m.pos)
}

func (m *meterRoom) Start(ctx context.Context, _ Format, onFrame func([]int16)) error {
	n := FrameSamples(rate)
	pcm := make([]int16, n)
	for p := 0; p+n <= len(m.mic); p += n {
		m.mu.Lock()
		m.pos = p + n
		m.mu.Unlock()
		room.ToInt16(pcm, m.mic[p:p+n])
		onFrame(pcm)
	}
	return nil
}

// With the echo canceller on, the Voice tab's meter shows the microphone
// as the detector hears it: the pet talking over the speakers reads 20 dB
// or more under what the raw microphone shows, once the canceller has
// heard the room (issue 35: the meter shows the cleaned signal).
func TestMeterShowsTheCleanedSignal(t *testing.T) {
	reply := toFloat(scale(loadSpeech(t, "speech-female.wav"), -20))
	var far []float64
	for len(far) < 12*rate {
		far = append(far, reply...)
	}
	rm := room.Issue35()
	rm.NoiseDB = -65
	mic := make([]float64, len(far))
	rm.Start().Process(far, mic)
	level := func(o MeterOptions) float64 {
		m := &meterRoom{far: far, mic: mic, t0: time.Unix(0, 0)}
		if o.FarEnd != nil {
			o.FarEnd, o.Clock = m, m
		}
		var sum float64
		n := 0
		err := Meter(context.Background(), m, o, func(r Reading) {
			if m.Now().Sub(m.t0) > 8*time.Second { // the last 4 s
				sum += math.Pow(10, r.Level/10)
				n++
			}
		})
		if err != nil || n == 0 {
			t.Fatalf("meter: %v, %d readings", err, n)
		}
		return 10 * math.Log10(sum/float64(n))
	}
	raw := level(MeterOptions{})
	cleaned := level(MeterOptions{FarEnd: &meterRoom{}})
	t.Logf("the pet over the speakers: %.1f dBFS on the raw microphone, %.1f dBFS cleaned", raw, cleaned)
	if raw-cleaned < 20 {
		t.Fatalf("the cleaned meter reads only %.1f dB under the raw one", raw-cleaned)
	}
}
