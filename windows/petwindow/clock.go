package petwindow

import (
	"container/heap"
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// FrameClock wakes the pet windows of a process when one of their frames is
// due, and only then: one timer for every pet, its callbacks run on Fyne's
// main goroutine (fyne.Do), the ones due together in one hand-off.
//
// It replaces Fyne's animation runner for the character's motions. That
// runner ticks at the display's rate (60 times a second) while any
// animation is registered, for a motion that changes frame a few times a
// second: an idle pet cost a wake-up and a main-loop turn every 16 ms.
//
// Due times are rounded up to a grain of frameGrain, so that pets whose
// frames fall close together change them in one wake-up.
//
// A FrameClock is safe from any goroutine; Close stops it.
type FrameClock struct {
	mu     sync.Mutex
	timer  *time.Timer
	at     time.Time // when the timer fires; zero when it is not armed
	q      dueQueue
	seq    uint64
	closed bool
	now    func() time.Time
	do     func(func()) // runs a batch on the UI goroutine
}

// frameGrain is the rounding of due times.
const frameGrain = 10 * time.Millisecond

// NewFrameClock returns a clock running its callbacks through fyne.Do.
func NewFrameClock() *FrameClock {
	return &FrameClock{now: time.Now, do: fyne.Do}
}

// after runs fn on the UI goroutine once d has passed, unless the returned
// cancel is called first (from the UI goroutine, cancel after the batch
// began is too late but harmless: fn checks its own generation).
func (c *FrameClock) after(d time.Duration, fn func()) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return func() {}
	}
	when := c.now().Add(d).Truncate(frameGrain).Add(frameGrain)
	c.seq++
	e := &dueEntry{when: when, fn: fn, seq: c.seq}
	heap.Push(&c.q, e)
	c.arm()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if e.index >= 0 {
			heap.Remove(&c.q, e.index)
		}
	}
}

// arm sets the timer to the earliest entry. c.mu is held.
func (c *FrameClock) arm() {
	if len(c.q) == 0 {
		return
	}
	first := c.q[0].when
	if !c.at.IsZero() && !first.Before(c.at) {
		return // armed for as early or earlier
	}
	c.at = first
	d := max(first.Sub(c.now()), 0)
	if c.timer == nil {
		c.timer = time.AfterFunc(d, c.fire)
	} else {
		c.timer.Reset(d)
	}
}

// fire takes every entry due and runs them in one hand-off.
func (c *FrameClock) fire() {
	c.mu.Lock()
	c.at = time.Time{}
	now := c.now()
	var due []func()
	for len(c.q) > 0 && !c.q[0].when.After(now) {
		due = append(due, heap.Pop(&c.q).(*dueEntry).fn)
	}
	c.arm()
	closed := c.closed
	c.mu.Unlock()
	if closed || len(due) == 0 {
		return
	}
	c.do(func() {
		for _, fn := range due {
			fn()
		}
	})
}

// Close stops the clock: nothing more runs.
func (c *FrameClock) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.q = nil
	if c.timer != nil {
		c.timer.Stop()
	}
}

// pending is how many callbacks wait (for tests).
func (c *FrameClock) pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.q)
}

type dueEntry struct {
	when  time.Time
	seq   uint64 // keeps entries due together in the order they were asked for
	fn    func()
	index int // in the heap; -1 once taken or removed
}

type dueQueue []*dueEntry

func (q dueQueue) Len() int { return len(q) }
func (q dueQueue) Less(i, j int) bool {
	if q[i].when.Equal(q[j].when) {
		return q[i].seq < q[j].seq
	}
	return q[i].when.Before(q[j].when)
}
func (q dueQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *dueQueue) Push(x any) {
	e := x.(*dueEntry)
	e.index = len(*q)
	*q = append(*q, e)
}
func (q *dueQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	old[len(old)-1] = nil
	e.index = -1
	*q = old[:len(old)-1]
	return e
}
