//go:build e2e

// Package harness is what the end-to-end groups share: it drives the real
// yui binary on an X display (Xvfb, or a compositor's XWayland) against
// yui-sim on loopback, as a person would: xdotool clicks and types,
// screenshots and the app log say what happened. The groups are packages
// beside it, one per desktop: xvfb (`make e2e`), mutter (`make
// e2e-mutter`), wayland (`make e2e-wayland`: GNOME Shell and KWin in
// private sessions, wayland.go), wine (`make e2e-wine`), and bench (`make
// bench`).
package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BinDir holds yui and yui-sim, built by `make build`.
func BinDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv("YUI_E2E_BIN")
	if d == "" {
		t.Skip("YUI_E2E_BIN not set; run `make e2e`")
	}
	return d
}

// Display is one X server: an Xvfb, or the XWayland of a compositor
// (startMutter).
type Display struct {
	Name string
	Cmd  *exec.Cmd
	// Extra is more environment for the programs run on it: the
	// Xauthority and session bus of a compositor's session.
	Extra []string
}

// StartXvfb starts Xvfb on a free display number with a plain background
// colour, so screenshots can tell the pet's pixels from the root window's.
func StartXvfb(t testing.TB, w, h int) *Display {
	t.Helper()
	// Xvfb picks a free display itself and names it on the pipe once it
	// accepts connections: tests running at once never share a display.
	// -noreset: by default the server resets when its last client leaves
	// (PaintRoot's display, a probe), and a client connecting during the
	// reset is refused: openbox once died so ("Failed to open the
	// display") and the test waited 15 s for a window manager.
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", w, h), "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{wr}
	if err := cmd.Start(); err != nil {
		wr.Close()
		t.Fatalf("start Xvfb: %v", err)
	}
	wr.Close()
	var n string // the display number, once Xvfb names it
	t.Cleanup(func() {
		// SIGTERM lets Xvfb remove its lock file and socket; a killed one
		// leaves them behind.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _, _ = cmd.Process.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			if n != "" {
				_ = os.Remove("/tmp/.X" + n + "-lock")
				_ = os.Remove("/tmp/.X11-unix/X" + n)
			}
		}
	})
	num := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		num <- strings.TrimSpace(line)
	}()
	select {
	case n = <-num:
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb named no display within 20 s")
	}
	if _, err := strconv.Atoi(n); err != nil {
		t.Fatalf("Xvfb did not start: display %q", n)
	}
	d := &Display{Name: ":" + n, Cmd: cmd}
	// The display's programs share a session bus of the test's that
	// activates nothing: without one a Fyne program autolaunches a bus
	// whose desktop portals outlive the test (harness/bus.go).
	if _, err := exec.LookPath("dbus-daemon"); err == nil {
		d.Extra = append(d.Extra, "DBUS_SESSION_BUS_ADDRESS="+QuietBus(t))
	}
	d.PaintRoot(t, w, h)
	return d
}

// PaintRoot fills the root window with rootBG. xsetroot's solid colour
// does not reach XGetImage under Xvfb; a root background pixmap does.
func (d *Display) PaintRoot(t testing.TB, w, h int) {
	t.Helper()
	bg := filepath.Join(t.TempDir(), "bg.png")
	d.Run(t, "convert", "-size", fmt.Sprintf("%dx%d", w, h), "xc:#3c6e71", bg)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "display", "-window", "root", bg)
	cmd.Env = d.Env()
	_ = cmd.Run() // it exits non-zero after setting the background
}

// Env is the environment of a program on the display: the test's, less
// the variables that name a desktop session (a developer's GNOME or KDE
// Wayland session would send Yui to its compositor: cmd/yui/e2e/harness/wayland.go
// sets its own), then DISPLAY and Extra.
func (d *Display) Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP":
		default:
			env = append(env, kv)
		}
	}
	return append(append(env, "DISPLAY="+d.Name), d.Extra...)
}

