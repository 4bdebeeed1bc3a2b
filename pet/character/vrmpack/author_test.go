package vrmpack

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"yui/pet/character"

	"yui/pet/character/vrm"
	"yui/pet/character/vrm/vrmtest"
)

// onlyAuthor rewrites a generated avatar's meta so that only its author
// may use it: the JSON chunk edited and the GLB's lengths made right.
func onlyAuthor(t testing.TB, glb []byte) []byte {
	t.Helper()
	le := binary.LittleEndian
	n := le.Uint32(glb[12:16])
	js := bytes.Replace(glb[20:20+n], []byte(`"avatarPermission":"everyone"`), []byte(`"avatarPermission":"onlyAuthor"`), 1)
	if bytes.Equal(js, glb[20:20+n]) {
		t.Fatal("the avatar's meta has no avatarPermission to change")
	}
	js = bytes.TrimRight(js, " ")
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	rest := glb[20+n:]
	out := make([]byte, 0, len(glb)+8)
	out = le.AppendUint32(out, 0x46546C67)
	out = le.AppendUint32(out, 2)
	out = le.AppendUint32(out, uint32(12+8+len(js)+len(rest)))
	out = le.AppendUint32(out, uint32(len(js)))
	out = le.AppendUint32(out, 0x4E4F534A)
	out = append(out, js...)
	return append(out, rest...)
}

func TestOnlyTheAuthorImports(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.vrm")
	if err := os.WriteFile(file, onlyAuthor(t, vrmtest.Avatar(vrmtest.Options{Triangles: 1500, TextureSize: 64})), 0o600); err != nil {
		t.Fatal(err)
	}
	chars := filepath.Join(dir, "characters")
	asked := 0
	o := Options{File: file, Dir: chars, Size: testSize, ConfirmAuthor: func(m vrm.Meta) bool { asked++; return false }}
	if _, err := Import(context.Background(), o); !errors.Is(err, ErrNotAuthor) || asked != 1 {
		t.Fatalf("refused: %v, asked %d times", err, asked)
	}
	if _, err := os.Stat(chars); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("something was written: %v", err)
	}
	o.ConfirmAuthor = func(m vrm.Meta) bool { return m.Author != "" }
	id, err := Import(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(chars, id, "thumbnail.png")); err != nil {
		t.Error(err)
	}
}

// A cancel leaves nothing behind, wherever it comes.
func TestCancelLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.vrm")
	if err := os.WriteFile(file, vrmtest.Avatar(vrmtest.Options{Triangles: 1500, TextureSize: 64}), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, at := range []Stage{StagePosing, StageRendering, StageWriting} {
		t.Run(string(at), func(t *testing.T) {
			chars := filepath.Join(t.TempDir(), "characters")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err := Import(ctx, Options{File: file, Dir: chars, Size: testSize, Progress: func(s Stage, done, total int) {
				if s == at && done >= total/2 {
					cancel()
				}
			}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err %v", err)
			}
			if _, err := os.Stat(chars); !errors.Is(err, os.ErrNotExist) {
				ents, _ := os.ReadDir(chars)
				t.Fatalf("left behind: %v", ents)
			}
		})
	}
}

// A VRM Animation clip becomes a motion a cue may name.
func TestClipBecomesAMotion(t *testing.T) {
	clip := filepath.Join(fixtureDir(t), "nop.vrma")
	dir := t.TempDir()
	file := filepath.Join(dir, "a.vrm")
	if err := os.WriteFile(file, vrmtest.Avatar(vrmtest.Options{Triangles: 1500, TextureSize: 64}), 0o600); err != nil {
		t.Fatal(err)
	}
	chars := filepath.Join(dir, "characters")
	id, err := Import(context.Background(), Options{File: file, Dir: chars, Size: testSize, Motions: map[string]string{"nod": clip}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := character.LoadDir(filepath.Join(chars, id))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Has("nod") || !slices.Contains(p.Vocabulary().MotionIDs, "nod") {
		t.Fatalf("motions %v", p.Vocabulary().MotionIDs)
	}
	// A clip that is not one is refused, naming the motion.
	_, err = Import(context.Background(), Options{File: file, Dir: chars, Size: testSize, Motions: map[string]string{"bad": file}})
	if err == nil || !strings.Contains(err.Error(), "motion bad") {
		t.Fatalf("err %v", err)
	}
}
