package audio

import (
	"sync"
	"time"

	"yui/transport/clock"
)

// PacedPeriod is how often a Paced output pulls the mix.
const PacedPeriod = 20 * time.Millisecond

// Paced pulls the mix in real time on a clock and hands it to sink (nil
// discards it): the output of a machine with no audio device, so that
// sentences last as long as they sound and --audio-out still records
// them, and the fake output of tests (with clock.Fake).
type Paced struct {
	m     *Mixer
	clk   clock.Clock
	sink  func([]float32)
	start time.Time

	mu     sync.Mutex
	pulled int
	timer  clock.Timer
	closed bool
	buf    []float32
}

// NewPaced starts pulling m every PacedPeriod on c.
func NewPaced(m *Mixer, c clock.Clock, sink func([]float32)) *Paced {
	p := &Paced{m: m, clk: c, sink: sink, start: c.Now()}
	p.mu.Lock()
	p.timer = c.AfterFunc(PacedPeriod, p.tick)
	p.mu.Unlock()
	return p
}

// tick pulls the samples due since the start, then re-arms.
func (p *Paced) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	due := int(p.clk.Now().Sub(p.start) * Rate / time.Second)
	// After a long stall (a suspended laptop) skip ahead rather than
	// race through the backlog.
	if due-p.pulled > Rate {
		p.pulled = due - Rate/10
	}
	for n := due - p.pulled; n > 0; n = due - p.pulled {
		k := min(n, Rate/10)
		if cap(p.buf) < k {
			p.buf = make([]float32, k)
		}
		b := p.buf[:k]
		p.m.Read(b)
		if p.sink != nil {
			p.sink(b)
		}
		p.pulled += k
	}
	p.timer = p.clk.AfterFunc(PacedPeriod, p.tick)
}

// Close stops pulling.
func (p *Paced) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
	}
	return nil
}