// Run runs a command on the display and returns its output.
func (d *Display) Run(t testing.TB, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = d.Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Screenshot saves the root window as a PNG in the test's artifact folder
// and returns it decoded.
func (d *Display) Screenshot(t testing.TB, name string) image.Image {
	t.Helper()
	path := filepath.Join(Artifacts(t), name+".png")
	d.Run(t, "import", "-window", "root", path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return img
}

// WaitShot takes screenshots until check passes on one, which it keeps
// under name and returns; after limit it fails with check's last word.
func (d *Display) WaitShot(t testing.TB, name string, limit time.Duration, check func(image.Image) error) image.Image {
	t.Helper()
	var img image.Image
	var err error
	if !WaitForOr(limit, func() bool { img = d.Screenshot(t, name); err = check(img); return err == nil }) {
		t.Fatalf("screenshot %s after %s: %v", name, limit, err)
	}
	return img
}

// TopLevel is the child of the root window that holds window id: the
// window manager's frame around it, or the window itself, as a number.
func (d *Display) TopLevel(t testing.TB, id string) string {
	t.Helper()
	for range 8 {
		out := d.Run(t, "xwininfo", "-id", id, "-tree")
		_, rest, ok := strings.Cut(out, "Parent window id: ")
		if !ok || strings.Contains(strings.SplitN(rest, "\n", 2)[0], "(the root window)") {
			break
		}
		id = strings.Fields(rest)[0]
	}
	n, err := strconv.ParseInt(id, 0, 64)
	if err != nil {
		t.Fatalf("window id %q: %v", id, err)
	}
	return strconv.FormatInt(n, 10)
}

// WaitFocus waits until the keyboard focus is in the top-level window
// that holds window id.
func (d *Display) WaitFocus(t testing.TB, id string) {
	t.Helper()
	WaitFor(t, 5*time.Second, "the keyboard focus in window "+id, func() bool { return d.HasFocus(t, id) })
}

// HasFocus reports whether the keyboard focus is in top-level window id.
func (d *Display) HasFocus(t testing.TB, id string) bool {
	t.Helper()
	return d.TopLevel(t, strings.TrimSpace(d.Run(t, "xdotool", "getwindowfocus"))) == d.TopLevel(t, id)
}

// WindowUnderPointer is the id of the top-level window under the pointer.
func (d *Display) WindowUnderPointer(t testing.TB) string {
	t.Helper()
	for _, line := range strings.Split(d.Run(t, "xdotool", "getmouselocation", "--shell"), "\n") {
		if id, ok := strings.CutPrefix(line, "WINDOW="); ok {
			return strings.TrimSpace(id)
		}
	}
	t.Fatal("xdotool getmouselocation named no window")
	return ""
}

func Artifacts(t testing.TB) string {
	dir := os.Getenv("YUI_E2E_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "yui-e2e")
	}
	dir = filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Proc is a started process whose output is kept for the failure report.
type Proc struct {
	Cmd *exec.Cmd
	mu  sync.Mutex
	out bytes.Buffer
}

func (p *Proc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}

func (p *Proc) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func Start(t testing.TB, env []string, name string, args ...string) *Proc {
	t.Helper()
	p := &Proc{Cmd: exec.Command(name, args...)}
	p.Cmd.Env = env
	p.Cmd.Stdout = p
	p.Cmd.Stderr = p
	if err := p.Cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("%s output:\n%s", filepath.Base(name), Tail(p.Output(), 4000))
		}
	})
	return p
}

func (p *Proc) Stop() {
	if p.Cmd.ProcessState != nil {
		return
	}
	_ = p.Cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _, _ = p.Cmd.Process.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = p.Cmd.Process.Kill()
		<-done
	}
}

func Tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// FreePort returns a loopback port nobody listens on.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Record is one JSON line of a slog log.
type Record map[string]any

func (r Record) Str(k string) string {
	v, _ := r[k].(string)
	return v
}

// logReader reads the JSON records of the log files under a directory
// (the current file of each process, not its rotated ones). Each line is
// parsed once: a test polling the log of a long run reads only what was
// written since its last look.
type logReader struct {
	dir   string
	mu    sync.Mutex
	files map[string]*logFile
}

// logFile is what was read of one file: its identity, so that a file
// rotated under the same name is read again from its start.
type logFile struct {
	id   os.FileInfo
	off  int64
	recs []Record
}

func NewLogReader(dir string) *logReader {
	return &logReader{dir: dir, files: map[string]*logFile{}}
}

// read returns every record so far, file by file in name order.
func (l *logReader) read() []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	files, _ := filepath.Glob(filepath.Join(l.dir, "*.log"))
	more, _ := filepath.Glob(filepath.Join(l.dir, "*", "*.log"))
	var recs []Record
	for _, name := range append(files, more...) {
		f := l.files[name]
		if f == nil {
			f = &logFile{}
			l.files[name] = f
		}
		f.readMore(name)
		recs = append(recs, f.recs...)
	}
	return recs
}

// readMore parses the whole lines written after off; a line still being
// written waits for the next look.
func (f *logFile) readMore(name string) {
	file, err := os.Open(name)
	if err != nil {
		return
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return
	}
	if f.id == nil || !os.SameFile(f.id, fi) || fi.Size() < f.off {
		*f = logFile{id: fi}
	}
	if fi.Size() == f.off {
		return
	}
	data, err := io.ReadAll(io.NewSectionReader(file, f.off, fi.Size()-f.off))
	if err != nil {
		return
	}
	whole := bytes.LastIndexByte(data, '\n') + 1
	for _, line := range bytes.Split(data[:whole], []byte("\n")) {
		var r Record
		if json.Unmarshal(line, &r) == nil {
			f.recs = append(f.recs, r)
		}
	}
	f.off += int64(whole)
}

// ReadLog reads every JSON record of the log files under dir once.
func ReadLog(t testing.TB, dir string) []Record {
	t.Helper()
	return NewLogReader(dir).read()
}

// WaitFor polls cond until it holds or limit passes.
func WaitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	if !WaitForOr(limit, cond) {
		t.Fatalf("timed out after %s waiting for %s", limit, what)
	}
}

// WaitForOr polls cond until it holds or limit passes, and reports which;
// for a wait the caller retries.
func WaitForOr(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// FindRecord returns the first record named msg that matches all fields.
func FindRecord(recs []Record, msg string, fields map[string]string) (Record, bool) {
	for _, r := range recs {
		if r.Str("msg") != msg {
			continue
		}
		ok := true
		for k, v := range fields {
			if fmt.Sprint(r[k]) != v {
				ok = false
				break
			}
		}
		if ok {
			return r, true
		}
	}
	return nil, false
}

// Command is a command on the display, for a caller that reads its exit status.
func (d *Display) Command(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Env = d.Env()
	return c
}

func DecodePNGFile(t *testing.T, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return img
}

func Abs(v int) int { return max(v, -v) }
