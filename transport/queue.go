package transport

import (
	"sync"
)

// EventQueue is an unbounded FIFO in front of a transport's Events channel.
// Push never blocks, so a transport's read loop, timer callbacks and API
// methods (which may push while holding the transport's lock) never wait on
// a slow or stuck consumer, and events keep the order in which they were
// pushed: none is dropped while the queue is open. The price is memory while
// the app does not read. Blocking instead would stall pings, waits and tool
// calls behind the UI; dropping would lose turn ends.
type EventQueue struct {
	out  chan Event
	wake chan struct{}
	done chan struct{}

	mu   sync.Mutex
	buf  []Event
	shut bool
}

// NewEventQueue returns a queue; the owner runs Run in its own goroutine.
func NewEventQueue() *EventQueue {
	return &EventQueue{out: make(chan Event), wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// C is the channel Events returns.
func (q *EventQueue) C() <-chan Event { return q.out }

// Push queues ev; after Close it is dropped.
func (q *EventQueue) Push(ev Event) {
	q.mu.Lock()
	if !q.shut {
		q.buf = append(q.buf, ev)
	}
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Run delivers queued events until Close; it then closes C.
func (q *EventQueue) Run() {
	defer close(q.out)
	var batch []Event
	for {
		q.mu.Lock()
		batch, q.buf = q.buf, batch[:0]
		q.mu.Unlock()
		for i, ev := range batch {
			select {
			case q.out <- ev:
			case <-q.done:
				return
			}
			batch[i] = nil
		}
		select {
		case <-q.wake:
		case <-q.done:
			return
		}
	}
}

// Close stops delivery; events not yet delivered are dropped. Safe to call twice.
func (q *EventQueue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.shut {
		q.shut = true
		close(q.done)
	}
}
