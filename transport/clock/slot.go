package clock

import "time"

// Slot holds at most one pending timer for an owner that guards the slot
// with its own lock. Arming replaces the pending timer; a timer replaced
// or stopped may still fire (it raced with the owner's lock), so its
// function checks Current under the lock before it acts:
//
//	s.Arm(clk, d, func(gen int) {
//		owner.mu.Lock()
//		defer owner.mu.Unlock()
//		if s.Current(gen) {
//			// act
//		}
//	})
//
// The zero value is an empty slot. Every method is called with the
// owner's lock held.
type Slot struct {
	gen int
	t   Timer
}

// Arm stops the pending timer and starts one that calls f(gen) after d,
// in the clock's goroutine, with the generation Current recognises.
func (s *Slot) Arm(c Clock, d time.Duration, f func(gen int)) {
	s.Stop()
	gen := s.gen
	s.t = c.AfterFunc(d, func() { f(gen) })
}

// Current reports whether gen is the pending timer's: it was neither
// replaced nor stopped since it was armed.
func (s *Slot) Current(gen int) bool { return s.t != nil && gen == s.gen }

// Stop stops the pending timer; a call of its function already under way
// finds itself no longer current.
func (s *Slot) Stop() {
	s.gen++
	if s.t != nil {
		s.t.Stop()
		s.t = nil
	}
}
