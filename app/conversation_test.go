package app

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

func TestMemoryFile(t *testing.T) {
	m := conversationFile{dir: t.TempDir(), id: "p-1"}
	if _, err := m.Load(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Load before any Save: %v, want fs.ErrNotExist", err)
	}
	if err := m.Save([]byte(`{"version":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := m.Save([]byte(`{"version":1,"conversations":{}}`)); err != nil {
		t.Fatal(err)
	}
	got, err := m.Load()
	if err != nil || string(got) != `{"version":1,"conversations":{}}` {
		t.Fatalf("Load = %s, %v", got, err)
	}
	fi, err := os.Stat(m.path())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}
