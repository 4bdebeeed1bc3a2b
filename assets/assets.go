// Package assets holds the files embedded in Yui's binary: the default
// character pack, Yui, drawn by code in ./gen.
//
// Regenerate the pack (and the contact sheet in docs/character) with
//
//	go generate ./assets
package assets

import (
	"embed"
	"io/fs"
)

//go:generate go run ./gen -out characters/yui -sheet ../docs/character/sheet.png

//go:embed characters
var characters embed.FS

// Characters is the folder of embedded character packs, one folder per pack
// id (characters/<id>/character.json).
func Characters() fs.FS {
	sub, err := fs.Sub(characters, "characters")
	if err != nil {
		// fs.Sub fails only on an invalid path; "characters" is valid.
		panic(err)
	}
	return sub
}

// DefaultCharacter is the embedded default pack, Yui: character.json and its
// PNG images at the root.
func DefaultCharacter() fs.FS {
	sub, err := fs.Sub(characters, "characters/yui")
	if err != nil {
		panic(err)
	}
	return sub
}
