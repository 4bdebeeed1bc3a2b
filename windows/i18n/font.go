package i18n

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"github.com/go-text/typesetting/font"

	"yui/pet/settings"
)

// FontPackage is what to install when no font has the glyphs (Debian,
// Ubuntu, Fedora name it so), for the App tab's note.
const FontPackage = "fonts-noto-cjk"

// ErrNoFont is the error of FindFont when no system font has the glyphs
// of the language.
var ErrNoFont = errors.New("no system font with the glyphs")

// Font is a system font for a language's script.
type Font struct {
	Path  string
	Index int // the face in a collection (.ttc); 0 otherwise
	// Resource is the face as a font file of its own, for the theme.
	Resource fyne.Resource
	face     *font.Face
}

// sample holds characters each CJK language's windows show; a font that
// lacks one of them is no font for that language.
func sample(l settings.Language) string {
	switch l {
	case settings.LanguageJapanese:
		return "設定を開くひらがなカタカナ"
	case settings.LanguageKorean:
		return "설정을 열어요"
	case settings.LanguageChinese:
		return "设置打开语言"
	}
	return ""
}

// FindFont finds a system font with the glyphs of l, reads it and makes
// it loadable by Fyne. Slow (a subprocess, a file of many megabytes): call
// it off the UI goroutine.
func FindFont(ctx context.Context, l settings.Language) (Font, error) {
	for _, c := range fontCandidates(ctx, l) {
		f, err := LoadFont(c.Path, c.Index)
		if err == nil && f.Has(sample(l)) {
			return f, nil
		}
	}
	return Font{}, fmt.Errorf("%s: %w", l, ErrNoFont)
}

// LoadFont reads the font file at path and, for a collection, takes face
// index out of it.
func LoadFont(path string, index int) (Font, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Font{}, fmt.Errorf("font: %w", err)
	}
	if one, err := collectionFace(data, index); err == nil {
		data = one
	} else if !errors.Is(err, errNotCollection) {
		return Font{}, fmt.Errorf("font %s: %w", path, err)
	}
	face, err := font.ParseTTF(bytes.NewReader(data))
	if err != nil {
		return Font{}, fmt.Errorf("font %s: %w", path, err)
	}
	name := fmt.Sprintf("%s-%d.otf", filepath.Base(path), index)
	return Font{Path: path, Index: index, Resource: fyne.NewStaticResource(name, data), face: face}, nil
}

// Has reports whether the font has a glyph for every rune of s but spaces.
func (f Font) Has(s string) bool { return len(f.Missing(s)) == 0 }

// Missing returns the runes of s the font has no glyph for, spaces aside.
func (f Font) Missing(s string) []rune {
	var out []rune
	for _, r := range s {
		if r == ' ' || r == '\n' || r == '\t' {
			continue
		}
		if f.face == nil {
			out = append(out, r)
			continue
		}
		if _, ok := f.face.NominalGlyph(r); !ok {
			out = append(out, r)
		}
	}
	return out
}
