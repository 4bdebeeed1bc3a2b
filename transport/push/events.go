package push

import (
	"sync"

	"yui/transport"
)

// eventQueue is an unbounded FIFO in front of the Events channel. Pushing
// never blocks, so the read loop, timer callbacks and the API methods (which
// push while holding the Client's lock) never wait on a slow or stuck
// consumer, and events keep the order in which they were pushed: none is
// ever dropped while the client is open. The price is memory: events pile
// up for as long as the app does not read, each at most one inbound frame
// (256 KiB). Blocking the read loop instead would stall pings, frame waits
// and tool calls behind the UI; dropping would lose turn ends.
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
