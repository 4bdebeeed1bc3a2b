//go:build e2e

package harness

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rootBG is the colour StartXvfb paints the root window.
var rootBG = color.RGBA{0x3c, 0x6e, 0x71, 0xff}

// App is one running yui under test.
type App struct {
	T    testing.TB
	D    *Display
	Cfg  string
	Proc *Proc
	Logs *logReader
}

// StartYuiIn starts yui on the config directory cfg (which may hold a
// settings file the test wrote, or one a previous run left).
func StartYuiIn(t testing.TB, d *Display, cfg, key string, args ...string) *App {
	t.Helper()
	env := d.Env()
	if key != "" {
		env = append(env, "YUI_KEY="+key)
	}
	args = append([]string{"--config-dir", cfg}, args...)
	return WatchApp(t, d, cfg, Start(t, env, filepath.Join(BinDir(t), "yui"), args...))
}

// WatchApp is a started yui (or yui.exe) on config folder cfg: its log is
// read from there, and written into the test's output when it fails.
func WatchApp(t testing.TB, d *Display, cfg string, p *Proc) *App {
	a := &App{T: t, D: d, Cfg: cfg, Proc: p, Logs: NewLogReader(cfg)}
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range a.Log() {
				b, _ := json.Marshal(r)
				t.Logf("log: %s", b)
			}
		}
	})
	return a
}

func (a *App) Log() []Record { return a.Logs.read() }

// WaitRecord waits for a log record named msg with the fields given.
func (a *App) WaitRecord(limit time.Duration, msg string, fields map[string]string) Record {
	a.T.Helper()
	var got Record
	WaitFor(a.T, limit, fmt.Sprintf("log record %s %v", msg, fields), func() bool {
		r, ok := FindRecord(a.Log(), msg, fields)
		got = r
		return ok
	})
	return got
}

// WaitTicks waits for n more runtime_stats records of an app started with
// --stats-every: an absence (no retry, no move) is checked after the app's
// own clock ran that long, not after a sleep of the test's.
func (a *App) WaitTicks(n int) {
	a.T.Helper()
	from := a.Count("runtime_stats", nil)
	WaitFor(a.T, 30*time.Second, fmt.Sprintf("%d runtime_stats records", n), func() bool {
		return a.Count("runtime_stats", nil) >= from+n
	})
}

func (a *App) Count(msg string, fields map[string]string) int {
	return CountRecords(a.Log(), msg, fields)
}

// Last is the newest record msg; an empty record when there is none.
func (a *App) Last(msg string) Record {
	var found Record
	for _, r := range a.Log() {
		if r.Str("msg") == msg {
			found = r
		}
	}
	return found
}

// PetRect is the pet window's rectangle on the screen, from its log record.
func (a *App) PetRect() image.Rectangle {
	r := a.WaitRecord(30*time.Second, "pet_window_shown", nil)
	num := func(k string) int { v, _ := r[k].(float64); return int(v) }
	return image.Rect(num("x"), num("y"), num("x")+num("width"), num("y")+num("height"))
}

// CharacterCentre is where the character's body is drawn: the window is
// laid out as bubble area (150 units) above a 192x256 character, centred.
func CharacterCentre(win image.Rectangle) image.Point {
	return image.Pt(win.Min.X+win.Dx()/2, win.Min.Y+150+128)
}

// Talk opens the composer with a double click on the pet, types text and
// presses Enter, as a person would.
func (a *App) Talk(text string) {
	a.T.Helper()
	a.OpenComposer()
	a.D.Run(a.T, "xdotool", "type", "--delay", "30", text)
	a.D.Run(a.T, "xdotool", "key", "Return")
}

// OpenComposer double-clicks the pet and waits until its composer is open
// and its window has the keyboard focus.
func (a *App) OpenComposer() {
	a.T.Helper()
	c := CharacterCentre(a.PetRect())
	a.D.MoveTo(a.T, c.X, c.Y)
	win := a.D.WindowUnderPointer(a.T)
	opened := a.Count("pet_composer_open", nil)
	a.D.Run(a.T, "xdotool", "click", "--repeat", "2", "--delay", "80", "1")
	WaitFor(a.T, 10*time.Second, "the composer to open", func() bool { return a.Count("pet_composer_open", nil) > opened })
	a.D.WaitFocus(a.T, win)
}

