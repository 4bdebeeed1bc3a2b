package vrmpack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/pet/character"
	"yui/pet/character/vrm/vrmtest"
)

// fixtureDir is the shared real VRM files' folder (vrmtest.FixtureDir).
func fixtureDir(t testing.TB) string { return vrmtest.FixtureDir(t) }

// fixtures are the shared .vrm files.
func fixtures(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(fixtureDir(t), "*.vrm"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return files
}

// importFile imports file at the tests' size and loads the pack.
func importFile(t testing.TB, file string) *character.Pack {
	t.Helper()
	p, err := importAt(file, filepath.Join(t.TempDir(), "characters"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// importAt imports file into the characters folder chars and loads it;
// a hidden folder left behind is an error.
func importAt(file, chars string) (*character.Pack, error) {
	id, err := Import(context.Background(), Options{File: file, Dir: chars, Size: testSize})
	if err != nil {
		return nil, err
	}
	ents, _ := os.ReadDir(chars)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			return nil, fmt.Errorf("left behind: %s", e.Name())
		}
	}
	return character.LoadDir(filepath.Join(chars, id))
}

// Every shared fixture imports into a pack that loads, with a figure.
func TestImportFixtures(t *testing.T) {
	for _, f := range fixtures(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p := importFile(t, f)
			if p.Source != Source || p.Meta == nil {
				t.Errorf("source %q meta %v", p.Source, p.Meta)
			}
			box := opaqueBox(p.Emotions["neutral"])
			if box.Empty() {
				t.Fatal("the neutral picture is empty")
			}
			t.Logf("%s: %d emotions, %d motions, figure %v in %v", p.ID, len(p.Emotions), len(p.Motions), box, p.ImageSize)
			checkGolden(t, strings.TrimSuffix(filepath.Base(f), ".vrm"), p)
		})
	}
}
