package aec

// fifo is the cleaned samples waiting for Process to hand them out: a
// ring of fixed capacity, so a long call allocates nothing.
type fifo struct {
	buf        []float64
	head, size int
}

func newFIFO(capacity int) fifo { return fifo{buf: make([]float64, capacity)} }

func (q *fifo) push(s []float64) {
	for _, v := range s {
		if q.size == len(q.buf) { // never: Process pops as much as it pushes
			q.head = (q.head + 1) % len(q.buf)
			q.size--
		}
		q.buf[(q.head+q.size)%len(q.buf)] = v
		q.size++
	}
}

func (q *fifo) pushZeros(n int) {
	for range n {
		q.buf[(q.head+q.size)%len(q.buf)] = 0
		q.size++
	}
}

// pop fills out, with silence where the ring runs short.
func (q *fifo) pop(out []int16) {
	for i := range out {
		if q.size == 0 {
			out[i] = 0
			continue
		}
		v := q.buf[q.head] * 32768
		q.head = (q.head + 1) % len(q.buf)
		q.size--
		out[i] = int16(max(-32768, min(32767, v)))
	}
}
