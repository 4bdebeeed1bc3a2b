package packcmd

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/pet/character/vrm/vrmtest"
)

// glb wraps a glTF JSON document as a binary glTF file.
func glb(t *testing.T, doc any) []byte {
	t.Helper()
	j, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for len(j)%4 != 0 {
		j = append(j, ' ')
	}
	var b bytes.Buffer
	le := binary.LittleEndian
	_ = binary.Write(&b, le, []uint32{0x46546C67, 2, uint32(12 + 8 + len(j)), uint32(len(j)), 0x4E4F534A})
	b.Write(j)
	return b.Bytes()
}

// Bad models are refused in one line, exit 1, and nothing is written.
func TestImportVRMRefusals(t *testing.T) {
	var pngFile bytes.Buffer
	if err := png.Encode(&pngFile, image.NewNRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	plain := glb(t, map[string]any{"asset": map[string]any{"version": "2.0"}, "scenes": []any{map[string]any{"nodes": []any{0}}}, "nodes": []any{map[string]any{"name": "n"}}})
	cases := map[string][]byte{
		"picture.vrm":   pngFile.Bytes(),
		"truncated.vrm": plain[:len(plain)/2],
		"plain.vrm":     plain,
		"empty.vrm":     nil,
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, src := t.TempDir(), t.TempDir()
			file := filepath.Join(src, name)
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			code := RunContext(context.Background(), []string{"import", file, "--config-dir", cfg}, Input{}, &out, &errOut)
			lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
			last := lines[len(lines)-1]
			if code != 1 || out.Len() != 0 || !strings.HasPrefix(last, "yui pack: import "+name+": vrm: ") {
				t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errOut.String())
			}
			if ents, _ := os.ReadDir(filepath.Join(cfg, "characters")); len(ents) != 0 {
				t.Fatalf("wrote %v", ents)
			}
		})
	}
}

func TestUsageSaysBoth(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"--help"}, &out, &errOut); code != 0 || !strings.Contains(errOut.String(), "FILE.vrm") || !strings.Contains(errOut.String(), "Shimeji") {
		t.Fatalf("code %d, help %q", code, errOut.String())
	}
	errOut.Reset()
	if code := Run([]string{"import", t.TempDir(), "--motion", "wave"}, &out, &errOut); code != 2 {
		t.Fatalf("a bad --motion: code %d, %q", code, errOut.String())
	}
	for _, args := range [][]string{
		{"import", t.TempDir(), "--motion", "wave=a.vrma"},
		{"import", "a.vrm", "--set", "x"},
	} {
		errOut.Reset()
		if code := Run(args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), " is for a") && !strings.Contains(errOut.String(), " are for a") {
			t.Errorf("%q: code %d, %q", args, code, errOut.String())
		}
	}
}

func TestMotionFlag(t *testing.T) {
	var m motionFlag
	for _, bad := range []string{"wave", "=x.vrma", "bad name=x.vrma", "wave="} {
		if err := m.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := m.Set("wave=a.vrma"); err != nil || m["wave"] != "a.vrma" {
		t.Fatalf("%v %v", err, m)
	}
	if err := m.Set("wave=b.vrma"); err == nil {
		t.Error("a motion given twice is accepted")
	}
}

// onlyAuthor rewrites a generated avatar's meta so that only its author
// may use it (pet/character/vrmpack's author_test.go does the same).
func onlyAuthor(t *testing.T, glb []byte) []byte {
	t.Helper()
	le := binary.LittleEndian
	n := le.Uint32(glb[12:16])
	js := bytes.Replace(glb[20:20+n], []byte(`"avatarPermission":"everyone"`), []byte(`"avatarPermission":"onlyAuthor"`), 1)
	js = bytes.TrimRight(js, " ")
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	rest := glb[20+n:]
	out := le.AppendUint32(nil, 0x46546C67)
	out = le.AppendUint32(out, 2)
	out = le.AppendUint32(out, uint32(12+8+len(js)+len(rest)))
	out = le.AppendUint32(out, uint32(len(js)))
	out = le.AppendUint32(out, 0x4E4F534A)
	return append(append(out, js...), rest...)
}

// A model only its author may use is refused without a terminal to ask,
// and when the person at the terminal says no; nothing is written.
func TestImportVRMOnlyAuthor(t *testing.T) {
	src := t.TempDir()
	file := filepath.Join(src, "mine.vrm")
	if err := os.WriteFile(file, onlyAuthor(t, vrmtest.Avatar(vrmtest.Options{Triangles: 1000, TextureSize: 32})), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]Input{
		"no terminal":      {R: strings.NewReader("y\n")},
		"the user says no": {R: strings.NewReader("n\n"), Terminal: true},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := t.TempDir()
			var out, errOut bytes.Buffer
			code := RunContext(context.Background(), []string{"import", file, "--config-dir", cfg}, in, &out, &errOut)
			if code != 1 || out.Len() != 0 || !strings.Contains(errOut.String(), "only its author") {
				t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errOut.String())
			}
			if !in.Terminal && !strings.Contains(errOut.String(), "--i-am-the-author") {
				t.Errorf("the refusal does not say how to confirm: %q", errOut.String())
			}
			if ents, _ := os.ReadDir(filepath.Join(cfg, "characters")); len(ents) != 0 {
				t.Fatalf("wrote %v", ents)
			}
		})
	}
}
