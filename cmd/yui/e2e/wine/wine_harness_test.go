//go:build e2e

package wine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// The Wine tests (TestWine*, `make e2e-wine`) run the Windows build,
// bin/yui.exe and bin/yui-sim.exe, under Debian's Wine on Xvfb against the
// Linux yui-sim on loopback. They share one Wine prefix per test run:
// wineboot takes many seconds, and the prefix is the same for all. Each
// test stops the prefix's Wine processes when it ends (wineserver -k), so
// the next starts on its own display.

// winePrefixState is the run's prefix: made by the first Wine test,
// removed by TestMain.
var winePrefixState struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if dir := winePrefixState.dir; dir != "" {
		kill := exec.Command("wineserver", "-k")
		kill.Env = wineVars(dir, os.Environ())
		_ = kill.Run()
		_ = os.RemoveAll(dir)
	}
	os.Exit(code)
}

// wineVars adds the prefix and the quiet settings to env: no debug
// channels, and no prompts to install Mono or Gecko (Yui needs neither).
func wineVars(prefix string, env []string) []string {
	return append(env, "WINEPREFIX="+prefix, "WINEARCH=win64", "WINEDEBUG=-all",
		"WINEDLLOVERRIDES=mscoree,mshtml=")
}

// needWine skips a Wine test when Wine or the Windows build is missing,
// except under CI, where a skipped Wine group would hide a broken Windows
// build: there it fails.
func needWine(t *testing.T) {
	t.Helper()
	miss := func(what string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s: the Wine tests cannot run (CI=true: not skipped)", what)
		}
		t.Skip(what + "; run `make e2e-wine`")
	}
	for _, c := range []string{"wine", "wineboot", "wineserver", "x86_64-w64-mingw32-gcc", "Xvfb", "xdotool"} {
		if _, err := exec.LookPath(c); err != nil {
			miss(c + " is not installed (.ci/deps.sh test installs it)")
		}
	}
	if os.Getenv("YUI_E2E_BIN") == "" {
		miss("YUI_E2E_BIN not set")
	}
	for _, exe := range []string{"yui.exe", "yui-sim.exe", "yui-sim"} {
		if _, err := os.Stat(filepath.Join(os.Getenv("YUI_E2E_BIN"), exe)); err != nil {
			miss(exe + " is not built (make package-windows, make build)")
		}
	}
}

// prngSource is bcryptprimitives.dll's ProcessPrng, which Go 1.24 and
// later call for every random byte and Wine 8.0 does not have, over
// advapi32's RtlGenRandom (SystemFunction036), which it has. A test
// fixture only: no package ships it.
const prngSource = `#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID, ULONG);
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n)) return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
`

// winePrefix makes the run's Wine prefix once, on display d: wineboot,
// then the ProcessPrng DLL into its system32, where Go looks for it.
func winePrefix(t *testing.T, d *harness.Display) string {
	t.Helper()
	s := &winePrefixState
	s.once.Do(func() {
		s.dir, s.err = os.MkdirTemp("", "yui-wine-")
		if s.err != nil {
			return
		}
		s.err = makePrefix(s.dir, d.Env())
	})
	if s.err != nil {
		t.Fatalf("the Wine prefix: %v", s.err)
	}
	return s.dir
}

func makePrefix(dir string, env []string) error {
	src := filepath.Join(dir, "prng.c")
	def := filepath.Join(dir, "prng.def")
	dll := filepath.Join(dir, "bcryptprimitives.dll")
	if err := os.WriteFile(src, []byte(prngSource), 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(def, []byte("LIBRARY bcryptprimitives\nEXPORTS\nProcessPrng\n"), 0o600); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	run := func(name string, args ...string) error {
		c := exec.CommandContext(ctx, name, args...)
		c.Env = wineVars(filepath.Join(dir, "prefix"), env)
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, harness.Tail(string(out), 2000))
		}
		return nil
	}
	if err := run("x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o", dll, src, def, "-ladvapi32"); err != nil {
		return err
	}
	start := time.Now()
	if err := run("wineboot", "-i"); err != nil {
		return err
	}
	if err := run("wineserver", "-w"); err != nil {
		return err
	}
	data, err := os.ReadFile(dll)
	if err != nil {
		return err
	}
	sys32 := filepath.Join(dir, "prefix", "drive_c", "windows", "system32")
	if err := os.WriteFile(filepath.Join(sys32, "bcryptprimitives.dll"), data, 0o644); err != nil {
		return fmt.Errorf("the ProcessPrng DLL into system32: %w", err)
	}
	fmt.Fprintf(os.Stderr, "wine prefix made in %s\n", time.Since(start).Round(time.Second))
	return nil
}

