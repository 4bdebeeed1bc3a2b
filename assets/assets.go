// Package assets holds the files embedded in Yui's binary: the default
// character pack, Yui, drawn by code in ./gen.
//
// Regenerate the pack (with the contact sheet in docs/character and the
// app icon) with
//
//	go generate ./assets
package assets

import (
	"embed"
	"io/fs"
)

//go:generate go run ./gen -out characters/yui -mint characters/mint -sheet ../docs/character/sheet.png -icon icon.png -window-icon window-icon.png

//go:embed characters
var characters embed.FS

// Icon is the app icon (FyneApp.toml, the window manager's and the
// tray's): Yui's neutral face centred on a transparent 512x512 square,
// drawn by ./gen.
//
//go:embed icon.png
var Icon []byte

// WindowIcon is the windows' icon: the app icon drawn at 128x128, which
// is what a window manager shows, and which every window decodes and
// sends to the X server when it is made (./gen's windowIconSize).
//
//go:embed window-icon.png
var WindowIcon []byte

// DefaultCharacter is the embedded default pack, Yui: character.json and its
// PNG images at the root.
func DefaultCharacter() fs.FS { return BuiltinCharacter("yui") }

// BuiltinIDs are the embedded packs: Yui and Mint, both drawn by ./gen.
var BuiltinIDs = []string{"yui", "mint"}

// BuiltinCharacter is the embedded pack id (one of BuiltinIDs), nil for
// any other id.
func BuiltinCharacter(id string) fs.FS {
	for _, b := range BuiltinIDs {
		if b == id {
			sub, err := fs.Sub(characters, "characters/"+id)
			if err != nil {
				panic(err)
			}
			return sub
		}
	}
	return nil
}

// Lang holds the translations of every user-visible string, one JSON file
// per language named by its BCP 47 tag (lang/en.json, lang/ja.json, ...),
// in the format of Fyne's lang package (go-i18n: a key's text, or its
// plural forms). lang/README.md says how they are written.
//
//go:embed lang/*.json
var Lang embed.FS
