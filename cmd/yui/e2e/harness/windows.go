//go:build e2e

package harness

import (
	"bytes"
	"fmt"
	"image"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// StartWM runs openbox, an EWMH window manager, on d and waits until it
// manages new windows: a probe window must come up in a frame of its own.
// openbox's announcement (_NET_SUPPORTING_WM_CHECK) is not enough: it is
// set before openbox reads its events, and a window mapped in between can
// stay unmapped, its request never handled (seen here and in CI: the test
// then waited 15 s for a window that would never show). The probe is
// mapped again each second until it is framed, so that the test's own
// windows come after openbox is at work.
func StartWM(t testing.TB, d *Display) {
	t.Helper()
	Start(t, d.Env(), "openbox")
	WaitFor(t, 15*time.Second, "openbox managing the screen", func() bool {
		out, err := d.Command("xprop", "-root", "_NET_SUPPORTING_WM_CHECK").CombinedOutput()
		return err == nil && strings.Contains(string(out), "window id")
	})
	p := Start(t, d.Env(), "xmessage", "-title", "wm-probe", "-geometry", "40x20+0+0", "probe")
	defer p.Stop()
	var id string
	remaps := 0
	WaitFor(t, 15*time.Second, "openbox framing a new window", func() bool {
		if id == "" {
			out, _ := d.Command("xdotool", "search", "--name", "^wm-probe$").Output()
			if ids := strings.Fields(string(out)); len(ids) > 0 {
				id = ids[0]
				return WaitForOr(time.Second, func() bool { return d.framed(t, id) })
			}
			return false
		}
		if d.framed(t, id) {
			return true
		}
		remaps++
		_ = d.Command("xdotool", "windowmap", id).Run() // a new map request
		return WaitForOr(time.Second, func() bool { return d.framed(t, id) })
	})
	if remaps > 0 {
		t.Logf("openbox framed its probe window after %d more map requests", remaps)
	}
}

// framed reports whether window id is viewable inside a frame of the
// window manager's.
func (d *Display) framed(t testing.TB, id string) bool {
	t.Helper()
	out, err := d.Command("xwininfo", "-id", id).Output()
	if err != nil || !strings.Contains(string(out), "Map State: IsViewable") {
		return false
	}
	n, err := strconv.ParseInt(id, 0, 64)
	return err == nil && d.TopLevel(t, id) != strconv.FormatInt(n, 10)
}

// WindowID finds the one window titled name.
func (d *Display) WindowID(t testing.TB, name string) string {
	t.Helper()
	var id string
	found := WaitForOr(15*time.Second, func() bool {
		out, err := d.Command("xdotool", "search", "--onlyvisible", "--name", "^"+name+"$").Output()
		ids := strings.Fields(string(out))
		if err != nil || len(ids) == 0 {
			return false
		}
		id = ids[0]
		return true
	})
	if !found {
		tree, _ := d.Command("xwininfo", "-root", "-tree").CombinedOutput()
		t.Fatalf("timed out after 15s waiting for window %s on display %s; the windows:\n%s", name, d.Name, tree)
	}
	return id
}

// Frame is the rectangle of a window's frame on the root window: the
// window manager's frame window around it (decorations included), or the
// window itself when it is a child of the root. xwininfo, not xdotool:
// xdotool's getwindowgeometry adds the decorations once more.
func (d *Display) Frame(t testing.TB, id string) image.Rectangle {
	t.Helper()
	out := d.Run(t, "xwininfo", "-id", d.TopLevel(t, id))
	v := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		if k, s, ok := strings.Cut(strings.TrimSpace(l), ":"); ok {
			v[k], _ = strconv.Atoi(strings.TrimSpace(s))
		}
	}
	x, y := v["Absolute upper-left X"], v["Absolute upper-left Y"]
	return image.Rect(x, y, x+v["Width"], y+v["Height"])
}

// PetFeet is the bottom edge of the character: the pet window is laid
// out as 150 units of bubble area above a 192x256 character, less the
// rise of its content at the top of a monitor that the app last logged.
func (a *App) PetFeet(win image.Rectangle) (x, y int) {
	return win.Min.X + win.Dx()/2, win.Min.Y + 150 + 256 - a.Rise()
}

// Rise is the pet window content's rise the app last logged
// (pet_window_rise), 0 when none.
func (a *App) Rise() int {
	rise := 0
	for _, r := range a.Log() {
		if r.Str("msg") == "pet_window_rise" {
			v, _ := r["by"].(float64)
			rise = int(v)
		}
	}
	return rise
}

// ToolResult waits for the tool_result of call id at the simulator.
func (s *Sim) ToolResult(t testing.TB, id string) string {
	t.Helper()
	var text string
	WaitFor(t, 30*time.Second, "tool_result "+id, func() bool {
		for _, f := range s.Frames("tool_result") {
			if f["id"] == id {
				text, _ = f["result"].(string)
				if imgs, _ := f["images"].([]any); len(imgs) > 0 {
					// Images follow the text, each as the start of its data URL.
					for _, im := range imgs {
						u, _ := im.(string)
						text += "\n" + u[:min(len(u), 40)]
					}
				}
				return true
			}
		}
		return false
	})
	return text
}

