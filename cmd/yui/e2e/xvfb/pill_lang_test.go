//go:build e2e

package xvfb

import (
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"yui/cmd/yui/e2e/harness"
	"yui/pet/settings"
	"yui/windows/i18n"
)

// countdownSegment is a pill segment such as "reconnecting in 3 s".
var countdownSegment = regexp.MustCompile(`^(.+) in (\d+) s$`)

// japanesePill is the pill's English text (the pet_pill record's conn) as
// the Japanese window shows it, segment by segment from ja.json, as
// windows/petwindow/pilltext.go translates it; ok is false when a segment
// has no translation.
func japanesePill(t *testing.T, conn string) (string, bool) {
	t.Helper()
	msgs, err := i18n.Messages(settings.LanguageJapanese)
	if err != nil {
		t.Fatal(err)
	}
	ok := true
	parts := strings.Split(conn, " · ")
	for i, p := range parts {
		if s, found := msgs[p]; found {
			parts[i] = s
			continue
		}
		m := countdownSegment.FindStringSubmatch(p)
		what, found := "", false
		if m != nil {
			what, found = msgs[m[1]]
		}
		if !found {
			ok = false
			continue
		}
		r := strings.NewReplacer("{{.What}}", what, "{{.N}}", m[2])
		parts[i] = r.Replace(msgs["{{.What}} in {{.N}} s"])
	}
	return strings.Join(parts, " · "), ok
}

// TestPillInJapanese runs the app under LANG=ja_JP.UTF-8 against the
// simulator: the pill says "ready" and, with the simulator gone,
// "reconnecting in N s" in Japanese, every rune of which the CJK font the
// app found (its cjk_font record) has a glyph for, and the pill under the
// character shows text by a dot of the state's colour. The screenshots are
// pill-ja-ready and pill-ja-reconnecting.
func TestPillInJapanese(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	p := harness.PushPreset("p-11110001", "Yui", s, "k1")
	p.Life = harness.QuietLife()
	harness.WriteSettings(t, cfg, p)
	a := harness.WatchApp(t, d, cfg, harness.Start(t, langEnv(d, "ja_JP.UTF-8"),
		filepath.Join(harness.BinDir(t), "yui"), "--config-dir", cfg))
	fr := a.WaitRecord(30*time.Second, "cjk_font", map[string]string{"language": "ja"})
	idx, _ := fr["index"].(float64)
	font, err := i18n.LoadFont(fr.Str("path"), int(idx))
	if err != nil {
		t.Fatal(err)
	}
	check := func(state string) {
		t.Helper()
		rec := a.WaitRecord(30*time.Second, "pet_pill", map[string]string{"state": state})
		shown := rec.Str("conn")
		if audio := rec.Str("audio"); audio != "" {
			shown += " · " + audio // the no-audio notice, shown once after the state
		}
		ja, ok := japanesePill(t, shown)
		if !ok {
			t.Errorf("pill %q: a segment has no Japanese", rec.Str("conn"))
		}
		if !strings.ContainsFunc(ja, func(r rune) bool { return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) }) {
			t.Errorf("pill %q in Japanese is %q: no Japanese in it", rec.Str("conn"), ja)
		}
		t.Logf("pill %q in Japanese: %q", shown, ja)
		if m := font.Missing(ja); len(m) > 0 {
			t.Errorf("pill %q: the font %s lacks glyphs %q", ja, font.Path, string(m))
		}
	}
	win := a.PetRect()
	// The pill is under the character, in the window's lowest quarter;
	// the character above it blinks and breathes.
	pill := image.Rect(win.Min.X, win.Max.Y-win.Dy()/4, win.Max.X, win.Max.Y)
	check("ready")
	// A record is logged as the view is laid out, a frame or more before
	// the screen shows it: each shot waits for the pill's dot to take the
	// state's colour, with the pill's light text beside it.
	d.WaitShot(t, "pill-ja-ready", 10*time.Second, pillShows(pill, readyDot))
	s.Proc.Stop()
	check("reconnecting")
	d.WaitShot(t, "pill-ja-reconnecting", 10*time.Second, pillShows(pill, waitingDot))
}

// The pill's dot: green when ready, amber while connecting or
// reconnecting (windows/petwindow's status colours).
var (
	readyDot   = color.NRGBA{0x3c, 0xc8, 0x6a, 0xff}
	waitingDot = color.NRGBA{0xf0, 0xb4, 0x32, 0xff}
)

// pillShows is a WaitShot check: inside r, the dot of colour dot and
// light text (near: shimeji_test.go).
func pillShows(r image.Rectangle, dot color.NRGBA) func(image.Image) error {
	return func(img image.Image) error {
		dots, light := 0, 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				if near(c, dot) {
					dots++
				}
				if color.GrayModel.Convert(c).(color.Gray).Y > 170 {
					light++
				}
			}
		}
		if dots < 10 || light < 50 {
			return fmt.Errorf("the pill under the character: %d pixels of its dot %v, %d of text", dots, dot, light)
		}
		return nil
	}
}
