package gnome

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Runner runs a program and returns its standard output; the error
// carries what it wrote on standard error.
type Runner func(ctx context.Context, name string, args ...string) ([]byte, error)

// Setup installs and enables the extension for one user. Home and DataHome
// (XDG_DATA_HOME, "" for Home's .local/share) say where; SystemDirs are
// where a package puts extensions for everyone (/usr/share's, by
// default); Run runs gsettings, gnome-shell and gnome-extensions; Bus
// tells whether a session bus is there (DBUS_SESSION_BUS_ADDRESS), without
// which gsettings runs inside dbus-run-session, so that the setting
// reaches the user's dconf database and not a memory that ends with it.
type Setup struct {
	Home, DataHome string
	SystemDirs     []string
	Run            Runner
	Bus            bool
}

// State is what setup finds.
type State struct {
	Shell      int    // GNOME Shell's major version, 0 when not installed
	UserDir    string // the user's copy, "" when none
	UserFresh  bool   // the user's copy is this binary's
	SystemDir  string // a package's copy, "" when none
	Enabled    bool   // the UUID is in org.gnome.shell enabled-extensions
	ShellRuns  bool   // GNOME Shell answers on the session bus
	ExtRunning bool   // the extension's bus name has an owner (set by the caller)
}

// Installed reports whether a copy the shell loads is there.
func (s State) Installed() bool { return s.UserFresh || s.SystemDir != "" }

// Missing says in one line what is missing, "" when nothing is.
func (s State) Missing() string {
	switch {
	case s.Shell == 0:
		return "GNOME Shell is not installed"
	case !s.Installed():
		return "Yui's GNOME Shell extension is not installed: run `yui desktop setup` or use Install"
	case !s.Enabled:
		return "Yui's GNOME Shell extension is installed but not enabled: run `yui desktop setup`"
	}
	return ""
}

// userDir is the user's extension folder.
func (s Setup) userDir() string {
	data := s.DataHome
	if data == "" {
		data = filepath.Join(s.Home, ".local", "share")
	}
	return filepath.Join(data, "gnome-shell", "extensions", UUID)
}

func (s Setup) systemDirs() []string {
	if s.SystemDirs != nil {
		return s.SystemDirs
	}
	return []string{"/usr/local/share/gnome-shell/extensions", "/usr/share/gnome-shell/extensions"}
}

var shellVersion = regexp.MustCompile(`GNOME Shell (\d+)`)

// Inspect reads the state: the shell's version, the copies, the setting.
func (s Setup) Inspect(ctx context.Context) State {
	var st State
	if out, err := s.Run(ctx, "gnome-shell", "--version"); err == nil {
		if m := shellVersion.FindSubmatch(out); m != nil {
			st.Shell, _ = strconv.Atoi(string(m[1]))
		}
	}
	if st.Shell > 0 && s.same(s.userDir(), st.Shell) {
		st.UserDir, st.UserFresh = s.userDir(), true
	} else if _, err := os.Stat(s.userDir()); err == nil {
		st.UserDir = s.userDir()
	}
	for _, d := range s.systemDirs() {
		if _, err := os.Stat(filepath.Join(d, UUID, "metadata.json")); err == nil {
			st.SystemDir = filepath.Join(d, UUID)
			break
		}
	}
	if list, err := s.enabled(ctx); err == nil {
		st.Enabled = contains(list, UUID)
	}
	if s.Bus {
		_, err := s.Run(ctx, "gnome-extensions", "list")
		st.ShellRuns = err == nil
	}
	return st
}

// same reports whether dir holds this binary's files for shell.
func (s Setup) same(dir string, shell int) bool {
	for name, want := range Files(shell) {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			return false
		}
	}
	return true
}

// Install writes the user's copy (unless it is there already, or a
// package's is) and enables it; it returns what it did, a line each.
func (s Setup) Install(ctx context.Context) ([]string, error) {
	st := s.Inspect(ctx)
	if st.Shell == 0 {
		return nil, errors.New("GNOME Shell is not installed (gnome-shell --version did not answer)")
	}
	var did []string
	switch {
	case st.UserFresh:
		did = append(did, "the extension is installed already in "+st.UserDir)
	case st.SystemDir != "" && st.UserDir == "":
		did = append(did, "the extension is installed for every user in "+st.SystemDir)
	default:
		if err := s.write(st.Shell); err != nil {
			return did, err
		}
		did = append(did, fmt.Sprintf("installed the extension %s (GNOME Shell %d's module format) in %s", UUID, st.Shell, s.userDir()))
	}
	if st.Enabled {
		did = append(did, "it is enabled already (org.gnome.shell enabled-extensions)")
	} else {
		if err := s.setEnabled(ctx, true); err != nil {
			return did, err
		}
		did = append(did, "enabled it (org.gnome.shell enabled-extensions)")
	}
	if st.ShellRuns {
		// A shell that runs loads a new extension from the next login
		// (Wayland cannot restart the shell in place); one it knows
		// already, enabled here, starts at once.
		if _, err := s.Run(ctx, "gnome-extensions", "enable", UUID); err == nil {
			did = append(did, "GNOME Shell runs it now")
		} else {
			did = append(did, "GNOME Shell runs a newly installed extension from your next login: log out and in again")
		}
	} else {
		did = append(did, "GNOME Shell runs it from its next start (your next login)")
	}
	return did, nil
}

