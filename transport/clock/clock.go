// Package clock abstracts time so that protocol and playback logic can be
// tested with a fake clock (transport/clock/clocktest, which never ships): a
// 240 s frame wait or a 30 s reconnect backoff passes in microseconds.
package clock

import "time"

// Clock tells the time and schedules callbacks.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine (real clock) or in the goroutine
	// that advances the fake clock, once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a scheduled callback.
type Timer interface {
	// Stop prevents the callback from running; it reports whether it stopped it.
	Stop() bool
}

// Real is the wall clock.
type Real struct{}

func (Real) Now() time.Time { return time.Now() }

func (Real) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
