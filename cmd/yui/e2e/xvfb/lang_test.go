//go:build e2e

package xvfb

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"yui/cmd/yui/e2e/harness"
)

// langEnv is the display's environment in the locale lang, with any
// LC_ALL, LC_MESSAGES or LANGUAGE of the test's own cleared.
func langEnv(d *harness.Display, lang string, more ...string) []string {
	return append(append(d.Env(), "LANG="+lang, "LC_ALL=", "LC_MESSAGES=", "LANGUAGE="), more...)
}

// runYui starts bin/yui --demo with env and config dir dir, waits until the
// record named until (matching fields) is logged, screenshots the display
// and stops it; it returns the log and the process's output.
func runYui(t *testing.T, d *harness.Display, env []string, dir, shot, until string, fields map[string]string) ([]harness.Record, string) {
	t.Helper()
	p := harness.Start(t, env, filepath.Join(harness.BinDir(t), "yui"), "--config-dir", dir, "--demo")
	logs := harness.NewLogTail(filepath.Join(dir, "logs"))
	var recs []harness.Record
	harness.WaitFor(t, 30*time.Second, until, func() bool {
		recs = append(recs, logs.All()...)
		_, ok := harness.FindRecord(recs, until, fields)
		return ok
	})
	harness.WaitFor(t, 20*time.Second, "the pet window", func() bool {
		recs = append(recs, logs.All()...)
		_, ok := harness.FindRecord(recs, "pet_pill", nil)
		return ok
	})
	d.Screenshot(t, shot)
	p.Stop()
	recs = append(recs, logs.All()...)
	return recs, p.Output()
}

// TestLanguageFollowsTheSystemAndTheSetting runs the real binary under
// LANG=ja_JP.UTF-8, ko_KR.UTF-8 and zh_CN.UTF-8: the language is the
// system's, a CJK font is found, the first start's system voice is the
// language's (espeak-ng), and nothing on stderr is Fyne's about the
// locale or a missing translation. Then the language setting wins over
// the system's, and with no CJK font (an empty fontconfig) the app logs
// what to install.
func TestLanguageFollowsTheSystemAndTheSetting(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	for _, c := range []struct{ lang, code, voice string }{
		{"ja_JP.UTF-8", "ja", "ja"}, {"ko_KR.UTF-8", "ko", "ko"}, {"zh_CN.UTF-8", "zh-Hans", "cmn"},
	} {
		dir := t.TempDir()
		recs, out := runYui(t, d, langEnv(d, c.lang), dir, "lang-"+c.code, "cjk_font", map[string]string{"language": c.code})
		if _, ok := harness.FindRecord(recs, "language", map[string]string{"using": c.code}); !ok {
			t.Errorf("%s: no language harness.Record using %s", c.lang, c.code)
		}
		if _, ok := harness.FindRecord(recs, "first_start_voice", map[string]string{"voice": c.voice}); !ok {
			t.Errorf("%s: the first start's voice is not %s", c.lang, c.voice)
		}
		for _, bad := range []string{"Error parsing user locale", "Translation failure"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: the output has %q:\n%s", c.lang, bad, harness.Tail(out, 2000))
			}
		}
		if c.code != "ja" {
			continue
		}
		// The setting wins: German under a Japanese system.
		file := filepath.Join(dir, "settings.json")
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var st map[string]any
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatal(err)
		}
		st["language"] = "de"
		raw, _ = json.Marshal(st)
		if err := os.WriteFile(file, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		runYui(t, d, langEnv(d, c.lang), dir, "lang-setting-de", "language", map[string]string{"using": "de"})
	}
	// No CJK font: fontconfig that knows no fonts.
	conf := filepath.Join(t.TempDir(), "fonts.conf")
	if err := os.WriteFile(conf, []byte(`<?xml version="1.0"?><fontconfig><cachedir>`+t.TempDir()+
		`</cachedir></fontconfig>`), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, _ := runYui(t, d, langEnv(d, "ja_JP.UTF-8", "FONTCONFIG_FILE="+conf), t.TempDir(), "lang-no-font",
		"cjk_font_missing", map[string]string{"language": "ja", "install": "fonts-noto-cjk"})
	if _, ok := harness.FindRecord(recs, "cjk_font", nil); ok {
		t.Error("a CJK font was found with no fonts")
	}
}