// write puts the files in the user's folder.
func (s Setup) write(shell int) error { return WriteInto(s.userDir(), shell) }

// WriteInto writes the extension's files for GNOME Shell major version
// shell into dir (the extension's own folder: a package's
// /usr/share/gnome-shell/extensions/<UUID>), each through a temporary
// file renamed over the old, so that a shell reading them never sees half.
func WriteInto(dir string, shell int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("install the GNOME Shell extension: %w", err)
	}
	for name, body := range Files(shell) {
		tmp := filepath.Join(dir, "."+name+".tmp")
		if err := os.WriteFile(tmp, body, 0o644); err != nil {
			return fmt.Errorf("install the GNOME Shell extension: %w", err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("install the GNOME Shell extension: %w", err)
		}
	}
	return nil
}

// Remove disables the extension and deletes the user's copy (a package's
// stays, the package's to remove); it returns what it did.
func (s Setup) Remove(ctx context.Context) ([]string, error) {
	var did []string
	list, err := s.enabled(ctx)
	if err == nil && contains(list, UUID) {
		if s.Bus {
			_, _ = s.Run(ctx, "gnome-extensions", "disable", UUID) // a running shell stops it now
		}
		if err := s.setEnabled(ctx, false); err != nil {
			return did, err
		}
		did = append(did, "disabled the extension (org.gnome.shell enabled-extensions)")
	}
	if _, err := os.Stat(s.userDir()); err == nil {
		if err := os.RemoveAll(s.userDir()); err != nil {
			return did, fmt.Errorf("remove the GNOME Shell extension: %w", err)
		}
		did = append(did, "removed "+s.userDir())
	}
	if len(did) == 0 {
		did = append(did, "the extension was neither installed for you nor enabled: nothing to undo")
	}
	return did, nil
}

// gsettings runs gsettings, inside a session bus of its own when there is
// none (dconf writes through one).
func (s Setup) gsettings(ctx context.Context, args ...string) ([]byte, error) {
	if s.Bus {
		return s.Run(ctx, "gsettings", args...)
	}
	return s.Run(ctx, "dbus-run-session", append([]string{"--", "gsettings"}, args...)...)
}

// enabled is org.gnome.shell enabled-extensions.
func (s Setup) enabled(ctx context.Context) ([]string, error) {
	out, err := s.gsettings(ctx, "get", "org.gnome.shell", "enabled-extensions")
	if err != nil {
		return nil, fmt.Errorf("read org.gnome.shell enabled-extensions: %w", err)
	}
	return ParseStrv(string(out))
}

// setEnabled adds the UUID to enabled-extensions (and takes it out of
// disabled-extensions), or takes it out.
func (s Setup) setEnabled(ctx context.Context, on bool) error {
	list, err := s.enabled(ctx)
	if err != nil {
		return err
	}
	list = without(list, UUID)
	if on {
		list = append(list, UUID)
		if off, err := s.readStrv(ctx, "disabled-extensions"); err == nil && contains(off, UUID) {
			if _, err := s.gsettings(ctx, "set", "org.gnome.shell", "disabled-extensions", FormatStrv(without(off, UUID))); err != nil {
				return fmt.Errorf("write org.gnome.shell disabled-extensions: %w", err)
			}
		}
	}
	if _, err := s.gsettings(ctx, "set", "org.gnome.shell", "enabled-extensions", FormatStrv(list)); err != nil {
		return fmt.Errorf("write org.gnome.shell enabled-extensions: %w", err)
	}
	return nil
}

func (s Setup) readStrv(ctx context.Context, key string) ([]string, error) {
	out, err := s.gsettings(ctx, "get", "org.gnome.shell", key)
	if err != nil {
		return nil, err
	}
	return ParseStrv(string(out))
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

func without(list []string, v string) []string {
	out := list[:0:0]
	for _, s := range list {
		if s != v {
			out = append(out, s)
		}
	}
	return out
}

// ParseStrv reads gsettings' printing of a string array: "['a', 'b']" or
// "@as []". Strings are single- or double-quoted with backslash escapes.
func ParseStrv(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(s, "@as"))
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, fmt.Errorf("not a string array: %q", s)
	}
	body := s[1 : len(s)-1]
	var out []string
	for i := 0; i < len(body); {
		switch c := body[i]; {
		case c == ' ' || c == ',':
			i++
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(body) && body[j] != c; j++ {
				if body[j] == '\\' && j+1 < len(body) {
					j++
				}
				b.WriteByte(body[j])
			}
			if j >= len(body) {
				return nil, fmt.Errorf("unterminated string in %q", s)
			}
			out = append(out, b.String())
			i = j + 1
		default:
			return nil, fmt.Errorf("unexpected %q in %q", c, s)
		}
	}
	return out, nil
}

// FormatStrv writes a string array as gsettings reads it.
func FormatStrv(list []string) string {
	parts := make([]string, len(list))
	for i, v := range list {
		parts[i] = "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
