package playback

import (
	"context"
	"encoding/binary"
	"io"
	"math"
	"sync"
	"testing"
	"time"

	"yui/pet/audio"
	"yui/pet/speech"
	"yui/transport"
)

// readySynth answers every sentence at once with a second of loud PCM:
// the engine's own time is nil, so what the benchmarks measure is the
// client's.
type readySynth struct{ pcm []byte }

func newReadySynth() *readySynth {
	var b []byte
	for i := range audio.Rate {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(12000*math.Sin(float64(i)*0.1))))
	}
	return &readySynth{pcm: b}
}

func (s *readySynth) Name() string { return "ready" }

func (s *readySynth) Open(ctx context.Context, text string) (io.ReadCloser, audio.Format, error) {
	return io.NopCloser(&ctxReader{ctx: ctx, b: s.pcm}), audio.Format{Rate: audio.Rate, Channels: 1}, nil
}

type ctxReader struct {
	ctx context.Context
	b   []byte
}

func (r *ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// device stands in for the audio device: it pulls the mix in blocks of
// audio.PlayerBuffer at real-time pace, as oto does, and notes when the
// first loud sample and the last loud sample went out.
type device struct {
	m     *audio.Mixer
	stop  chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	first time.Time // first non-zero sample since reset
	loud  int       // non-zero samples since reset
}

func startDevice(m *audio.Mixer) *device {
	d := &device{m: m, stop: make(chan struct{})}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		buf := make([]float32, int(audio.PlayerBuffer*audio.Rate/time.Second))
		tick := time.NewTicker(audio.PlayerBuffer)
		defer tick.Stop()
		for {
			select {
			case <-d.stop:
				return
			case <-tick.C:
			}
			m.Read(buf)
			d.mu.Lock()
			for _, x := range buf {
				if x != 0 {
					if d.first.IsZero() {
						d.first = time.Now()
					}
					d.loud++
				}
			}
			d.mu.Unlock()
		}
	}()
	return d
}

func (d *device) reset() {
	d.mu.Lock()
	d.first, d.loud = time.Time{}, 0
	d.mu.Unlock()
}

func (d *device) state() (time.Time, int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.first, d.loud
}

func (d *device) close() { close(d.stop); d.wg.Wait() }

func speechEvent(turn string) *transport.RenderEvent {
	return &transport.RenderEvent{Kind: transport.KindRender, TurnID: turn,
		Segments: []transport.Segment{{Speech: "One sentence to speak."}}}
}

// BenchmarkSegmentToFirstSample measures, with an engine that answers at
// once, the time from a segment reaching the queue to its first sample
// handed to the audio output (goal: under 20 ms). The output pulls a
// block every audio.PlayerBuffer, so up to one block of the figure is the
// output's own pace.
func BenchmarkSegmentToFirstSample(b *testing.B) {
	m := audio.NewMixer()
	p := m.NewPlayer()
	e := speech.NewAudio(newReadySynth(), p)
	defer e.Close()
	q := New(Options{Engine: e})
	defer q.Close()
	d := startDevice(m)
	defer d.close()
	var total, worst time.Duration
	for i := 0; i < b.N; i++ {
		q.Interrupt()
		d.reset()
		start := time.Now()
		q.Render(speechEvent("t"))
		for {
			first, _ := d.state()
			if !first.IsZero() {
				lat := first.Sub(start)
				total += lat
				worst = max(worst, lat)
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms-to-first-sample")
	b.ReportMetric(float64(worst.Microseconds())/1000, "ms-worst")
}

// BenchmarkAudioAfterStop measures how much audio plays after a stop:
// what the mixer still hands out once Interrupt has returned, plus the
// device and player buffers it cannot take back (goal: at most 50 ms).
func BenchmarkAudioAfterStop(b *testing.B) {
	m := audio.NewMixer()
	p := m.NewPlayer()
	e := speech.NewAudio(newReadySynth(), p)
	defer e.Close()
	q := New(Options{Engine: e})
	defer q.Close()
	d := startDevice(m)
	defer d.close()
	var after, worst int
	for i := 0; i < b.N; i++ {
		q.Render(speechEvent("t"))
		for {
			if _, loud := d.state(); loud > audio.Rate/20 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		q.Interrupt()
		_, at := d.state()
		time.Sleep(3 * audio.PlayerBuffer)
		_, end := d.state()
		after += end - at
		worst = max(worst, end-at)
		d.reset()
	}
	buffered := float64((audio.DeviceBuffer + audio.PlayerBuffer).Milliseconds())
	b.ReportMetric(float64(after)/float64(b.N)/audio.Rate*1000, "client-ms-after-stop")
	b.ReportMetric(float64(worst)/audio.Rate*1000+buffered, "worst-ms-audible-after-stop")
}
