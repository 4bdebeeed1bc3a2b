package shimeji

import (
	"os"
	"path/filepath"
	"testing"

	"yui/pet/character"
)

// TestRealSets imports the two real sets when YUI_SHIMEJI_FIXTURES names
// the folder holding them (original/ and ee/); they are not in the
// repository.
func TestRealSets(t *testing.T) {
	root := os.Getenv("YUI_SHIMEJI_FIXTURES")
	if root == "" {
		t.Skip("YUI_SHIMEJI_FIXTURES is not set")
	}
	for _, set := range []string{"original", "ee"} {
		cfg := t.TempDir()
		r, err := Import(Options{Dir: filepath.Join(root, set), ConfigDir: cfg})
		if err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		p, err := character.LoadDir(r.Dir)
		if err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		t.Logf("%s: id %s name %q size %v feet %v walk %.1f px/s motions %v", set, r.ID, r.Name, p.Size, p.Feet, p.WalkSpeed, p.Vocabulary().MotionIDs)
		if p.WalkSpeed != 50 || p.Size != [2]int{128, 152} {
			t.Errorf("%s: walk speed %v size %v, want 50 px/s (2 px a 40 ms tick) and 128x152 (Tripping hangs 24 px below the feet)", set, p.WalkSpeed, p.Size)
		}
	}
}
