//go:build e2e

package xvfb

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"debug/pe"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// appIcon is the app icon in the source tree, which every package carries.
const appIcon = "../../../../assets/icon.png"

// TestLinuxPackage takes the archive `make package` made, checks what it
// holds, installs it with its own Makefile (system-wide into a DESTDIR, and
// per user into a fresh home) and starts the per-user install the way its
// menu entry does, against yui-sim under Xvfb.
func TestLinuxPackage(t *testing.T) {
	archive := os.Getenv("YUI_PACKAGE")
	if archive == "" {
		t.Skip("YUI_PACKAGE not set; `make e2e` makes the archive (`make package-linux`) and sets it")
	}
	unpacked := t.TempDir()
	listing := runCmd(t, "", nil, "tar", "-tJf", archive)
	for _, name := range strings.Fields(listing) {
		if strings.HasPrefix(name, "/") || strings.Contains(name, "..") || !strings.HasPrefix(name, "yui/") {
			t.Fatalf("archive entry %q is not under yui/", name)
		}
	}
	runCmd(t, "", nil, "tar", "-xJf", archive, "-C", unpacked)
	root := filepath.Join(unpacked, "yui")

	// fyne package puts the files under usr/local when the packaging
	// machine has /usr/local, else under usr.
	prefix := filepath.Join(root, "usr", "local")
	if _, err := os.Stat(prefix); err != nil {
		prefix = filepath.Join(root, "usr")
	}
	desktopFiles, _ := filepath.Glob(filepath.Join(prefix, "share", "applications", "*.desktop"))
	if len(desktopFiles) != 1 {
		t.Fatalf("desktop files in the archive: %v, want one", desktopFiles)
	}
	entry := readDesktopEntry(t, desktopFiles[0])
	checkDesktopEntry(t, desktopFiles[0], entry)
	if entry["Exec"] != "yui" {
		t.Fatalf("Exec=%q, want yui (the binary on PATH)", entry["Exec"])
	}
	appID := strings.TrimSuffix(filepath.Base(desktopFiles[0]), ".desktop")
	if entry["Icon"] != appID {
		t.Fatalf("Icon=%q, want the app id %q", entry["Icon"], appID)
	}
	checkIconFile(t, filepath.Join(prefix, "share", "pixmaps", appID+".png"))
	if fi, err := os.Stat(filepath.Join(prefix, "bin", "yui")); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Fatalf("no executable usr/.../bin/yui in the archive: %v", err)
	}
	checkStrippedELF(t, filepath.Join(prefix, "bin", "yui"))

	// `sudo make install`, into a DESTDIR.
	dest := t.TempDir()
	runCmd(t, root, nil, "make", "install", "DESTDIR="+dest, "PREFIX=/usr")
	for _, f := range []string{"bin/yui", "share/applications/" + appID + ".desktop", "share/pixmaps/" + appID + ".png"} {
		if _, err := os.Stat(filepath.Join(dest, "usr", f)); err != nil {
			t.Fatalf("make install: %v", err)
		}
	}

	// `make user-install`, into a fresh home: the menu entry there runs the
	// binary by its full path.
	home := t.TempDir()
	runCmd(t, root, []string{"HOME=" + home}, "make", "user-install")
	userEntry := filepath.Join(home, ".local", "share", "applications", appID+".desktop")
	entry = readDesktopEntry(t, userEntry)
	checkDesktopEntry(t, userEntry, entry)
	exe := filepath.Join(home, ".local", "bin", "yui")
	if entry["Exec"] != exe {
		t.Fatalf("user-installed Exec=%q, want %q", entry["Exec"], exe)
	}
	checkIconFile(t, filepath.Join(home, ".local", "share", "icons", appID+".png"))

	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "pkg-key", "echo")
	cfg := t.TempDir()
	env := append(d.Env(), "HOME="+home, "YUI_KEY=pkg-key")
	p := harness.Start(t, env, entry["Exec"], "--config-dir", cfg, "--chat-api", "push", "--chat-base-url", s.Url)
	a := &harness.App{T: t, D: d, Cfg: cfg, Proc: p, Logs: harness.NewLogReader(cfg)}
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range a.Log() {
				t.Logf("log: %v", r)
			}
		}
	})
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	began := a.WaitRecord(5*time.Second, "app_start", nil)
	if fmt.Sprint(began["pid"]) != fmt.Sprint(p.Cmd.Process.Pid) {
		t.Fatalf("app_start pid %v, want the installed binary's %d", began["pid"], p.Cmd.Process.Pid)
	}
	win := a.PetRect()
	d.WaitShot(t, "installed", 10*time.Second, func(img image.Image) error { return harness.NotShaped(img, win) })

	// A clean stop: SIGTERM ends the app with status 0 and app_quit.
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the installed yui exited with %v after SIGTERM", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the installed yui did not exit within 15 s of SIGTERM")
	}
	a.WaitRecord(5*time.Second, "app_quit", nil)
}

