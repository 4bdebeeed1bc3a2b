package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"yui/pet/settings"

	"yui/tools/desktop"
	"yui/tools/desktop/gnome"
	"yui/windows"
)

// What a Wayland desktop needs for Yui to see its native windows
// (docs/install.md): on GNOME Shell Yui's extension, installed and
// enabled for the user (`yui desktop setup`, the App tab's Install); on
// KDE Plasma nothing (Yui loads its KWin script at run time); on X11
// nothing.

// setupTimeout bounds one program setup runs (gsettings, gnome-shell
// --version): a hung one must not hang the command or the App tab.
const setupTimeout = 20 * time.Second

// runProgram runs a program for the GNOME setup, its stderr in the error.
func runProgram(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// gnomeSetup is the GNOME extension's setup for this user.
func gnomeSetup() gnome.Setup {
	home, _ := os.UserHomeDir()
	return gnome.Setup{Home: home, DataHome: os.Getenv("XDG_DATA_HOME"), Run: runProgram,
		Bus: os.Getenv("DBUS_SESSION_BUS_ADDRESS") != ""}
}

// DesktopState is the desktop as the App tab and `yui desktop setup`
// describe it.
type DesktopState struct {
	Session string // "GNOME (Wayland)", "KDE Plasma (Wayland)", "X11", "Wayland"
	Kind    string // desktop.SessionKind: "gnome", "kde", ""
	Gnome   gnome.State
	// Missing says what is missing and why, "" when nothing is.
	Missing string
	// CanInstall is true when Install would help (GNOME Shell, the
	// extension not installed or not enabled).
	CanInstall bool
}

// InspectDesktop reads the session and, on GNOME, the extension's state.
func InspectDesktop(ctx context.Context) DesktopState {
	kind := desktop.SessionKind(os.Getenv)
	st := DesktopState{Kind: kind}
	wayland := os.Getenv("XDG_SESSION_TYPE") == "wayland" || os.Getenv("WAYLAND_DISPLAY") != ""
	switch {
	case kind == "gnome":
		st.Session = "GNOME (Wayland)"
		st.Gnome = gnomeSetup().Inspect(ctx)
		st.Missing = st.Gnome.Missing()
		st.CanInstall = st.Gnome.Shell > 0 && st.Missing != ""
		if st.Missing != "" {
			st.Missing += ": until then Yui sees only XWayland's windows, not the native ones"
		}
	case kind == "kde":
		st.Session = "KDE Plasma (Wayland)"
	case wayland:
		st.Session = "Wayland (" + os.Getenv("XDG_CURRENT_DESKTOP") + ")"
		st.Missing = "this compositor tells Yui nothing of its windows: Yui sees only XWayland's windows, and the private-window rule cannot see native ones"
	default:
		st.Session = "X11"
	}
	return st
}

// DesktopSetup is `yui desktop setup`: it installs and enables what the
// session needs, or with remove undoes it, and prints what it did. With
// forceGnome it installs GNOME's extension whatever the session (from a
// console, before logging in to GNOME).
func DesktopSetup(ctx context.Context, w io.Writer, remove, forceGnome bool) error {
	st := InspectDesktop(ctx)
	fmt.Fprintf(w, "session: %s\n", st.Session)
	var did []string
	var err error
	switch {
	case remove:
		// Undone wherever it was done, whatever the session now.
		did, err = gnomeSetup().Remove(ctx)
	case st.Kind == "gnome" || forceGnome:
		did, err = InstallGnome(ctx)
	case st.Kind == "kde":
		did = []string{"KDE Plasma needs nothing installed: Yui loads its KWin script when it starts and unloads it when it ends"}
	case st.Session == "X11":
		did = []string{"an X11 session needs nothing installed: Yui reads the windows through X11"}
	default:
		did = []string{"nothing to install: " + st.Missing}
	}
	for _, l := range did {
		fmt.Fprintln(w, l)
	}
	return err
}

// WriteGnomeExtension writes the extension's files for GNOME Shell major
// version shell (0: the installed one's) into dir/<UUID>, enabling
// nothing: for a package that installs it for every user.
func WriteGnomeExtension(ctx context.Context, w io.Writer, dir string, shell int) error {
	if shell == 0 {
		if shell = gnomeSetup().Inspect(ctx).Shell; shell == 0 {
			return fmt.Errorf("GNOME Shell is not installed: name its version with --shell")
		}
	}
	into := filepath.Join(dir, gnome.UUID)
	if err := gnome.WriteInto(into, shell); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote the extension %s (GNOME Shell %d's module format) in %s; each user enables it with yui desktop setup\n", gnome.UUID, shell, into)
	return nil
}

// InstallGnome installs and enables the GNOME Shell extension.
func InstallGnome(ctx context.Context) ([]string, error) {
	return gnomeSetup().Install(ctx)
}

// desktopSetup is what the running app does about the desktop's setup:
// the App tab's desktop row and its Install (settingswindow.DesktopSetup),
// and the once-only offer of it on GNOME's Wayland.
type desktopSetup struct {
	desk      desktop.Desktop // the desktop layer; nil where there is none
	configDir string          // where the offer's marker is kept
	log       *slog.Logger
}

// DesktopState is the App tab's desktop row.
func (d desktopSetup) DesktopState(ctx context.Context) windows.DesktopState {
	st := InspectDesktop(ctx)
	out := windows.DesktopState{Session: st.Session, Status: windows.DesktopSeen, CanInstall: st.CanInstall}
	switch {
	case st.Kind == "gnome" && desktop.Compositor(d.desk) == "gnome":
		// The extension answers: whatever the files say, she sees it all.
		out.CanInstall = false
	case st.Kind == "gnome" && st.Missing != "":
		out.Status = windows.DesktopNeedsExtension
	case st.Kind == "gnome":
		out.Status = windows.DesktopNextLogin
	case st.Kind == "" && st.Session != "X11",
		st.Kind == "kde" && d.desk != nil && desktop.Compositor(d.desk) != "kde":
		// A compositor that tells nothing, or KWin's script that did
		// not load (its scripting off): XWayland's windows alone.
		out.Status = windows.DesktopBlind
	}
	return out
}

// InstallDesktop is the App tab's Install: `yui desktop setup` on GNOME.
func (d desktopSetup) InstallDesktop(ctx context.Context) error {
	did, err := InstallGnome(ctx)
	for _, l := range did {
		d.log.Info("desktop_setup", "did", l)
	}
	if err != nil {
		d.log.Warn("desktop_setup_failed", "err", err.Error())
	}
	return err
}

// offeredMarker is the file, in the state folder, that says the first
// start on GNOME's Wayland offered the extension already.
const offeredMarker = "desktop-setup-offered"

// offer calls open (from another goroutine) to show the App tab, where
// Install is, once: the first time Yui starts on GNOME's Wayland without
// its extension answering and with something to install. The returned
// stop cancels the look (it runs gsettings, off the UI goroutine) and
// waits for it.
func (d desktopSetup) offer(open func()) (stop func()) {
	if desktop.SessionKind(os.Getenv) != "gnome" || desktop.Compositor(d.desk) == "gnome" {
		return func() {}
	}
	dir := filepath.Join(d.configDir, settings.StateDir)
	marker := filepath.Join(dir, offeredMarker)
	if _, err := os.Stat(marker); err == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		st := InspectDesktop(ctx)
		if !st.CanInstall || ctx.Err() != nil {
			return
		}
		err := os.MkdirAll(dir, 0o700)
		if err == nil {
			err = os.WriteFile(marker, []byte("offered\n"), 0o600)
		}
		if err != nil {
			// Offered all the same; the next start may offer it again.
			d.log.Warn("desktop_setup_marker", "err", err.Error())
		}
		d.log.Info("desktop_setup_offered", "missing", st.Missing)
		open()
	}()
	return func() { cancel(); <-done }
}