// Sim is a running yui-sim.
type Sim struct {
	Proc   *Proc
	Url    string
	Record string
}

func StartSim(t testing.TB, port int, key, script string) *Sim {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "frames.jsonl")
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p := Start(t, os.Environ(), filepath.Join(BinDir(t), "yui-sim"),
		"--addr", addr, "--key", key, "--script", script, "--record", rec)
	s := &Sim{Proc: p, Url: "http://" + addr, Record: rec}
	WaitFor(t, 10*time.Second, "yui-sim ready", func() bool { return strings.Contains(p.Output(), "yui-sim ready") })
	return s
}

// Frames returns the frames the simulator received, of type typ.
func (s *Sim) Frames(typ string) []map[string]any {
	f, err := os.Open(s.Record)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// IsBackground reports whether the screenshot pixel is the root window's colour.
func IsBackground(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	near := func(v uint32, w uint8) bool { d := int(v>>8) - int(w); return d > -6 && d < 6 }
	return near(r, rootBG.R) && near(g, rootBG.G) && near(b, rootBG.B)
}

// AssertShaped checks that the pet window is shaped to its drawn pixels
// (NotShaped).
func AssertShaped(t testing.TB, img image.Image, win image.Rectangle) {
	t.Helper()
	if err := NotShaped(img, win); err != nil {
		t.Fatal(err)
	}
}

// NotShaped says what is wrong when points inside the window's rectangle
// but away from the character do not show the root window, or the
// character's centre does; nil when the window is shaped.
func NotShaped(img image.Image, win image.Rectangle) error {
	c := CharacterCentre(win)
	if IsBackground(img, c.X, c.Y) {
		return fmt.Errorf("no character drawn at %v", c)
	}
	for _, p := range []image.Point{
		{win.Min.X + 2, win.Min.Y + 2},
		{win.Max.X - 3, win.Min.Y + 2},
		{win.Min.X + 2, win.Min.Y + 150 + 128},
		{win.Max.X - 3, win.Min.Y + 150 + 128},
	} {
		if !IsBackground(img, p.X, p.Y) {
			return fmt.Errorf("pixel %v inside the window's rectangle but outside the character is %v, not the background %v: the window is not shaped", p, img.At(p.X, p.Y), rootBG)
		}
	}
	return nil
}

// BubbleShown reports whether a light speech bubble with dark text sits
// above the character: in the window's bubble area (150 units) and over the
// top of the character's head, where the bubble's tail reaches.
func BubbleShown(img image.Image, win image.Rectangle) bool {
	light, dark := 0, 0
	for y := win.Min.Y; y < win.Min.Y+150+64; y++ {
		for x := win.Min.X; x < win.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			l := (r + g + b) / 3 >> 8
			switch {
			case l > 235:
				light++
			case l < 90:
				dark++
			}
		}
	}
	return light > 2000 && dark > 40
}

// DrawnCheck is a WaitShot check: the character is drawn in the pet
// window win.
func DrawnCheck(win image.Rectangle) func(image.Image) error {
	return func(img image.Image) error {
		if c := CharacterCentre(win); IsBackground(img, c.X, c.Y) {
			return fmt.Errorf("no character drawn at %v", c)
		}
		return nil
	}
}

// PaintedCheck is a WaitShot check: the window at r shows its content,
// more than a few colours, not the blank of a window not drawn yet.
func PaintedCheck(r image.Rectangle) func(image.Image) error {
	return func(img image.Image) error {
		seen := map[color.Color]bool{}
		for y := r.Min.Y; y < r.Max.Y && len(seen) < 8; y += 3 {
			for x := r.Min.X; x < r.Max.X && len(seen) < 8; x += 3 {
				seen[img.At(x, y)] = true
			}
		}
		if len(seen) < 8 {
			return fmt.Errorf("the window at %v shows %d colours: not drawn yet", r, len(seen))
		}
		return nil
	}
}

// BubbleCheck is a WaitShot check: a speech bubble shows above the pet.
func BubbleCheck(win image.Rectangle) func(image.Image) error {
	return func(img image.Image) error {
		if !BubbleShown(img, win) {
			return errors.New("no speech bubble with text above the pet")
		}
		return nil
	}
}
