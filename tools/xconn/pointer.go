//go:build (linux || freebsd || openbsd || netbsd) && !android

package xconn

import (
	"image"
	"sync"
	"time"
)

// pointerPoller is the one goroutine that asks X where the pointer is
// (QueryPointer, a round trip) for every watcher: the pets' eyes. It
// runs only while someone watches.
type pointerPoller struct {
	c *Conn

	mu     sync.Mutex
	subs   map[int]func(image.Point, bool)
	next   int
	stop   chan struct{} // ends the running poller; nil when none runs
	done   chan struct{} // closed when it has ended
	closed bool
}

func (p *pointerPoller) watch(every time.Duration, f func(image.Point, bool)) func() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return func() {}
	}
	if p.subs == nil {
		p.subs = map[int]func(image.Point, bool){}
	}
	id := p.next
	p.next++
	p.subs[id] = f
	if p.stop == nil {
		p.stop, p.done = make(chan struct{}), make(chan struct{})
		go p.run(every, p.stop, p.done)
	}
	var once sync.Once
	return func() { once.Do(func() { p.unwatch(id) }) }
}

// unwatch drops a watcher and stops the poller when it was the last. It
// does not wait for the poller: a watcher may stop from inside f.
func (p *pointerPoller) unwatch(id int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.subs, id)
	if len(p.subs) == 0 && p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
}

func (p *pointerPoller) run(every time.Duration, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	pace := pointerPace{every: every}
	t := time.NewTimer(every)
	defer t.Stop()
	var last image.Point
	var lastErr error
	for first := true; ; first = false {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		pt, err := p.c.Pointer()
		moved := first || pt != last || (err == nil) != (lastErr == nil)
		last, lastErr = pt, err
		t.Reset(pace.next(moved))
		p.mu.Lock()
		subs := make([]func(image.Point, bool), 0, len(p.subs))
		for _, f := range p.subs {
			subs = append(subs, f)
		}
		p.mu.Unlock()
		for _, f := range subs {
			f(pt, err == nil)
		}
	}
}

// Pointer pace: after stillPolls readings of a pointer that has not
// moved, the poller reads it slowEvery times less often.
const (
	stillPolls = 7
	slowEvery  = 3
)

// pointerPace is the poller's period. Each reading is a round trip that
// wakes four goroutines (xgb's sender, its sequence numbers and its
// reader, and the poller), and a pointer the user left alone needs no
// look seven times a second: an idle pet would wake for nothing.
// With every at 150 ms: while the pointer moves, a reading every 150 ms;
// once it has stood still for seven readings (about a second), one every
// 450 ms; the first reading that sees it move again goes back to 150 ms.
// The eyes start to follow a pointer at most 450 ms after it starts.
type pointerPace struct {
	every time.Duration
	still int // readings in a row that saw no move
}

// next takes whether the last reading saw the pointer move (or its
// reading fail or come back) and returns the wait before the next one.
func (p *pointerPace) next(moved bool) time.Duration {
	if moved {
		p.still = 0
		return p.every
	}
	if p.still < stillPolls {
		p.still++
	}
	if p.still >= stillPolls {
		return slowEvery * p.every
	}
	return p.every
}

// close stops the poller for good and waits for it.
func (p *pointerPoller) close() {
	p.mu.Lock()
	p.closed = true
	p.subs = nil
	stop, done := p.stop, p.done
	p.stop = nil
	p.mu.Unlock()
	if stop != nil {
		close(stop)
	}
	if done != nil {
		<-done
	}
}
