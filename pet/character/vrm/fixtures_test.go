package vrm

import (
	"os"
	"path/filepath"
	"testing"

	"yui/pet/character/vrm/vrmtest"
)

// fixtureDir is the shared real VRM files' folder (vrmtest.FixtureDir).
func fixtureDir(t testing.TB) string { return vrmtest.FixtureDir(t) }

func readFixture(t *testing.T, name string) *Model {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtureDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	return m
}