// DragPet drags the pet by its body so that its feet end at (x, feet), as
// a person would: press, a few moves, release.
func DragPet(t *testing.T, a *App, petID string, x, feet int) {
	t.Helper()
	d := a.D
	// A drag now and then ends after a few steps on a loaded X server (the
	// pet lets go where it was): the drag is taken up again from there.
	for try := 0; ; try++ {
		pet := d.Frame(t, petID)
		px, pf := a.PetFeet(pet)
		grab := image.Pt(px, pf-128)
		moved := a.Count("pet_window_moved", nil)
		d.Drag(t, grab, grab.Add(image.Pt(x-px, feet-pf)))
		a.WaitRecord(10*time.Second, "pet_window_moved", nil)
		WaitFor(t, 10*time.Second, "the drop", func() bool { return a.Count("pet_window_moved", nil) > moved })
		nx, _ := a.PetFeet(d.Frame(t, petID))
		if Abs(nx-x) <= 40 || try == 2 {
			return
		}
		t.Logf("the drag ended early (pet's feet at x %d, want %d): again", nx, x)
	}
}

// Drag presses the first button at from, moves the pointer to to in steps
// of at most dragStep pixels, as a hand would, and releases it. Each step
// reaches the X server before the next (--sync).
func (d *Display) Drag(t *testing.T, from, to image.Point) {
	t.Helper()
	d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(from.X), fmt.Sprint(from.Y))
	d.Run(t, "xdotool", "mousedown", "1")
	dist := max(Abs(to.X-from.X), Abs(to.Y-from.Y))
	steps := max(1, (dist+dragStep-1)/dragStep)
	for i := 1; i <= steps; i++ {
		d.Run(t, "xdotool", "mousemove", "--sync", fmt.Sprint(from.X+(to.X-from.X)*i/steps), fmt.Sprint(from.Y+(to.Y-from.Y)*i/steps))
	}
	d.Run(t, "xdotool", "mouseup", "1")
}

// dragStep is the longest pointer step of a drag: long jumps can outrun a
// window that follows the pointer, as no hand does.
const dragStep = 15

