package app

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/pet/character"
	"yui/pet/settings"
)

// writeTestPack writes a small pack mochi whose "happy" face, outside the
// first frame, is corrupt past a valid header when broken is set.
func writeTestPack(t *testing.T, configDir string, broken bool) {
	t.Helper()
	dir := character.Dir(configDir, "mochi")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 32, 32))); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	happy := good
	if broken {
		happy = good[:len(good)-20] // the header and part of the data
	}
	motion := map[string]any{"frames": []string{"a.png"}, "fps": 4, "loop": true}
	m := map[string]any{"id": "mochi", "name": "Mochi", "size": []int{16, 16},
		"emotions":          map[string]string{"neutral": "a.png", "happy": "b.png"},
		"motions":           map[string]any{"idle": motion, "thinking": motion, "talk": motion, "walk": motion, "sit": motion, "fall": motion},
		"emotion_text_mode": "free"}
	data, _ := json.Marshal(m)
	for name, b := range map[string][]byte{"character.json": data, "a.png": good, "b.png": happy} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Start-up reads each starting character once and hands it to the first
// session that asks; a second ask, or a character nobody started, reads
// nothing from start-up.
func TestPackLoadsTakenOnce(t *testing.T) {
	cfg := t.TempDir()
	writeTestPack(t, cfg, false)
	st := settings.Settings{Presets: []settings.Preset{
		{ID: "a", Enabled: true, Character: "mochi"},
		{ID: "b", Enabled: true, Character: "mochi"},
		{ID: "c", Enabled: false, Character: "mint"},
	}}
	l := startPackLoads(cfg, startingPresets(st, false))
	defer l.wait()
	ld, ok := l.take("mochi")
	if !ok || ld.err != nil || ld.quick.First.ID != "mochi" {
		t.Fatalf("take(mochi) = %+v, %v", ld, ok)
	}
	if _, ok := l.take("mochi"); ok {
		t.Error("a second session took the same load")
	}
	if _, ok := l.take("mint"); ok {
		t.Error("a disabled preset's character was read")
	}
	if _, ok := (*packLoads)(nil).take("mochi"); ok {
		t.Error("a nil packLoads gave a load")
	}
	if demo := startingPresets(st, true); len(demo) != 1 || demo[0].Character != settings.DefaultCharacter {
		t.Errorf("demo start reads %+v", demo)
	}
}

// An image that breaks past a valid header shows only once the rest is
// decoded, after the window showed: the default character stands in and
// the pet says why, as a refusal at start would.
func TestRestOfRefusesLate(t *testing.T) {
	for _, broken := range []bool{false, true} {
		cfg := t.TempDir()
		writeTestPack(t, cfg, broken)
		q, err := character.SelectQuick(cfg, "mochi")
		if err != nil {
			t.Fatal(err)
		}
		s := &session{log: slog.New(slog.DiscardHandler)}
		s.setPreset(settings.Preset{ID: "a", Character: "mochi"})
		full, notice := s.restOf(q)
		switch {
		case !broken && (full.ID != "mochi" || notice != ""):
			t.Errorf("good pack: %s, notice %q", full.ID, notice)
		case broken && (full.ID != character.DefaultID || !strings.Contains(notice, `"mochi" could not be used`) || !strings.Contains(notice, "b.png")):
			t.Errorf("broken pack: %s, notice %q", full.ID, notice)
		}
	}
}
