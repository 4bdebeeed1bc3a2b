package vrmpack

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/pet/character"
	"yui/pet/character/vrm/vrmtest"
)

// importAvatar imports the generated avatar into a fresh folder and loads
// the pack.
func importAvatar(t *testing.T, o vrmtest.Options) (*character.Pack, string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "avatar.vrm")
	if err := os.WriteFile(file, vrmtest.Avatar(o), 0o600); err != nil {
		t.Fatal(err)
	}
	chars := filepath.Join(dir, "characters")
	start := time.Now()
	id, err := Import(context.Background(), Options{File: file, Dir: chars, Size: testSize, Supersample: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("imported %s in %v", id, time.Since(start))
	p, err := character.LoadDir(filepath.Join(chars, id))
	if err != nil {
		t.Fatal(err)
	}
	return p, filepath.Join(chars, id)
}

func TestImportAvatarSheet(t *testing.T) {
	p, _ := importAvatar(t, vrmtest.Options{})
	out := os.Getenv("YUI_SHEET")
	if out == "" {
		return
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, ContactSheet(p, 96)); err != nil {
		t.Fatal(err)
	}
}

func TestImportAvatarKeep(t *testing.T) {
	out := os.Getenv("YUI_KEEP")
	if out == "" {
		t.Skip("YUI_KEEP names a folder to copy the pack into")
	}
	file := filepath.Join(t.TempDir(), "avatar.vrm")
	if err := os.WriteFile(file, vrmtest.Avatar(vrmtest.Options{}), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Import(context.Background(), Options{File: file, Dir: out, ID: "avatar"}); err != nil {
		t.Fatal(err)
	}
}
