//go:build e2e

package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// The compositors a Session runs: GNOME Shell headless (with a test-only
// extension that turns on its unsafe mode, so that the test can move,
// activate and full-screen native windows through org.gnome.Shell.Eval)
// and KWin on its virtual platform (whose test scripts move windows).
// Both with XWayland, whose display the Session's Display names.

// testExtUUID is the test-only GNOME Shell extension: it never ships.
const testExtUUID = "yui-e2e-unsafe@yui.test"

const testExtMetadata = `{"uuid": "` + testExtUUID + `", "name": "Yui e2e unsafe mode",
 "description": "Test only: lets org.gnome.Shell.Eval run", "shell-version": ["43", "44"]}`

// GNOME Shell 43's module format: init() returns the extension object.
const testExtJS = `'use strict';
class Ext {
    enable() { global.context.unsafe_mode = true; }
    disable() { global.context.unsafe_mode = false; }
}
function init() { return new Ext(); }
`

// GnomeShell is GNOME Shell headless in s on one 1920×1080 virtual
// monitor. before runs once the buses are up and before the shell
// starts, with the session's environment: the place to install and enable
// extensions (`yui desktop setup`). The test extension is enabled first.
func (s *Session) GnomeShell(t testing.TB, before func(env []string)) {
	t.Helper()
	NeedTools(t, "gnome-shell", "Xwayland", "gsettings")
	dir := filepath.Join(s.Home, ".local/share/gnome-shell/extensions", testExtUUID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"metadata.json": testExtMetadata, "extension.js": testExtJS} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.Gsettings(t, "set", "org.gnome.shell", "enabled-extensions", "['"+testExtUUID+"']")
	if before != nil {
		before(s.SessionEnv())
	}
	cmd := exec.Command("gnome-shell", "--headless", "--wayland", "--virtual-monitor", "1920x1080")
	cmd.Env = s.SessionEnv()
	p := StartGroup(t, cmd, "gnome-shell")
	reX := regexp.MustCompile(`Using public X11 display (:\d+)`)
	reW := regexp.MustCompile(`Using Wayland display name '([^']+)'`)
	var x string
	WaitFor(t, 90*time.Second, "GNOME Shell's XWayland and Wayland displays", func() bool {
		out := p.Output()
		if m := reX.FindStringSubmatch(out); m != nil {
			x = m[1]
		}
		if m := reW.FindStringSubmatch(out); m != nil {
			s.Wayland = m[1]
		}
		return x != "" && s.Wayland != "" || p.Cmd.ProcessState != nil
	})
	var auth string
	WaitFor(t, 30*time.Second, "GNOME Shell's Xauthority", func() bool {
		files, _ := filepath.Glob(filepath.Join(s.Runtime, ".mutter-Xwaylandauth.*"))
		if len(files) > 0 {
			auth = files[0]
		}
		return auth != ""
	})
	s.Display = &Display{Name: x, Cmd: cmd, Extra: append(s.SessionEnv(), "XAUTHORITY="+auth)}
	WaitFor(t, 60*time.Second, "GNOME Shell's unsafe mode (the test extension enabled)", func() bool {
		_, err := s.evalErr("1")
		return err == nil
	})
	// GNOME Shell opens on its overview, which takes the pointer and
	// hides the windows: the desktop a person works on is without it.
	WaitFor(t, 30*time.Second, "GNOME Shell's overview hidden", func() bool {
		out, err := s.evalErr("const o = imports.ui.main.overview; o.hide(); !o.visible && !o.animationInProgress")
		return err == nil && out == "true"
	})
}

