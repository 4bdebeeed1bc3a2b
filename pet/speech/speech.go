// Package speech turns sentences into sound (docs/product.md §6): the Engine
// interface the playback queue calls, the "none" engine (bubble only, paced
// by reading speed), and the Audio engine, which plays what a Synth makes
// on the pet's audio.Player. Each TTS backend is one small Synth, the way
// each chat API is one request.Dialect: System (espeak-ng, say, SAPI) and
// OpenAI (POST {base}/audio/speech, streamed).
package speech

import (
	"context"
	"time"
	"unicode/utf8"

	"yui/transport/clock"
)

// Engine synthesises sentences. Prepare may be called for the next sentence
// while the current one plays.
//
// Prepare must not block: the playback queue calls it with its lock held
// (the lock a stop, a new frame and the UI's reads need), for the next
// sentence while the current one plays. It starts the work and returns the
// clip at once; nothing in it waits on a process, the network or the disk.
// An engine whose synthesis is slow (a process, a network request) is a
// Synth under Audio, whose Prepare starts Open on a goroutine of its own and
// lets the clip's playback wait for the audio; None and Audio are the only
// engines, and TestPrepareNeverBlocks holds both to this. An error from
// Prepare, or from Play, marks the turn's playback as failed; the queue then
// paces the sentence by reading speed so cue boundaries still fall in order.
//
// The playback queue cancels ctx once the clip has played, or at once when
// a user action stops speech: an engine stops its work there (a process is
// killed, a request aborted). The engine's owner calls Close after the
// queue that used it has closed.
type Engine interface {
	// Prepare starts synthesising text and returns the clip to play.
	// Cancelling ctx abandons the synthesis.
	Prepare(ctx context.Context, text string) (Clip, error)
	// Close abandons every synthesis under way and waits for it to end.
	Close() error
}

// Clip is one synthesised sentence.
type Clip interface {
	// Play blocks until the clip has played or ctx ends.
	Play(ctx context.Context) error
}

// Starter is implemented by clips that can play without a goroutine of their
// own. The playback queue prefers Start over Play: with a fake clock the
// whole queue then advances inside clocktest.Fake.Advance, which keeps tests
// deterministic.
type Starter interface {
	// Start begins playback and returns at once. done runs once, never
	// inside Start, when the clip has played (nil) or failed. stop ends
	// playback; done is not called after a stop that won the race with the
	// clip's end, and callers must tolerate one that lost it.
	Start(done func(error)) (stop func())
}

// Reading pace of the "none" engine: the bubble stays up as long as a
// reader needs, within bounds so one word still shows and a paragraph does
// not hold the queue for a minute.
const (
	ReadingCharsPerSecond = 15
	MinReadingTime        = 1200 * time.Millisecond
	MaxReadingTime        = 10 * time.Second
)

// ReadingTime is how long the "none" engine shows text: 15 characters a
// second, at least 1.2 s and at most 10 s.
func ReadingTime(text string) time.Duration {
	n := utf8.RuneCountInString(text)
	d := time.Duration(n) * time.Second / ReadingCharsPerSecond
	return min(max(d, MinReadingTime), MaxReadingTime)
}

// None is the "none" engine: no sound, each clip lasts its ReadingTime on
// the clock.
type None struct {
	clock clock.Clock
}

// NewNone returns the "none" engine pacing clips on c (nil means the wall clock).
func NewNone(c clock.Clock) *None {
	if c == nil {
		c = clock.Real{}
	}
	return &None{clock: c}
}

// Close does nothing: the none engine holds nothing.
func (n *None) Close() error { return nil }

// Prepare returns a silent clip lasting ReadingTime(text). It never fails.
func (n *None) Prepare(ctx context.Context, text string) (Clip, error) {
	return &silentClip{clock: n.clock, d: ReadingTime(text)}, nil
}

// silentClip "plays" by waiting its duration.
type silentClip struct {
	clock clock.Clock
	d     time.Duration
}

// Duration is how long the clip plays.
func (c *silentClip) Duration() time.Duration { return c.d }

func (c *silentClip) Start(done func(error)) (stop func()) {
	t := c.clock.AfterFunc(c.d, func() { done(nil) })
	return func() { t.Stop() }
}

func (c *silentClip) Play(ctx context.Context) error {
	finished := make(chan struct{})
	stop := c.Start(func(error) { close(finished) })
	select {
	case <-finished:
		return nil
	case <-ctx.Done():
		stop()
		return ctx.Err()
	}
}
