// Package outbox delivers values to a callback outside the lock that
// produced them, in the order they were put, one delivering goroutine at a
// time.
//
// A producer puts values while it holds its own lock (so their order is
// the order of its state changes), releases that lock, then calls Flush.
// The callback may therefore call the producer back without deadlocking,
// and two goroutines flushing at once never deliver out of order: the one
// already delivering takes the other's values too.
package outbox

import "sync"

// Outbox queues values for one callback. The zero value is not usable; New
// makes one.
type Outbox[T any] struct {
	deliver func(T)

	mu         sync.Mutex
	pending    []T
	delivering bool
}

// New returns an outbox delivering to deliver.
func New[T any](deliver func(T)) *Outbox[T] {
	return &Outbox[T]{deliver: deliver}
}

// Put queues v. It never calls the callback, so it is safe under any lock.
func (o *Outbox[T]) Put(v T) {
	o.mu.Lock()
	o.pending = append(o.pending, v)
	o.mu.Unlock()
}

// Flush delivers every queued value in order on the calling goroutine,
// unless another goroutine is delivering: that one then delivers them and
// Flush returns at once. Call it with no lock held that the callback needs.
func (o *Outbox[T]) Flush() {
	o.mu.Lock()
	if o.delivering {
		o.mu.Unlock()
		return
	}
	o.delivering = true
	for len(o.pending) > 0 {
		batch := o.pending
		o.pending = nil
		o.mu.Unlock()
		for _, v := range batch {
			o.deliver(v)
		}
		o.mu.Lock()
	}
	o.delivering = false
	o.mu.Unlock()
}