// Gsettings runs gsettings in the session (its dconf database, under Home).
func (s *Session) Gsettings(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command("gsettings", args...)
	cmd.Env = s.SessionEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gsettings %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// SessionConn is a new connection to the session bus, closed when the
// test ends.
func (s *Session) SessionConn(t testing.TB) *dbus.Conn {
	t.Helper()
	c, err := dbus.Connect(s.Bus)
	if err != nil {
		t.Fatalf("session bus: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Eval runs JavaScript inside GNOME Shell (org.gnome.Shell.Eval, which the
// test extension's unsafe mode allows) and returns its result as JSON.
func (s *Session) Eval(t testing.TB, js string) string {
	t.Helper()
	out, err := s.evalErr(js)
	if err != nil {
		t.Fatalf("GNOME Shell eval %q: %v", js, err)
	}
	return out
}

func (s *Session) evalErr(js string) (string, error) {
	c, err := dbus.Connect(s.Bus)
	if err != nil {
		return "", err
	}
	defer c.Close()
	var ok bool
	var out string
	if err := c.Object("org.gnome.Shell", "/org/gnome/Shell").Call("org.gnome.Shell.Eval", 0, js).Store(&ok, &out); err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("eval refused or failed: %s", out)
	}
	return out, nil
}

// GnomeWindow is the JavaScript expression for the Meta.Window titled
// title in GNOME Shell, for Eval.
func GnomeWindow(title string) string {
	return fmt.Sprintf("global.get_window_actors().map(a => a.meta_window).find(w => w.get_title() === %s)", strconv.Quote(title))
}

// KWin is kwin_wayland on its virtual platform, 1920×1080, with XWayland.
// Debian gives /usr/bin/kwin_wayland a file capability (CAP_SYS_NICE)
// that a container refuses to execute: a copy without it runs.
func (s *Session) KWin(t testing.TB) {
	t.Helper()
	NeedTools(t, "kwin_wayland", "Xwayland")
	src, err := exec.LookPath("kwin_wayland")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(s.Runtime, "..", "kwin_wayland")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	s.Wayland = "wayland-yui"
	// KWin runs the program named after its options once XWayland is up,
	// with DISPLAY and XAUTHORITY set: it writes them down for the test.
	// (A script file: KWin takes the program's options for its own.)
	envFile := filepath.Join(s.Runtime, "kwin-x11")
	tell := filepath.Join(s.Runtime, "..", "kwin-x11.sh")
	body := "#!/bin/sh\nprintf '%s\\n%s\\n' \"$DISPLAY\" \"$XAUTHORITY\" > " + envFile + ".tmp && mv " + envFile + ".tmp " + envFile + "\n"
	if err := os.WriteFile(tell, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"--virtual", "--xwayland", "--no-lockscreen", "--width", "1920", "--height", "1080", "--socket", s.Wayland}
	if s.Scale > 1 {
		// KWin's own setting for XWayland's scale (Plasma's "Legacy
		// applications (X11): apply scaling themselves"), in the user's
		// kwinrc.
		conf := filepath.Join(s.Home, ".config")
		rc := fmt.Sprintf("[Xwayland]\nScale=%d\n", s.Scale)
		if err := os.MkdirAll(conf, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(conf, "kwinrc"), []byte(rc), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--scale", strconv.Itoa(s.Scale))
	}
	cmd := exec.Command(bin, append(args, tell)...)
	env := s.SessionEnv()
	cmd.Env = append(env[:len(env):len(env)], "QT_QPA_PLATFORM=wayland", "KWIN_COMPOSE=Q")
	p := StartGroup(t, cmd, "kwin_wayland")
	var x, auth string
	WaitFor(t, 90*time.Second, "KWin's XWayland display", func() bool {
		b, err := os.ReadFile(envFile)
		if err == nil {
			// The display, then the Xauthority (empty when KWin's
			// XWayland asks for none).
			lines := strings.Split(string(b), "\n")
			if len(lines) >= 2 {
				x, auth = lines[0], lines[1]
			}
		}
		return x != "" || p.Cmd.ProcessState != nil
	})
	if x == "" {
		t.Fatalf("KWin ended before its XWayland ran")
	}
	s.Display = &Display{Name: x, Cmd: cmd, Extra: s.SessionEnv()}
	if auth != "" {
		s.Extra = append(s.Extra, "XAUTHORITY="+auth)
	}
	WaitFor(t, 60*time.Second, "KWin's scripting on the session bus", func() bool {
		c, err := dbus.Connect(s.Bus)
		if err != nil {
			return false
		}
		defer c.Close()
		var has bool
		return c.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.kde.KWin").Store(&has) == nil && has
	})
}

// kwinReports receives what test scripts send back (KWinEval), on one
// connection of the session's for all of a test's scripts.
type kwinReports struct {
	conn *dbus.Conn
	mu   sync.Mutex
	n    int
	got  map[string]chan string
}

func (k *kwinReports) Report(token, value string) *dbus.Error {
	k.mu.Lock()
	ch := k.got[token]
	k.mu.Unlock()
	if ch != nil {
		select {
		case ch <- value:
		default:
		}
	}
	return nil
}

// reports is the session's receiver of script results, made once.
func (s *Session) reports(t testing.TB) *kwinReports {
	t.Helper()
	s.kwinOnce.Do(func() {
		c, err := dbus.Connect(s.Bus)
		if err != nil {
			t.Fatalf("session bus: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		s.kwin = &kwinReports{conn: c, got: map[string]chan string{}}
		if err := c.Export(s.kwin, "/yui/test", "io.github.yui.Test"); err != nil {
			t.Fatal(err)
		}
	})
	if s.kwin == nil {
		t.Fatal("no session bus for KWin scripts")
	}
	return s.kwin
}

// KWinEval runs JavaScript as a KWin script (org.kde.kwin.Scripting) and
// returns String(result) of its last expression, sent back over the bus.
// Plasma 5.27's API: workspace.clientList(), client.frameGeometry.
func (s *Session) KWinEval(t testing.TB, js string) string {
	t.Helper()
	rep := s.reports(t)
	rep.mu.Lock()
	rep.n++
	token := fmt.Sprintf("yui-test-%d", rep.n)
	ch := make(chan string, 1)
	rep.got[token] = ch
	rep.mu.Unlock()
	defer func() { rep.mu.Lock(); delete(rep.got, token); rep.mu.Unlock() }()
	script := fmt.Sprintf("var __r = (function() { return eval(%s); })();\ncallDBus(%q, '/yui/test', 'io.github.yui.Test', 'Report', %q, String(__r));\n",
		strconv.Quote(js), rep.conn.Names()[0], token)
	path := filepath.Join(s.Runtime, token+".js")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(path)
	kw := rep.conn.Object("org.kde.KWin", "/Scripting")
	var id int32
	if err := kw.Call("org.kde.kwin.Scripting.loadScript", 0, path, token).Store(&id); err != nil {
		t.Fatalf("KWin loadScript: %v", err)
	}
	defer kw.Call("org.kde.kwin.Scripting.unloadScript", 0, token)
	if err := kw.Call("org.kde.kwin.Scripting.start", 0).Err; err != nil {
		t.Fatalf("KWin start scripts: %v", err)
	}
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("KWin script %q sent nothing back in 20 s", js)
	}
	return ""
}

// Native starts a native Wayland window titled title, stopped when the
// test ends, and returns its application id. Under GNOME Shell it is a
// foot terminal with application id appID (and more of foot's options).
// Under KWin foot 1.13 dies of a division by zero on the virtual
// output's unknown physical size, so it is a GTK 3 text window (zenity
// --text-info, on GDK's Wayland backend), whose application id is "zenity".
func (s *Session) Native(t testing.TB, title, appID string, more ...string) (*Proc, string) {
	t.Helper()
	if s.Desktop == "KDE" {
		NeedTools(t, "zenity")
		env := append(s.SessionEnv(), "GDK_BACKEND=wayland")
		// --text-info: a resizable window, which full screen covers.
		text := filepath.Join(s.Runtime, "zenity-"+strconv.Itoa(os.Getpid())+".txt")
		if err := os.WriteFile(text, []byte(title+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return Start(t, env, "zenity", "--text-info", "--title", title, "--filename", text, "--width", "400", "--height", "300"), "zenity"
	}
	NeedTools(t, "foot")
	args := append([]string{"--title", title, "--app-id", appID}, more...)
	args = append(args, "sleep", "3600")
	return Start(t, s.SessionEnv(), "foot", args...), appID
}
