package outbox

import (
	"sync"
	"testing"
)

func TestFlushDeliversInOrder(t *testing.T) {
	var got []int
	o := New(func(v int) { got = append(got, v) })
	o.Put(1)
	o.Put(2)
	o.Flush()
	o.Put(3)
	o.Flush()
	if len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("got %v, want [1 2 3]", got)
	}
}

func TestCallbackMayPutAndFlush(t *testing.T) {
	var got []int
	var o *Outbox[int]
	o = New(func(v int) {
		got = append(got, v)
		if v < 3 {
			o.Put(v + 1)
			o.Flush() // re-entrant: returns at once, the outer loop delivers
		}
	})
	o.Put(1)
	o.Flush()
	if len(got) != 3 {
		t.Fatalf("got %v, want [1 2 3]", got)
	}
}

func TestConcurrentFlushKeepsOrder(t *testing.T) {
	var mu sync.Mutex // the producer's lock
	next := 0
	var got []int
	o := New(func(v int) { got = append(got, v) }) // one deliverer at a time: no lock needed
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				mu.Lock()
				o.Put(next)
				next++
				mu.Unlock()
				o.Flush()
			}
		}()
	}
	wg.Wait()
	o.Flush()
	if len(got) != 800 {
		t.Fatalf("delivered %d, want 800", len(got))
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("got[%d] = %d: out of order", i, v)
		}
	}
}

func TestFanoutSubscribeAndCancel(t *testing.T) {
	var f Fanout[string]
	var a, b []string
	cancelA := f.Subscribe(func(v string) { a = append(a, v) })
	f.Subscribe(func(v string) { b = append(b, v) })
	f.Publish("one")
	cancelA()
	f.Publish("two")
	if len(a) != 1 || len(b) != 2 || b[1] != "two" {
		t.Fatalf("a = %v, b = %v", a, b)
	}
}
