// Package speech turns sentences into sound: the engine interface and the
// "none" engine (bubble only, paced by reading speed). Audio engines
// (system, openai) come later behind the same interface.
package speech

import "context"

// Engine synthesises sentences. Prepare may be called for the next sentence
// while the current one plays.
type Engine interface {
	// Prepare starts synthesising text and returns the clip to play.
	Prepare(ctx context.Context, text string) (Clip, error)
}

// Clip is one synthesised sentence.
type Clip interface {
	// Play blocks until the clip has played or ctx ends.
	Play(ctx context.Context) error
}
