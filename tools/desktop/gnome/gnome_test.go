package gnome

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFilesFormats(t *testing.T) {
	for _, c := range []struct {
		shell int
		want  string
	}{{43, "function init()"}, {44, "imports.gi"}, {45, "export default class"}, {47, "import Gio from 'gi://Gio'"}} {
		js := string(Files(c.shell)["extension.js"])
		if !strings.Contains(js, c.want) || !strings.Contains(js, "class YuiWindowsService") || strings.Contains(js, coreMark) {
			t.Errorf("shell %d: extension.js lacks %q or the core", c.shell, c.want)
		}
		if !strings.Contains(string(Files(c.shell)["metadata.json"]), `"uuid": "`+UUID+`"`) {
			t.Errorf("shell %d: metadata.json names no uuid", c.shell)
		}
	}
}

func TestStrv(t *testing.T) {
	for in, want := range map[string][]string{
		"@as []":         nil,
		"['a@b', 'c']":   {"a@b", "c"},
		`["x", 'it\'s']`: {"x", "it's"},
		"[]\n":           nil,
	} {
		got, err := ParseStrv(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseStrv(%q) = %q, %v", in, got, err)
		}
		back, err := ParseStrv(FormatStrv(want))
		if err != nil || !slices.Equal(back, want) {
			t.Errorf("round trip of %q = %q, %v", want, back, err)
		}
	}
	for _, bad := range []string{"", "['a", "[a]", "nothing"} {
		if _, err := ParseStrv(bad); err == nil {
			t.Errorf("ParseStrv(%q) took it", bad)
		}
	}
}

func FuzzParseStrv(f *testing.F) {
	f.Add("['a', 'b']")
	f.Add(`@as ["x\"y"]`)
	f.Fuzz(func(t *testing.T, s string) {
		list, err := ParseStrv(s)
		if err != nil {
			return
		}
		back, err := ParseStrv(FormatStrv(list))
		if err != nil || !slices.Equal(back, list) {
			t.Fatalf("%q: round trip %q, %v", s, back, err)
		}
	})
}

// fakeShell answers gnome-shell --version and keeps the settings.
type fakeShell struct {
	settings map[string]string
	calls    []string
}

func (f *fakeShell) run(_ context.Context, name string, args ...string) ([]byte, error) {
	f.calls = append(f.calls, name+" "+strings.Join(args, " "))
	switch {
	case name == "gnome-shell":
		return []byte("GNOME Shell 43.9\n"), nil
	case name == "gsettings" && args[0] == "get":
		v, ok := f.settings[args[2]]
		if !ok {
			v = "@as []"
		}
		return []byte(v + "\n"), nil
	case name == "gsettings" && args[0] == "set":
		f.settings[args[2]] = args[3]
		return nil, nil
	}
	return nil, errors.New("not running")
}

func TestInstallRemove(t *testing.T) {
	home := t.TempDir()
	f := &fakeShell{settings: map[string]string{"enabled-extensions": "['other@x']"}}
	s := Setup{Home: home, SystemDirs: []string{filepath.Join(home, "none")}, Run: f.run, Bus: true}
	did, err := s.Install(context.Background())
	if err != nil || !strings.Contains(strings.Join(did, "\n"), "installed the extension") {
		t.Fatalf("Install = %q, %v", did, err)
	}
	if got := f.settings["enabled-extensions"]; got != "['other@x', '"+UUID+"']" {
		t.Fatalf("enabled-extensions = %s", got)
	}
	dir := filepath.Join(home, ".local/share/gnome-shell/extensions", UUID)
	if _, err := os.Stat(filepath.Join(dir, "extension.js")); err != nil {
		t.Fatal(err)
	}
	// Idempotent: the second run changes nothing and says so.
	did, err = s.Install(context.Background())
	if err != nil || !strings.Contains(strings.Join(did, "\n"), "installed already") || !strings.Contains(strings.Join(did, "\n"), "enabled already") {
		t.Fatalf("second Install = %q, %v", did, err)
	}
	if st := s.Inspect(context.Background()); st.Missing() != "" || st.Shell != 43 {
		t.Fatalf("state after install: %+v (%s)", st, st.Missing())
	}
	did, err = s.Remove(context.Background())
	if err != nil || len(did) != 2 {
		t.Fatalf("Remove = %q, %v", did, err)
	}
	if got := f.settings["enabled-extensions"]; got != "['other@x']" {
		t.Fatalf("enabled-extensions after remove = %s", got)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the folder stays: %v", err)
	}
	if st := s.Inspect(context.Background()); !strings.Contains(st.Missing(), "not installed") {
		t.Fatalf("state after remove: %s", st.Missing())
	}
}

func TestNoBusWrapsGsettings(t *testing.T) {
	f := &fakeShell{settings: map[string]string{}}
	s := Setup{Home: t.TempDir(), Run: f.run}
	_, _ = s.enabled(context.Background())
	if len(f.calls) != 1 || !strings.HasPrefix(f.calls[0], "dbus-run-session -- gsettings get") {
		t.Fatalf("calls = %q", f.calls)
	}
}

// A package's copy: written into a system folder, setup finds it, installs
// no copy of the user's and enables it.
func TestSystemCopy(t *testing.T) {
	home, sys := t.TempDir(), t.TempDir()
	if err := WriteInto(filepath.Join(sys, UUID), 43); err != nil {
		t.Fatal(err)
	}
	f := &fakeShell{settings: map[string]string{}}
	s := Setup{Home: home, SystemDirs: []string{sys}, Run: f.run, Bus: true}
	did, err := s.Install(context.Background())
	if err != nil || !strings.Contains(strings.Join(did, "\n"), "for every user in "+filepath.Join(sys, UUID)) {
		t.Fatalf("Install = %q, %v", did, err)
	}
	if _, err := os.Stat(filepath.Join(home, ".local/share/gnome-shell/extensions", UUID)); !os.IsNotExist(err) {
		t.Fatalf("a user's copy beside the package's: %v", err)
	}
	if st := s.Inspect(context.Background()); st.Missing() != "" {
		t.Fatalf("missing: %s", st.Missing())
	}
}
