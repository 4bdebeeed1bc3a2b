package packcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	for _, args := range [][]string{nil, {"list"}, {"import"}, {"import", "a", "b"}, {"import", "--nope", "a"}} {
		out.Reset()
		errOut.Reset()
		if code := Run(args, &out, &errOut); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "usage: yui pack import") {
			t.Errorf("%q: code %d, stdout %q, stderr %q", args, code, out.String(), errOut.String())
		}
	}
}

func TestImportRefusedWritesNothing(t *testing.T) {
	cfg, set := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(set, "shime1.png"), []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Run([]string{"import", set, "--config-dir", cfg, "--id", "x"}, &out, &errOut)
	if code != 1 || out.Len() != 0 || !strings.Contains(errOut.String(), "no configuration") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	if ents, _ := os.ReadDir(cfg); len(ents) != 0 {
		t.Fatalf("wrote %v", ents)
	}
}
