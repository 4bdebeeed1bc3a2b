package applog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const key = "sk-test-0123456789abcdef"

type keyHolder struct {
	Name string
	Key  string
}

type keyStringer struct{}

func (keyStringer) String() string { return "token=" + key }

type keyValuer struct{}

func (keyValuer) LogValue() slog.Value { return slog.StringValue("Bearer " + key) }

func TestRedactsEverywhere(t *testing.T) {
	var buf bytes.Buffer
	secrets := NewSecrets(key, "", "ab") // short ones ignored
	l := slog.New(NewRedactHandler(slog.NewJSONHandler(&buf, nil), secrets))
	l.Info("plain", "n", 1, "about", "absolutely fine")
	l.Info("message with "+key, "a", 1)
	l.Info("attrs",
		"str", "Authorization: Bearer "+key,
		"err", errors.New("401 for key "+key),
		"wrapped", fmt.Errorf("dial: %w", errors.New(key)),
		"struct", keyHolder{Name: "x", Key: key},
		"ptr", &keyHolder{Key: key},
		"stringer", keyStringer{},
		"valuer", keyValuer{},
		slog.Group("g", "inner", key, slog.Group("deeper", "k", key)),
		"list", []string{"a", key},
	)
	l.With("preset_key", key).WithGroup("grp").With("k2", key).Info("with", "k3", key)

	out := buf.String()
	if strings.Contains(out, key) || strings.Contains(out, "0123456789abcdef") {
		t.Fatalf("key in log:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines", len(lines))
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first["msg"] != "plain" || first["about"] != "absolutely fine" {
		t.Errorf("clean line changed: %s", lines[0])
	}
	var second map[string]any
	json.Unmarshal([]byte(lines[1]), &second)
	if second["msg"] != Redacted {
		t.Errorf("message not redacted: %s", lines[1])
	}
	var third struct {
		Str, Err, Wrapped, Struct, Ptr, Stringer, Valuer, List string
		G                                                      struct {
			Inner  string
			Deeper struct{ K string }
		}
	}
	if err := json.Unmarshal([]byte(lines[2]), &third); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{third.Str, third.Err, third.Wrapped, third.Struct, third.Ptr, third.Stringer,
		third.Valuer, third.List, third.G.Inner, third.G.Deeper.K} {
		if v != Redacted {
			t.Errorf("value %q, want %q (line %s)", v, Redacted, lines[2])
		}
	}
}

func TestSecretsChangeLater(t *testing.T) {
	var buf bytes.Buffer
	secrets := NewSecrets()
	// The attr is bound before the key is known: the scrubbing writer still catches it.
	l := slog.New(NewRedactHandler(slog.NewJSONHandler(NewScrubWriter(&buf, secrets), nil), secrets)).With("k", "new-key-1234")
	secrets.Set([]string{"new-key-1234", `we"ird<key>`})
	l.Info("x", "weird", `we"ird<key>`)
	l.Info(`we"ird<key>`)
	if out := buf.String(); strings.Contains(out, "new-key-1234") || strings.Contains(out, `we\"ird`) || strings.Contains(out, "ird<") {
		t.Errorf("key in log: %s", out)
	}
}

func TestScrubWriterNestedKeys(t *testing.T) {
	var buf bytes.Buffer
	w := NewScrubWriter(&buf, NewSecrets("abcd", "abcdefgh-long"))
	fmt.Fprint(w, "x abcdefgh-long y abcd z")
	if got := buf.String(); got != "x [redacted] y [redacted] z" {
		t.Errorf("got %q", got)
	}
}

func TestScrubWriterEscapedForm(t *testing.T) {
	var buf bytes.Buffer
	secrets := NewSecrets(`k<&>"1234`)
	w := NewScrubWriter(&buf, secrets)
	// A handler that bypasses the redacting layer writes the JSON-escaped key.
	slog.New(slog.NewJSONHandler(w, nil)).Info("m", "v", `k<&>"1234`)
	if strings.Contains(buf.String(), "1234") {
		t.Errorf("escaped key in log: %s", buf.String())
	}
}

func TestOpenWritesJSONAndMirrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	var stderr bytes.Buffer
	lv := new(slog.LevelVar)
	l, err := Open(Options{Dir: dir, Level: lv, Verbose: &stderr, Secrets: NewSecrets(key),
		Now: func() time.Time { return time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC) }, PID: 42})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "yui-20260102T150405Z-42.log"); l.Path() != want {
		t.Errorf("path = %s, want %s", l.Path(), want)
	}
	l.Logger.Debug("hidden")
	l.Logger.Info("ws_open", "url", "wss://h/ws", "key", key)
	lv.Set(slog.LevelDebug)
	l.Logger.Debug("shown")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		msgs = append(msgs, rec["msg"].(string))
	}
	if !slices.Equal(msgs, []string{"ws_open", "shown"}) {
		t.Errorf("messages = %v", msgs)
	}
	if strings.Contains(string(data), key) || strings.Contains(stderr.String(), key) {
		t.Error("key in log")
	}
	if !strings.Contains(stderr.String(), "msg=ws_open") || !strings.Contains(stderr.String(), "msg=shown") {
		t.Errorf("stderr mirror = %q", stderr.String())
	}
	fi, _ := os.Stat(l.Path())
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v", fi.Mode().Perm())
	}
}

func TestRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "yui-x-1.log")
	w, err := NewRotatingWriter(path, 100, 2)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("x", 39) + "\n") // 40 bytes: two per file
	for i := range 9 {
		line[0] = byte('0' + i)
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if _, err := w.Write(line); err == nil {
		t.Error("write after close succeeded")
	}
	// 9 lines, 2 per file: files hold 0-1, 2-3, 4-5, 6-7, 8; only the last three are kept.
	for name, first := range map[string]byte{"yui-x-1.log": '8', "yui-x-1.log.1": '6', "yui-x-1.log.2": '4'} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if b[0] != first || len(b) > 100 {
			t.Errorf("%s starts with %c, %d bytes", name, b[0], len(b))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "yui-x-1.log.3")); err == nil {
		t.Error("a third backup was kept")
	}
}

func TestRotationConcurrent(t *testing.T) {
	dir := t.TempDir()
	w, err := NewRotatingWriter(filepath.Join(dir, "yui-c-1.log"), 1000, 100)
	if err != nil {
		t.Fatal(err)
	}
	l := slog.New(slog.NewJSONHandler(w, nil))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				l.Info("line", "g", g, "i", i)
			}
		})
	}
	wg.Wait()
	w.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "yui-c-1.log*"))
	n := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if len(b) > 1000 {
			t.Errorf("%s is %d bytes", f, len(b))
		}
		for l := range strings.Lines(string(b)) {
			if !json.Valid([]byte(l)) {
				t.Errorf("torn line %q", l)
			}
			n++
		}
	}
	if n != 400 {
		t.Errorf("%d lines, want 400", n)
	}
}

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for i := range 14 {
		n := FileName(time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC), 100+i)
		names = append(names, n)
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
		os.WriteFile(filepath.Join(dir, n+".1"), nil, 0o600)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600)
	current := names[0] // even the oldest-named current log is kept
	if err := Prune(dir, current, 10); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{"notes.txt", current, current + ".1"}
	for _, n := range names[5:] { // the newest 9 others
		want = append(want, n, n+".1")
	}
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("left %v\nwant %v", left, want)
	}
}

func TestDir(t *testing.T) {
	if d, _ := Dir("/tmp/cfg"); d != filepath.Join("/tmp/cfg", "logs") {
		t.Errorf("Dir = %s", d)
	}
	t.Setenv("XDG_CACHE_HOME", "/tmp/cache")
	if d, err := Dir(""); err != nil || !strings.HasSuffix(d, filepath.Join("yui", "logs")) {
		t.Errorf("Dir = %s, %v", d, err)
	}
}

// TestKeyEscapedInAURLIsRedacted: a key with characters a URL escapes
// (as an error naming a request URL prints it) is caught in that form too.
func TestKeyEscapedInAURLIsRedacted(t *testing.T) {
	const k = "sk/abc+def=gh ij"
	var buf bytes.Buffer
	secrets := NewSecrets(k)
	l := slog.New(NewRedactHandler(slog.NewJSONHandler(NewScrubWriter(&buf, secrets), nil), secrets))
	u := "https://api.example.com/v1/" + url.PathEscape(k) + "/models?key=" + url.QueryEscape(k)
	l.Warn("request_failed", "err", fmt.Errorf("Get %q: dial tcp: refused", u), "url", u)
	l.Warn(u)
	out := buf.String()
	for _, form := range []string{k, url.PathEscape(k), url.QueryEscape(k), "abc+def", "abc%2Bdef"} {
		if strings.Contains(out, form) {
			t.Errorf("%q in log:\n%s", form, out)
		}
	}
	if strings.Count(out, Redacted) < 3 {
		t.Errorf("not redacted:\n%s", out)
	}
}