// runCmd runs a command in dir (the test's working directory when empty)
// with extra environment variables and returns its output. The archive's
// Makefile runs as a user's would: without the flags and variables of the
// make that runs the tests.
func runCmd(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES":
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// readDesktopEntry returns the keys of a desktop file's [Desktop Entry]
// group.
func readDesktopEntry(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	group := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			group = line
		case group == "[Desktop Entry]":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("%s: line %q is not key=value", path, line)
			}
			keys[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return keys
}

// checkDesktopEntry checks the keys a launcher needs and runs
// desktop-file-validate on the file.
func checkDesktopEntry(t *testing.T, path string, keys map[string]string) {
	t.Helper()
	want := map[string]string{"Type": "Application", "Name": "Yui"}
	for k, v := range want {
		if keys[k] != v {
			t.Fatalf("%s: %s=%q, want %q", path, k, keys[k], v)
		}
	}
	for _, k := range []string{"Exec", "Icon", "Comment", "Categories"} {
		if keys[k] == "" {
			t.Fatalf("%s: no %s", path, k)
		}
	}
	if !strings.HasSuffix(keys["Categories"], ";") {
		t.Fatalf("%s: Categories=%q does not end with ;", path, keys["Categories"])
	}
	if out, err := exec.Command("desktop-file-validate", path).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("desktop-file-validate %s: %v\n%s", path, err, out)
	}
}

// checkIconFile checks that path holds the app icon.
func checkIconFile(t *testing.T, path string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("icon: %v", err)
	}
	want, err := os.ReadFile(appIcon)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not assets/icon.png", path)
	}
}

// TestWindowsExeIcon checks that the Windows build `make package` made
// carries the app icon: an RT_GROUP_ICON resource whose RT_ICON images are
// assets/icon.png.
func TestWindowsExeIcon(t *testing.T) {
	exe := os.Getenv("YUI_WINDOWS_EXE")
	if exe == "" {
		t.Skip("YUI_WINDOWS_EXE not set; `make package-windows` builds bin/yui.exe and runs this test on it")
	}
	f, err := pe.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if oh, ok := f.OptionalHeader.(*pe.OptionalHeader64); !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		t.Fatalf("%s is not a 64-bit Windows GUI program", exe)
	}
	// Linked stripped (fyne package --release: -s -w): no COFF symbols, no DWARF.
	if len(f.Symbols) > 0 || f.Section(".debug_info") != nil || f.Section(".zdebug_info") != nil {
		t.Fatalf("%s is not stripped: %d symbols, DWARF %v", exe, len(f.Symbols), f.Section(".debug_info") != nil)
	}
	res, err := readResources(f)
	if err != nil {
		t.Fatalf("%s: %v: no icon", exe, err)
	}
	const rtIcon, rtGroupIcon = 3, 14
	groups := res[rtGroupIcon]
	if len(groups) == 0 {
		t.Fatalf("%s has no RT_GROUP_ICON resource (types present: %v)", exe, keysOf(res))
	}
	wantImg := harness.DecodePNGFile(t, appIcon)
	for gid, grp := range groups {
		// GRPICONDIR: reserved, type 1, count; then 14-byte entries whose
		// last field is the RT_ICON id.
		if len(grp) < 6 || binary.LittleEndian.Uint16(grp[2:]) != 1 {
			t.Fatalf("RT_GROUP_ICON %d is not an icon directory", gid)
		}
		n := int(binary.LittleEndian.Uint16(grp[4:]))
		if n == 0 || len(grp) < 6+14*n {
			t.Fatalf("RT_GROUP_ICON %d lists %d icons in %d bytes", gid, n, len(grp))
		}
		for i := range n {
			e := grp[6+14*i:]
			size := binary.LittleEndian.Uint32(e[8:])
			id := uint32(binary.LittleEndian.Uint16(e[12:]))
			icon, ok := res[rtIcon][id]
			if !ok || uint32(len(icon)) != size {
				t.Fatalf("RT_GROUP_ICON %d names RT_ICON %d of %d bytes: found %d bytes (present: %v)", gid, id, size, len(icon), ok)
			}
			img, err := png.Decode(bytes.NewReader(icon))
			if err != nil {
				t.Fatalf("RT_ICON %d is not a PNG image: %v", id, err)
			}
			if err := sameImage(img, wantImg); err != nil {
				t.Fatalf("RT_ICON %d is not assets/icon.png: %v", id, err)
			}
		}
	}
}