// SetFullscreen asks the window manager to put window id (xdotool's
// decimal id) in or out of fullscreen, as an application does: an EWMH
// _NET_WM_STATE client message to the root window.
func (d *Display) SetFullscreen(t *testing.T, id string, on bool) {
	t.Helper()
	conn, err := xgb.NewConnDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	atom := func(name string) xproto.Atom {
		r, err := xproto.InternAtom(conn, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatal(err)
		}
		return r.Atom
	}
	win, err := strconv.ParseUint(id, 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	action := uint32(0) // _NET_WM_STATE_REMOVE
	if on {
		action = 1 // _NET_WM_STATE_ADD
	}
	ev := xproto.ClientMessageEvent{Format: 32, Window: xproto.Window(win), Type: atom("_NET_WM_STATE"),
		Data: xproto.ClientMessageDataUnionData32New([]uint32{action, uint32(atom("_NET_WM_STATE_FULLSCREEN")), 0, 1, 0})}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	mask := uint32(xproto.EventMaskSubstructureRedirect | xproto.EventMaskSubstructureNotify)
	if err := xproto.SendEventChecked(conn, false, root, mask, string(ev.Bytes())).Check(); err != nil {
		t.Fatal(err)
	}
}

// Visible reports whether a window titled name is mapped.
func (d *Display) Visible(name string) bool {
	out, _ := d.Command("xdotool", "search", "--onlyvisible", "--name", "^"+name+"$").Output()
	return strings.TrimSpace(string(out)) != ""
}

// ShapeRects returns the bounding SHAPE rectangles of X window id (the
// window's own coordinates): Wine turns a Win32 window region into these.
func (d *Display) ShapeRects(t testing.TB, id string) []image.Rectangle {
	t.Helper()
	conn, err := xgb.NewConnDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := shape.Init(conn); err != nil {
		t.Fatalf("the X server has no SHAPE extension: %v", err)
	}
	win, err := strconv.ParseUint(id, 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	r, err := shape.GetRectangles(conn, xproto.Window(win), shape.SkBounding).Reply()
	if err != nil {
		t.Fatalf("SHAPE rectangles of %s: %v", id, err)
	}
	out := make([]image.Rectangle, 0, len(r.Rectangles))
	for _, x := range r.Rectangles {
		out = append(out, image.Rect(int(x.X), int(x.Y), int(x.X)+int(x.Width), int(x.Y)+int(x.Height)))
	}
	return out
}

// returnKeysym is the Return key's keysym (X11's keysymdef.h).
const returnKeysym = 0xff0d

// PressReturn presses and releases Return through the XTEST extension on
// a connection of the test's own, and returns when the press was sent: a
// key at a known instant, without the few tens of milliseconds an
// xdotool process takes to start (the latency benchmark measures from it).
func (d *Display) PressReturn(t testing.TB) time.Time {
	t.Helper()
	conn, err := xgb.NewConnDisplay(d.Name)
	if err != nil {
		t.Fatalf("connect to %s: %v", d.Name, err)
	}
	defer conn.Close()
	if err := xtest.Init(conn); err != nil {
		t.Fatalf("XTEST on %s: %v", d.Name, err)
	}
	setup := xproto.Setup(conn)
	first := setup.MinKeycode
	n := byte(setup.MaxKeycode - first + 1)
	km, err := xproto.GetKeyboardMapping(conn, first, n).Reply()
	if err != nil {
		t.Fatalf("keyboard mapping: %v", err)
	}
	code := byte(0)
	per := int(km.KeysymsPerKeycode)
	for i := 0; i < int(n) && code == 0; i++ {
		for j := 0; j < per; j++ {
			if km.Keysyms[i*per+j] == returnKeysym {
				code = byte(first) + byte(i)
				break
			}
		}
	}
	if code == 0 {
		t.Fatal("no keycode for Return")
	}
	root := setup.DefaultScreen(conn).Root
	// A round trip first, so the press is not queued behind set-up.
	if _, err := xproto.GetInputFocus(conn).Reply(); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	xtest.FakeInput(conn, xproto.KeyPress, code, 0, root, 0, 0, 0)
	xtest.FakeInput(conn, xproto.KeyRelease, code, 0, root, 0, 0, 0)
	if _, err := xproto.GetInputFocus(conn).Reply(); err != nil { // both delivered
		t.Fatal(err)
	}
	return at
}

// rootRGB is PaintRoot's colour.
var rootRGB = [3]byte{0x3c, 0x6e, 0x71}

// WaitPainted polls r of the screen (XGetImage of the root, a few
// milliseconds apart) until some pixel in it is neither the root's colour
// nor black, an unpainted window's, and returns when it first saw one: a
// window's first frame on screen, seen as a person would. It fails after
// limit.
func (d *Display) WaitPainted(t testing.TB, r image.Rectangle, limit time.Duration) time.Time {
	t.Helper()
	var painted time.Time
	d.pollScreen(t, r, limit, "nothing painted", func(px []byte, at time.Time) bool {
		for i := 0; i+3 < len(px); i += 4 { // BGRX at 24 bits deep
			b, g, rr := px[i], px[i+1], px[i+2]
			if (b|g|rr) != 0 && [3]byte{rr, g, b} != rootRGB {
				painted = at
				return true
			}
		}
		return false
	})
	return painted
}

// settleQuiet is how long the screen must hold still to count as settled:
// longer than a frame at 60 a second, so that the wait between two frames
// of one change is not taken for its end.
const settleQuiet = 25 * time.Millisecond

// InputSettled runs input (keys typed into the app) and waits until r of
// the screen has changed from what it showed before and then held still
// for settleQuiet: the app has drawn what it was given and nothing since,
// as a person sees their text appear before pressing Enter. It fails
// after limit.
func (d *Display) InputSettled(t testing.TB, r image.Rectangle, limit time.Duration, input func()) {
	t.Helper()
	var before, last []byte
	var still time.Time
	changed := false
	d.pollScreen(t, r, limit, "no settled change", func(px []byte, at time.Time) bool {
		switch {
		case before == nil:
			before, last = bytes.Clone(px), bytes.Clone(px)
			input()
			still = time.Now()
			return false
		case !bytes.Equal(px, last):
			changed = changed || !bytes.Equal(px, before)
			last, still = bytes.Clone(px), at
			return false
		}
		return changed && at.Sub(still) >= settleQuiet
	})
}

// pollScreen reads r of the screen every 2 ms (a frame drawn is an event
// on the X server no client is told of) and hands each reading to done
// until it returns true; it fails with what after limit.
func (d *Display) pollScreen(t testing.TB, r image.Rectangle, limit time.Duration, what string, done func(px []byte, at time.Time) bool) {
	t.Helper()
	conn, err := xgb.NewConnDisplay(d.Name)
	if err != nil {
		t.Fatalf("connect to %s: %v", d.Name, err)
	}
	defer conn.Close()
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for ; time.Now().Before(deadline); <-tick.C {
		img, err := xproto.GetImage(conn, xproto.ImageFormatZPixmap, xproto.Drawable(root),
			int16(r.Min.X), int16(r.Min.Y), uint16(r.Dx()), uint16(r.Dy()), ^uint32(0)).Reply()
		at := time.Now()
		if err != nil {
			t.Fatalf("read the screen: %v", err)
		}
		if done(img.Data, at) {
			return
		}
	}
	t.Fatalf("%s in %v within %s", what, r, limit)
}
