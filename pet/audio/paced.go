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
// them, and the fake output of tests (with clocktest.Fake).
//
// A stream that starts is pulled at once, not at the next period: with
// no device there is no device period to wait for, and a sentence's first
// sample would otherwise come up to PacedPeriod late (issue 37's
// benchmark reads the first sample's time from this output).
type Paced struct {
	m     *Mixer
	clk   clock.Clock
	sink  func([]float32)
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup

	mu     sync.Mutex
	pulled int
	timer  clock.Timer
	closed bool
	buf    []float32
}

// NewPaced starts pulling m every PacedPeriod on c, and at once whenever
// a stream starts.
func NewPaced(m *Mixer, c clock.Clock, sink func([]float32)) *Paced {
	p := &Paced{m: m, clk: c, sink: sink, start: c.Now(), stop: make(chan struct{})}
	p.mu.Lock()
	p.timer = c.AfterFunc(PacedPeriod, p.tick)
	p.mu.Unlock()
	wake := m.wakeChan()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			select {
			case <-p.stop:
				return
			case <-wake:
				p.pull()
			}
		}
	}()
	return p
}

// tick pulls on the period, then re-arms.
func (p *Paced) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.pullDue()
	p.timer = p.clk.AfterFunc(PacedPeriod, p.tick)
}

// pull pulls between two periods, when a stream started; the period's
// timer runs on as it was.
func (p *Paced) pull() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.pullDue()
	}
}

// pullDue hands on the samples due since the start; p.mu is held.
func (p *Paced) pullDue() {
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
}

// Close stops pulling.
func (p *Paced) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.timer.Stop()
	p.mu.Unlock()
	close(p.stop)
	p.wg.Wait()
	return nil
}
