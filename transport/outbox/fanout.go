package outbox

import (
	"slices"
	"sync"
)

// Fanout hands each value to every subscriber, in the order values were
// put, one value at a time, outside the producer's lock (through an
// Outbox). Subscribers are called in the order they subscribed. The zero
// value is ready to use.
type Fanout[T any] struct {
	once sync.Once
	out  *Outbox[T]

	mu   sync.Mutex
	next int
	fns  map[int]func(T)
}

func (f *Fanout[T]) init() {
	f.once.Do(func() { f.out = New(f.deliver) })
}

// Subscribe adds fn; cancel removes it (a call under way finishes).
func (f *Fanout[T]) Subscribe(fn func(T)) (cancel func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fns == nil {
		f.fns = map[int]func(T){}
	}
	id := f.next
	f.next++
	f.fns[id] = fn
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.fns, id)
	}
}

// Put queues v for every subscriber; it never calls one, so it is safe
// under the producer's lock.
func (f *Fanout[T]) Put(v T) {
	f.init()
	f.out.Put(v)
}

// Flush delivers what was put (see Outbox.Flush).
func (f *Fanout[T]) Flush() {
	f.init()
	f.out.Flush()
}

// Publish is Put then Flush, for a producer holding no lock.
func (f *Fanout[T]) Publish(v T) {
	f.Put(v)
	f.Flush()
}

func (f *Fanout[T]) deliver(v T) {
	f.mu.Lock()
	ids := make([]int, 0, len(f.fns))
	for id := range f.fns {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	fns := make([]func(T), len(ids))
	for i, id := range ids {
		fns[i] = f.fns[id]
	}
	f.mu.Unlock()
	for _, fn := range fns {
		fn(v)
	}
}
