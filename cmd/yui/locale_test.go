package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"early/localeenv"
)

// childEnv makes the test binary a child that reports its locale.
const childEnv = "YUI_TEST_LOCALE_CHILD"

// TestCLocaleIsQuiet: under LANG=C.UTF-8, POSIX or no locale at all, the
// binary's packages (Fyne's lang among them) initialise without Fyne's
// "Error parsing user locale" lines, and after Restore the process holds
// the user's values again, so child processes inherit them.
func TestCLocaleIsQuiet(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		localeenv.Restore()
		os.Stdout.WriteString("LANG=" + os.Getenv("LANG") + "\n")
		return
	}
	for _, lang := range []string{"C.UTF-8", "POSIX.UTF-8", "C", ""} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCLocaleIsQuiet$", "-test.count=1")
		cmd.Env = append(withoutLocale(os.Environ()), childEnv+"=1", "LANG="+lang)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("LANG=%q: %v\n%s", lang, err, out)
		}
		if strings.Contains(string(out), "Error parsing user locale") {
			t.Errorf("LANG=%q: Fyne logged the locale:\n%s", lang, out)
		}
		if !strings.Contains(string(out), "LANG="+lang+"\n") {
			t.Errorf("LANG=%q: after Restore the child has another LANG:\n%s", lang, out)
		}
	}
}

func withoutLocale(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name != "LANG" && !strings.HasPrefix(name, "LC_") && name != "LANGUAGE" {
			out = append(out, kv)
		}
	}
	return out
}

func TestUnparsable(t *testing.T) {
	for v, want := range map[string]bool{"C": false, "POSIX": false, "": false, "C.UTF-8": true,
		"POSIX.UTF-8": true, "ja_JP.UTF-8": false, "de_DE@euro": false, "en": false, "1_X": true} {
		if got := localeenv.Unparsable(v); got != want {
			t.Errorf("Unparsable(%q) = %v, want %v", v, got, want)
		}
	}
}
