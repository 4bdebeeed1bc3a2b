// Package character loads character packs: character.json plus PNG images
// (product.md §4), from the embedded default or a user folder.
package character

import (
	"image"
	"io/fs"

	"yui/transport"
)

// RequiredMotions every pack must define.
var RequiredMotions = []string{"idle", "thinking", "talk", "walk", "sit", "fall"}

// Pack is a loaded, validated character.
type Pack struct {
	ID   string
	Name string
	// Size is the character's logical size in pixels (width, height); the
	// images are drawn at 2x for HiDPI.
	Size            [2]int
	Emotions        map[string]image.Image
	Motions         map[string]Motion
	EmotionTextMode string // "free" or "enum"
	EmotionTextMap  map[string]string
	FillerLines     []string
	FailureLines    []string
}

// Motion is an animation.
type Motion struct {
	Frames []image.Image
	FPS    float64
	Loop   bool
}

// Load reads and validates the pack in fsys (character.json at its root).
// Errors say what is wrong: "load pack <id>: ...".
func Load(fsys fs.FS) (*Pack, error) { panic("TODO") }

// Default returns the embedded default pack (Yui).
func Default() *Pack { panic("TODO") }

// Vocabulary is what the pack renders: sorted emotion and motion ids and its
// emotion-text mode and map.
func (p *Pack) Vocabulary() transport.Vocabulary { panic("TODO") }
