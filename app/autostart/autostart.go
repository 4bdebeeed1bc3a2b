// Package autostart starts Yui when the user logs in: an XDG autostart
// entry on Linux and the BSDs, the per-user Run key on Windows, a
// LaunchAgent on macOS. Set writes or removes it; nothing else touches it.
package autostart

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Name is the entry's name: the desktop file's, the Run value's, the
// LaunchAgent's label.
const Name = "yui"

// Entry is where one platform keeps the start-at-login entry.
type Entry interface {
	// Enable makes the user's login start exe with args, replacing an
	// entry there was.
	Enable(exe string, args []string) error
	// Disable removes the entry; no entry is no error.
	Disable() error
	// Enabled reports whether the entry is there.
	Enabled() (bool, error)
}

// Set enables or disables e for exe.
func Set(e Entry, on bool, exe string, args []string) error {
	if on {
		return e.Enable(exe, args)
	}
	return e.Disable()
}

// XDG is the autostart entry of the XDG Autostart specification:
// Dir/yui.desktop, Dir being $XDG_CONFIG_HOME/autostart.
type XDG struct{ Dir string }

// XDGDir is the autostart folder: $XDG_CONFIG_HOME/autostart, else
// ~/.config/autostart.
func XDGDir() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "autostart"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("autostart: no home folder: %w", err)
	}
	return filepath.Join(home, ".config", "autostart"), nil
}

func (x XDG) path() string { return filepath.Join(x.Dir, Name+".desktop") }

// Enable writes the desktop entry.
func (x XDG) Enable(exe string, args []string) error {
	if err := os.MkdirAll(x.Dir, 0o755); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	cmd := []string{execQuote(exe)}
	for _, a := range args {
		cmd = append(cmd, execQuote(a))
	}
	body := "[Desktop Entry]\nType=Application\nName=Yui\nComment=Desktop companion\n" +
		"Exec=" + strings.Join(cmd, " ") + "\nTerminal=false\nX-GNOME-Autostart-enabled=true\n"
	tmp := x.path() + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	if err := os.Rename(tmp, x.path()); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

// Disable removes the desktop entry.
func (x XDG) Disable() error { return remove(x.path()) }

// Enabled reports whether the desktop entry is there.
func (x XDG) Enabled() (bool, error) { return exists(x.path()) }

// execQuote quotes an argument of the Exec key as the Desktop Entry
// specification asks: in double quotes when it holds a reserved
// character, with `"`, "`", "$" and "\" escaped, and "%" doubled.
func execQuote(s string) string {
	s = strings.ReplaceAll(s, "%", "%%")
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`=") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)
	return `"` + r.Replace(s) + `"`
}

// LaunchAgent is the macOS entry: Dir/io.github.yui.plist, Dir being
// ~/Library/LaunchAgents.
type LaunchAgent struct{ Dir string }

func (l LaunchAgent) path() string { return filepath.Join(l.Dir, "io.github."+Name+".plist") }

// Enable writes the LaunchAgent.
func (l LaunchAgent) Enable(exe string, args []string) error {
	if err := os.MkdirAll(l.Dir, 0o755); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n" +
		"<plist version=\"1.0\">\n<dict>\n\t<key>Label</key>\n\t<string>io.github." + Name + "</string>\n" +
		"\t<key>ProgramArguments</key>\n\t<array>\n")
	for _, a := range append([]string{exe}, args...) {
		b.WriteString("\t\t<string>" + xmlEscape(a) + "</string>\n")
	}
	b.WriteString("\t</array>\n\t<key>RunAtLoad</key>\n\t<true/>\n</dict>\n</plist>\n")
	if err := os.WriteFile(l.path(), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

// Disable removes the LaunchAgent.
func (l LaunchAgent) Disable() error { return remove(l.path()) }

// Enabled reports whether the LaunchAgent is there.
func (l LaunchAgent) Enabled() (bool, error) { return exists(l.path()) }

func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("autostart: %w", err)
}

// remove removes path; a missing file is no error.
func remove(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(s)
}
