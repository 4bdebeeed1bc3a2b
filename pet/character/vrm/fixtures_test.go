package vrm

import (
	"os"
	"path/filepath"
	"testing"
)

// fixtureDir finds the shared VRM fixtures: ../shared/fixtures/vrm from
// the repository root (a checkout beside the shared directory), or one
// level further up (a worktree in a directory of worktrees).
func fixtureDir(t testing.TB) string {
	t.Helper()
	for _, d := range []string{
		filepath.Join("..", "..", "..", "..", "shared", "fixtures", "vrm"),
		filepath.Join("..", "..", "..", "..", "..", "shared", "fixtures", "vrm"),
	} {
		if _, err := os.Stat(filepath.Join(d, "PROVENANCE.md")); err == nil {
			return d
		}
	}
	t.Skip("the shared VRM fixtures (../shared/fixtures/vrm beside the repository) are not here")
	return ""
}

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
