package windows

import (
	"sync"
	"time"
)

// animator ticks the pet's animation at the current motion's frame rate.
// It owns one goroutine, which sleeps while nothing animates (rate 0), so
// a still pet costs no CPU.
type animator struct {
	tick func()

	mu   sync.Mutex
	fps  float64
	wake chan struct{}
	stop chan struct{}
	done chan struct{}
	once sync.Once
}

func newAnimator(tick func()) *animator {
	a := &animator{
		tick: tick,
		wake: make(chan struct{}, 1),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	go a.run()
	return a
}

// set changes the frame rate; 0 stops ticking. The next tick comes one
// frame after the call.
func (a *animator) set(fps float64) {
	a.mu.Lock()
	a.fps = fps
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

func (a *animator) run() {
	defer close(a.done)
	t := time.NewTimer(time.Hour)
	t.Stop()
	for {
		a.mu.Lock()
		fps := a.fps
		a.mu.Unlock()
		if fps > 0 {
			t.Reset(time.Duration(float64(time.Second) / fps))
		} else {
			t.Stop()
		}
		select {
		case <-a.stop:
			t.Stop()
			return
		case <-a.wake:
		case <-t.C:
			a.tick()
		}
	}
}

// close stops the goroutine and waits for it.
func (a *animator) close() {
	a.once.Do(func() { close(a.stop) })
	<-a.done
}
