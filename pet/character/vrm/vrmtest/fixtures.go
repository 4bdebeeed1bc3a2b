package vrmtest

import (
	"os"
	"path/filepath"
	"testing"
)

// FixtureDir is the folder of the shared real VRM files and their
// provenance: shared/fixtures/vrm beside the repository (the repository's
// root is the folder of go.mod above the test's own). Without it a test
// is skipped, and fails under CI (CI=true), where the fixtures are laid
// beside every clone: a green run must not hide a missing model.
func FixtureDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
	fixtures := filepath.Join(filepath.Dir(dir), "shared", "fixtures", "vrm")
	if _, err := os.Stat(filepath.Join(fixtures, "PROVENANCE.md")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared VRM fixtures are missing: %v", err)
		}
		t.Skipf("the shared VRM fixtures (shared/fixtures/vrm beside the repository) are not here: %v", err)
	}
	return fixtures
}
