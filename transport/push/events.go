package push

import (
	"sync"

	"yui/transport"
)

// eventQueue is an unbounded FIFO in front of the Events channel, so the
// read loop and timer callbacks never block on a slow consumer and events
// keep the order in which they were pushed.
type eventQueue struct {
	out  chan transport.Event
	done chan struct{}
	wake chan struct{}

	mu  sync.Mutex
	buf []transport.Event
}

func newEventQueue() *eventQueue {
	return &eventQueue{
		out:  make(chan transport.Event),
		done: make(chan struct{}),
		wake: make(chan struct{}, 1),
	}
}

func (q *eventQueue) push(ev transport.Event) {
	q.mu.Lock()
	q.buf = append(q.buf, ev)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pump delivers queued events until close; it then closes out.
func (q *eventQueue) pump() {
	defer close(q.out)
	var batch []transport.Event
	for {
		select {
		case <-q.wake:
		case <-q.done:
			return
		}
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
	}
}

func (q *eventQueue) close() { close(q.done) }