// readResources reads a PE file's resource tree (type, id, first
// language) into resource data by type and id.
func readResources(f *pe.File) (map[uint32]map[uint32][]byte, error) {
	var dir pe.DataDirectory
	switch oh := f.OptionalHeader.(type) {
	case *pe.OptionalHeader64:
		dir = oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_RESOURCE]
	case *pe.OptionalHeader32:
		dir = oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_RESOURCE]
	}
	if dir.Size == 0 {
		return nil, errors.New("no resource directory")
	}
	var sec *pe.Section
	for _, s := range f.Sections {
		if dir.VirtualAddress >= s.VirtualAddress && dir.VirtualAddress < s.VirtualAddress+s.VirtualSize {
			sec = s
		}
	}
	if sec == nil {
		return nil, errors.New("the resource directory is in no section")
	}
	data, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", sec.Name, err)
	}
	base := dir.VirtualAddress - sec.VirtualAddress
	u16 := func(off uint32) uint32 {
		if int(off)+2 > len(data) {
			return 0
		}
		return uint32(binary.LittleEndian.Uint16(data[off:]))
	}
	u32 := func(off uint32) uint32 {
		if int(off)+4 > len(data) {
			return 0
		}
		return binary.LittleEndian.Uint32(data[off:])
	}
	// entries lists a directory's (name or id, offset) pairs; offsets are
	// from the start of the resource directory.
	entries := func(off uint32) [][2]uint32 {
		at := base + off
		n := u16(at+12) + u16(at+14)
		var out [][2]uint32
		for i := range min(n, 1024) {
			e := at + 16 + 8*i
			out = append(out, [2]uint32{u32(e), u32(e + 4)})
		}
		return out
	}
	const subdir = 1 << 31
	res := map[uint32]map[uint32][]byte{}
	for _, typ := range entries(0) {
		if typ[1]&subdir == 0 {
			continue
		}
		for _, id := range entries(typ[1] &^ subdir) {
			off := id[1]
			if off&subdir != 0 { // the language level: the first one
				langs := entries(off &^ subdir)
				if len(langs) == 0 {
					continue
				}
				off = langs[0][1]
			}
			// A data entry: the data's RVA and size.
			rva, size := u32(base+off), u32(base+off+4)
			start := rva - sec.VirtualAddress
			if rva < sec.VirtualAddress || int(start)+int(size) > len(data) {
				return nil, fmt.Errorf("resource %d/%d lies outside %s", typ[0], id[0], sec.Name)
			}
			if res[typ[0]] == nil {
				res[typ[0]] = map[uint32][]byte{}
			}
			res[typ[0]][id[0]] = data[start : start+size]
		}
	}
	return res, nil
}

func keysOf[V any](m map[uint32]V) []uint32 {
	var ks []uint32
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// sameImage reports how two images differ beyond the rounding of a
// premultiplied round trip.
func sameImage(got, want image.Image) error {
	if got.Bounds().Size() != want.Bounds().Size() {
		return fmt.Errorf("size %v, want %v", got.Bounds().Size(), want.Bounds().Size())
	}
	g, w := got.Bounds().Min, want.Bounds().Min
	for y := range want.Bounds().Dy() {
		for x := range want.Bounds().Dx() {
			r1, g1, b1, a1 := got.At(g.X+x, g.Y+y).RGBA()
			r2, g2, b2, a2 := want.At(w.X+x, w.Y+y).RGBA()
			for _, d := range []int{int(r1>>8) - int(r2>>8), int(g1>>8) - int(g2>>8), int(b1>>8) - int(b2>>8), int(a1>>8) - int(a2>>8)} {
				if d < -2 || d > 2 {
					return fmt.Errorf("pixel (%d,%d) is %v, want %v", x, y, got.At(g.X+x, g.Y+y), want.At(w.X+x, w.Y+y))
				}
			}
		}
	}
	return nil
}

// checkStrippedELF fails unless the program at path was linked stripped
// (-s -w): no symbol table and no DWARF.
func checkStrippedELF(t *testing.T, path string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, name := range []string{".symtab", ".debug_info", ".zdebug_info"} {
		if f.Section(name) != nil {
			t.Fatalf("%s is not stripped: it has %s", path, name)
		}
	}
}
