package i18n

import (
	"context"
	"errors"
	"testing"

	"yui/pet/settings"
)

// TestFindFontHasTheGlyphs: with a CJK font installed (fonts-noto-cjk, as
// .ci/deps.sh test installs), each CJK language finds one, its collection
// face loads as a font of its own, and it has the glyphs of every string
// of that language's translation file.
func TestFindFontHasTheGlyphs(t *testing.T) {
	for _, l := range []settings.Language{settings.LanguageJapanese, settings.LanguageKorean, settings.LanguageChinese} {
		f, err := FindFont(context.Background(), l)
		if errors.Is(err, ErrNoFont) {
			t.Skipf("no CJK font installed (%s): %v", FontPackage, err)
		}
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		msgs, err := Messages(l)
		if err != nil {
			t.Fatal(err)
		}
		for key, text := range msgs {
			if m := f.Missing(text); len(m) > 0 {
				t.Errorf("%s (%s #%d): %q of key %q lacks %q", l, f.Path, f.Index, text, key, string(m))
			}
		}
	}
}

func TestCollectionFaceRefusesAPlainFont(t *testing.T) {
	if _, err := collectionFace([]byte("OTTO\x00\x00\x00\x00\x00\x00\x00\x00"), 0); !errors.Is(err, errNotCollection) {
		t.Fatalf("err = %v", err)
	}
	if _, err := collectionFace([]byte("ttcf\x00\x01\x00\x00\x00\x00\x00\x05"), 7); err == nil {
		t.Fatal("face 7 of a truncated collection: no error")
	}
}