// wineBox is one Wine test's display with a window manager and the run's
// prefix.
type wineBox struct {
	t   *testing.T
	d   *harness.Display
	env []string // the display's and the prefix's
	pfx string   // the prefix folder
}

// startWine starts Xvfb and openbox (Wine's windows are managed ones: the
// window manager reads their EWMH state) and readies the prefix.
func startWine(t *testing.T) *wineBox {
	t.Helper()
	needWine(t)
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	d.PaintRoot(t, 1280, 800) // openbox paints the root black
	dir := winePrefix(t, d)
	pfx := filepath.Join(dir, "prefix")
	w := &wineBox{t: t, d: d, env: wineVars(pfx, d.Env()), pfx: pfx}
	// Every Wine process of the prefix, explorer.exe (the tray) too, lives
	// on this test's display: they go with it.
	t.Cleanup(w.stopAll)
	return w
}

// winPath is a Linux path as Windows programs under Wine see it: Wine's
// Z: drive is the Linux root.
func winPath(p string) string { return `Z:` + strings.ReplaceAll(p, "/", `\`) }

// wine runs a Windows program to its end and returns its output.
func (w *wineBox) wine(args ...string) (string, error) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "wine", args...)
	c.Env = w.env
	out, err := c.CombinedOutput()
	return string(out), err
}

// startExe starts yui.exe (exe, a Linux path) under Wine on config folder
// cfg, as StartYuiIn starts yui.
func (w *wineBox) startExe(exe, cfg, key string, args ...string) *harness.App {
	w.t.Helper()
	env := w.env
	if key != "" {
		env = append(env, "YUI_KEY="+key)
	}
	args = append([]string{exe, "--config-dir", winPath(cfg)}, args...)
	return harness.WatchApp(w.t, w.d, cfg, harness.Start(w.t, env, "wine", args...))
}

// startYui starts the built bin/yui.exe.
func (w *wineBox) startYui(cfg, key string, args ...string) *harness.App {
	w.t.Helper()
	return w.startExe(filepath.Join(harness.BinDir(w.t), "yui.exe"), cfg, key, args...)
}

// regQuery reads a registry key with Wine's reg.exe; "" when it is not there.
func (w *wineBox) regQuery(key string) string {
	w.t.Helper()
	out, err := w.wine("reg", "query", key)
	if err != nil {
		return ""
	}
	return out
}

// stopAll ends every Wine process of the prefix (a Windows GUI program
// gets no signal from a Linux one) and waits for them.
func (w *wineBox) stopAll() {
	for _, args := range [][]string{{"-k"}, {"-w"}} {
		c := exec.Command("wineserver", args...)
		c.Env = w.env
		_ = c.Run()
	}
}

// userDirs are the Wine user's AppData folders, as Linux paths.
type userDirs struct{ local, roaming string }

func (w *wineBox) userDirs() userDirs {
	w.t.Helper()
	users := filepath.Join(w.pfx, "drive_c", "users")
	// Wine names the folder after the Linux user.
	u, err := user.Current()
	if err != nil {
		w.t.Fatal(err)
	}
	name := u.Username
	if _, err := os.Stat(filepath.Join(users, name)); err != nil {
		w.t.Fatalf("the Wine user's folder: %v", err)
	}
	app := filepath.Join(users, name, "AppData")
	return userDirs{local: filepath.Join(app, "Local"), roaming: filepath.Join(app, "Roaming")}
}
