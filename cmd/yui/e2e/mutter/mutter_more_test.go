//go:build e2e

package mutter

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/cmd/yui/e2e/harness"
)

// xprop32 reads a CARDINAL list property of window id; nil when unset.
func xprop32(d *harness.Display, t *testing.T, id, name string) []int {
	t.Helper()
	out := d.Run(t, "xprop", "-id", id, name)
	_, vals, ok := strings.Cut(out, " = ")
	if !ok {
		return nil
	}
	var v []int
	for _, f := range strings.Split(strings.TrimSpace(vals), ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil
		}
		v = append(v, n)
	}
	return v
}

// clientRect is window id's own rectangle on the root window, without
// the window manager's frame.
func clientRect(d *harness.Display, t *testing.T, id string) image.Rectangle {
	t.Helper()
	v := map[string]int{}
	for _, l := range strings.Split(d.Run(t, "xwininfo", "-id", id), "\n") {
		if k, s, ok := strings.Cut(strings.TrimSpace(l), ":"); ok {
			v[k], _ = strconv.Atoi(strings.TrimSpace(s))
		}
	}
	x, y := v["Absolute upper-left X"], v["Absolute upper-left Y"]
	return image.Rect(x, y, x+v["Width"], y+v["Height"])
}

// visibleFrame is what a person sees of window id, computed apart from the
// app: its rectangle, less the client-drawn shadow of _GTK_FRAME_EXTENTS,
// plus the window manager's _NET_FRAME_EXTENTS (left, right, top, bottom).
func visibleFrame(t *testing.T, d *harness.Display, id string) image.Rectangle {
	t.Helper()
	r := clientRect(d, t, id)
	if g := xprop32(d, t, id, "_GTK_FRAME_EXTENTS"); len(g) == 4 {
		r = image.Rect(r.Min.X+g[0], r.Min.Y+g[2], r.Max.X-g[1], r.Max.Y-g[3])
	}
	if n := xprop32(d, t, id, "_NET_FRAME_EXTENTS"); len(n) == 4 {
		r = image.Rect(r.Min.X-n[0], r.Min.Y-n[2], r.Max.X+n[1], r.Max.Y+n[3])
	}
	return r
}

// csdWindow maps a window as a GTK app with client-side decorations does:
// no window manager frame (_MOTIF_WM_HINTS), a shadow of the given
// extents drawn inside it (_GTK_FRAME_EXTENTS: left, right, top, bottom).
// It lives until the test ends.
func csdWindow(d *harness.Display, t *testing.T, r image.Rectangle, title string, ext [4]uint32) string {
	t.Helper()
	conn, err := xgb.NewConnDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	atom := func(name string) xproto.Atom {
		a, err := xproto.InternAtom(conn, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatal(err)
		}
		return a.Atom
	}
	u32 := func(vs ...uint32) []byte {
		b := make([]byte, 4*len(vs))
		for i, v := range vs {
			xgb.Put32(b[4*i:], v)
		}
		return b
	}
	s := xproto.Setup(conn).DefaultScreen(conn)
	id, err := xproto.NewWindowId(conn)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(conn, s.RootDepth, id, s.Root, int16(r.Min.X), int16(r.Min.Y), uint16(r.Dx()), uint16(r.Dy()),
		0, xproto.WindowClassInputOutput, s.RootVisual, xproto.CwBackPixel, []uint32{0xd0d8e0}).Check(); err != nil {
		t.Fatal(err)
	}
	set := func(prop string, typ xproto.Atom, format byte, data []byte) {
		n := uint32(len(data))
		if format == 32 {
			n /= 4
		}
		if err := xproto.ChangePropertyChecked(conn, xproto.PropModeReplace, id, atom(prop), typ, format, n, data).Check(); err != nil {
			t.Fatal(err)
		}
	}
	set("_NET_WM_NAME", atom("UTF8_STRING"), 8, []byte(title))
	set("WM_NAME", xproto.AtomString, 8, []byte(title))
	set("WM_CLASS", xproto.AtomString, 8, []byte(title+"\x00"+title+"\x00"))
	// USPosition: the window manager keeps the position asked for.
	hints := make([]byte, 18*4)
	xgb.Put32(hints, 1|2) // USPosition | USSize
	set("WM_NORMAL_HINTS", atom("WM_SIZE_HINTS"), 32, hints)
	set("_MOTIF_WM_HINTS", atom("_MOTIF_WM_HINTS"), 32, u32(2, 0, 0, 0, 0))
	set("_GTK_FRAME_EXTENTS", xproto.AtomCardinal, 32, u32(ext[0], ext[1], ext[2], ext[3]))
	if err := xproto.MapWindowChecked(conn, id).Check(); err != nil {
		t.Fatal(err)
	}
	return strconv.FormatUint(uint64(id), 10)
}

// decorationsScenario sits on the CSD window, lists the perch targets,
// then sits on the framed one, one turn each.
const decorationsScenario = `{"steps": [
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-sit-csd", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "sit_on_window", "app": "CsdTest"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "tool_call", "id": "c-targets", "turn_id": "{turn_id}", "name": "look", "arguments": {"at": "perch_targets"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-sit-framed", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "sit_on_window", "app": "Xmessage"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

// mutterDecorations: the pet sits on the visible top edge of a window
// with client-side decorations (its shadow taken off) and of one the
// compositor frames (its title bar added), within 2 px; perch_targets
// gives the same edge.
func mutterDecorations(t *testing.T, m *mutter) {
	d := m.Display
	csd := csdWindow(d, t, image.Rect(400, 560, 1000, 900), "CsdTest", [4]uint32{26, 26, 23, 29})
	d.WindowID(t, "CsdTest")
	harness.Start(t, d.Env(), "xmessage", "-title", "Framed", "-geometry", "420x160+1200+500", "framed by the compositor")
	framed := d.WindowID(t, "Framed")
	scen := filepath.Join(t.TempDir(), "decorations.json")
	if err := os.WriteFile(scen, []byte(decorationsScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	cfg := t.TempDir()
	mutterSettings(t, cfg, s, nil)
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	petID := d.WindowID(t, "Yui")

	a.Talk("sit on the window")
	if res := s.ToolResult(t, "c-sit-csd"); !strings.HasPrefix(res, "ok: sitting on ") {
		t.Fatalf("sit_on_window CsdTest = %q", res)
	}
	vis := visibleFrame(t, d, csd)
	if x := clientRect(d, t, csd); vis.Min.Y != x.Min.Y+23 {
		t.Fatalf("the CSD window's visible frame %v, its X window %v", vis, x)
	}
	var feet int
	if !harness.WaitForOr(10*time.Second, func() bool {
		_, feet = a.PetFeet(d.Frame(t, petID))
		return harness.Abs(feet-vis.Min.Y) <= 2
	}) {
		windowShot(d, t, petID, "on-csd")
		t.Fatalf("the pet's feet at %d (window %v), the CSD window's visible top edge at %d (%v, X window %v)",
			feet, d.Frame(t, petID), vis.Min.Y, vis, clientRect(d, t, csd))
	}
	windowShot(d, t, petID, "on-csd")
	targets := s.ToolResult(t, "c-targets")
	if want := fmt.Sprintf(`"title":"CsdTest","monitor":0,"x":%d,"y":%d,"width":%d`, vis.Min.X, vis.Min.Y, vis.Dx()); !strings.Contains(targets, want) {
		t.Fatalf("perch_targets lacks %s: %s", want, targets)
	}
	a.WaitRecord(20*time.Second, "push.turn_end", nil)

	// The pet moved: the composer opens where it is now.
	opened := a.Count("pet_composer_open", nil)
	pointTo(d, t, harness.CharacterCentre(d.Frame(t, petID)))
	d.Run(t, "xdotool", "click", "--repeat", "2", "--delay", "80", "1")
	harness.WaitFor(t, 10*time.Second, "the composer to open", func() bool { return a.Count("pet_composer_open", nil) > opened })
	d.WaitFocus(t, petID)
	d.Run(t, "xdotool", "type", "--delay", "30", "and on the other one")
	d.Run(t, "xdotool", "key", "Return")
	if res := s.ToolResult(t, "c-sit-framed"); !strings.HasPrefix(res, "ok: sitting on ") {
		t.Fatalf("sit_on_window Xmessage = %q", res)
	}
	vis = visibleFrame(t, d, framed)
	if ext := xprop32(d, t, framed, "_NET_FRAME_EXTENTS"); len(ext) != 4 || ext[2] == 0 {
		t.Logf("the compositor set no title bar extents on xmessage: %v", ext)
	}
	if !harness.WaitForOr(10*time.Second, func() bool {
		_, feet = a.PetFeet(d.Frame(t, petID))
		return harness.Abs(feet-vis.Min.Y) <= 2
	}) {
		t.Fatalf("the pet's feet at %d (window %v), the framed window's visible top edge at %d (%v, X window %v)",
			feet, d.Frame(t, petID), vis.Min.Y, vis, clientRect(d, t, framed))
	}
	windowShot(d, t, petID, "on-framed")
}

// mutterMonitorGone: a position saved where no monitor is now (a monitor
// unplugged) brings the pet onto a monitor that exists; dragged from
// there onto the second monitor and restarted, it comes back there.
func mutterMonitorGone(t *testing.T, m *mutter) {
	d := m.Display
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	cfg := t.TempDir()
	mutterSettings(t, cfg, s, map[string]any{mutterLayout: map[string]any{"x": 3600, "y": 200}})
	a := harness.StartYuiIn(t, d, cfg, "")
	win := a.PetRect()
	if !characterIn(win, image.Rect(0, 0, 1920, 1080)) {
		t.Fatalf("the pet stands at %v, not on the primary monitor", win)
	}
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	petID := d.WindowID(t, "Yui")
	// A synthetic drag under load sometimes ends after its first steps
	// (on Xvfb too): it is tried again until the drop is on monitor 1.
	var moved harness.Record
	for try := 0; ; try++ {
		n := a.Count("pet_window_moved", nil)
		dragPetTo(a, t, petID, 2500, 600)
		harness.WaitFor(t, 10*time.Second, "the drop", func() bool { return a.Count("pet_window_moved", nil) > n })
		moved = a.Last("pet_window_moved")
		r := image.Rect(int(moved.Num("x")), int(moved.Num("y")), int(moved.Num("x"))+win.Dx(), int(moved.Num("y"))+win.Dy())
		if characterIn(r, mutterRight) {
			break
		}
		if try == 2 {
			t.Fatalf("dragged to %v, not onto monitor 1", r)
		}
	}
	a.Proc.Stop()
	a.WaitRecord(10*time.Second, "app_quit", nil)
	b := harness.StartYuiIn(t, d, cfg, "")
	harness.WaitFor(t, 30*time.Second, "the second run's pet", func() bool { return b.Count("pet_window_shown", nil) == 2 })
	again := b.Last("pet_window_shown")
	if again.Num("x") != moved.Num("x") || again.Num("y") != moved.Num("y") {
		t.Fatalf("restarted at %v,%v, dragged to %v,%v", again["x"], again["y"], moved["x"], moved["y"])
	}
}

// trayWatcher is a StatusNotifierWatcher, as a desktop's panel runs one:
// it records the items that register.
type trayWatcher struct {
	items chan [2]string // sender, path
}

func (w *trayWatcher) RegisterStatusNotifierItem(sender dbus.Sender, service string) *dbus.Error {
	w.items <- [2]string{string(sender), service}
	return nil
}

func (w *trayWatcher) RegisterStatusNotifierHost(string) *dbus.Error { return nil }

// mutterTray: without a watcher the log says there is no tray; with one
// the tray registers, and its menu's Do not disturb item works.
func mutterTray(t *testing.T, m *mutter) {
	d := m.Display
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", "echo")
	a := harness.StartYuiIn(t, d, t.TempDir(), "sim-key", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(30*time.Second, "tray_unavailable", map[string]string{"reason": "no StatusNotifierWatcher on the session bus"})
	a.Proc.Stop()

	conn, err := dbus.Connect(m.bus)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	w := &trayWatcher{items: make(chan [2]string, 4)}
	if err := conn.Export(w, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher"); err != nil {
		t.Fatal(err)
	}
	if r, err := conn.RequestName("org.kde.StatusNotifierWatcher", dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own the watcher name: %v %v", r, err)
	}
	defer conn.ReleaseName("org.kde.StatusNotifierWatcher")

	b := harness.StartYuiIn(t, d, t.TempDir(), "sim-key", "--chat-api", "push", "--chat-base-url", s.Url)
	b.WaitRecord(30*time.Second, "tray_ready", nil)
	var item [2]string
	select {
	case item = <-w.items:
	case <-time.After(30 * time.Second):
		t.Fatal("the tray did not register with the watcher")
	}
	t.Logf("tray item %v", item)
	menu := conn.Object(item[0], "/StatusNotifierMenu")
	var rev uint32
	var layout []any
	if err := menu.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &layout); err != nil {
		t.Fatalf("the tray menu's layout: %v", err)
	}
	id, ok := findMenuItem(layout, "Do not disturb")
	if !ok {
		t.Fatalf("no Do not disturb in the tray menu: %v", layout)
	}
	if err := menu.Call("com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(0)).Err; err != nil {
		t.Fatalf("click Do not disturb: %v", err)
	}
	b.WaitRecord(10*time.Second, "do_not_disturb", map[string]string{"on": "true", "manual": "true"})
	harness.WaitFor(t, 10*time.Second, "the pet hidden", func() bool { return !d.Visible("Yui") })
	// The tray is the tray library's own, not Fyne's, which also made a
	// hidden window with a GL context of its own (app/systray.go).
	if out, _ := d.Command("xdotool", "search", "--name", "^SystrayMonitor$").Output(); strings.TrimSpace(string(out)) != "" {
		t.Errorf("a hidden SystrayMonitor window is there: %s", out)
	}
	// The menu follows the state: Do not disturb is checked now.
	if err := menu.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &layout); err != nil {
		t.Fatalf("the tray menu's layout: %v", err)
	}
	if st := menuItemProp(layout, "Do not disturb", "toggle-state"); st != int32(1) {
		t.Errorf("Do not disturb's toggle-state after the click = %v, want 1", st)
	}
}

// menuItemProp is the property prop of the item labelled label in a
// dbusmenu layout, nil if absent.
func menuItemProp(node []any, label, prop string) any {
	if len(node) != 3 {
		return nil
	}
	if props, ok := node[1].(map[string]dbus.Variant); ok {
		if l, ok := props["label"].Value().(string); ok && strings.ReplaceAll(l, "_", "") == label {
			if v, ok := props[prop]; ok {
				return v.Value()
			}
			return nil
		}
	}
	kids, _ := node[2].([]dbus.Variant)
	for _, k := range kids {
		if sub, ok := k.Value().([]any); ok {
			if v := menuItemProp(sub, label, prop); v != nil {
				return v
			}
		}
	}
	return nil
}

// findMenuItem walks a dbusmenu layout (id, properties, children) for the
// item labelled label.
func findMenuItem(node []any, label string) (int32, bool) {
	if len(node) != 3 {
		return 0, false
	}
	id, _ := node[0].(int32)
	if props, ok := node[1].(map[string]dbus.Variant); ok {
		if l, ok := props["label"].Value().(string); ok && strings.ReplaceAll(l, "_", "") == label {
			return id, true
		}
	}
	kids, _ := node[2].([]dbus.Variant)
	for _, k := range kids {
		if sub, ok := k.Value().([]any); ok {
			if id, ok := findMenuItem(sub, label); ok {
				return id, true
			}
		}
	}
	return 0, false
}

// topScenario: the first turn sits the pet on the xmessage near the top
// of monitor 0 and speaks; the second (a poke) speaks again.
const topScenario = `{"steps": [
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "tool_call", "id": "c-sit-high", "turn_id": "{turn_id}", "name": "body_action", "arguments": {"action": "sit_on_window", "app": "Xmessage"}}},
  {"wait": "tool_result", "timeout_ms": 30000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "The view from up here is lovely: I can see every window on this screen, the clock in the corner, and the little dock at the bottom, and my bubble has no room left above my head up here."}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 120000},
  {"send": {"type": "render", "turn_id": "{turn_id}", "source": "file", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "I followed your window all the way to the other screen and I am still sitting on its top edge, right under the top of this smaller monitor, with my words below me."}]}},
  {"send": {"type": "turn_end", "turn_id": "{turn_id}"}},
  {"wait": "turn", "timeout_ms": 600000}
]}`

// bubbleBelow reports whether a window screenshot of the pet shows its
// speech bubble under the character (feet: window rows), below the pill
// where the closed composer would be, and none above the head.
func bubbleBelow(img image.Image, feet int) bool {
	b := img.Bounds()
	light := 0
	for y := b.Min.Y; y < feet-256+60; y++ { // the bubble's room and the top of the character's frame
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3>>8 > 235 {
				light++
			}
		}
	}
	return light < 300 && harness.BubbleShown(img, image.Rect(b.Min.X, feet+50, b.Max.X, b.Max.Y))
}

// mutterTopOfScreen: a pet sitting on a window near the top of a monitor
// keeps its character where it sits (the window's empty top does not push
// it down into the window), its bubble shows below it, and it follows the
// window onto the other monitor the same way.
func mutterTopOfScreen(t *testing.T, m *mutter) {
	d := m.Display
	// Its top edge 10 px under the character's height: no room for a
	// long line's bubble above.
	harness.Start(t, d.Env(), "xmessage", "-title", "High", "-geometry", "420x100+300+266", "a window near the top")
	high := d.WindowID(t, "High")
	scen := filepath.Join(t.TempDir(), "top.json")
	if err := os.WriteFile(scen, []byte(topScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	s := harness.StartSim(t, harness.FreePort(t), "sim-key", scen)
	cfg := t.TempDir()
	mutterSettings(t, cfg, s, nil)
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	petID := d.WindowID(t, "Yui")

	// on checks that the character's feet are on High's visible top edge,
	// the character whole on monitor mon, and the bubble under it.
	on := func(mon image.Rectangle, name string) {
		t.Helper()
		var top, feet int
		var pet image.Rectangle
		if !harness.WaitForOr(10*time.Second, func() bool {
			top = visibleFrame(t, d, high).Min.Y
			pet = d.Frame(t, petID)
			_, feet = a.PetFeet(pet)
			return harness.Abs(feet-top) <= 2
		}) {
			t.Fatalf("%s: the character's feet at %d (window %v), High's top edge at %d", name, feet, pet, top)
		}
		if feet-256 < mon.Min.Y || pet.Min.Y < mon.Min.Y {
			t.Fatalf("%s: the character (feet at %d) or the window %v is above monitor %v", name, feet, pet, mon)
		}
		n := 0
		harness.WaitFor(t, 15*time.Second, name+": the bubble under the character", func() bool {
			n++
			return bubbleBelow(windowShot(d, t, petID, fmt.Sprintf("%s-%d", name, n)), feet-pet.Min.Y)
		})
	}
	a.Talk("sit up there")
	if res := s.ToolResult(t, "c-sit-high"); !strings.HasPrefix(res, "ok: sitting on ") {
		t.Fatalf("sit_on_window = %q", res)
	}
	d.Run(t, "xdotool", "key", "Escape") // the composer closes: the bubble has its place
	on(image.Rect(0, 0, 1920, 1080), "top-monitor0")

	// High moves to monitor 1, as high up: the pet follows it there.
	d.Run(t, "xdotool", "windowmove", high, "2300", "266")
	harness.WaitFor(t, 10*time.Second, "High on monitor 1", func() bool { return clientRect(d, t, high).Min.X >= 1920 })
	pet := d.Frame(t, petID)
	px, pf := a.PetFeet(pet)
	pointTo(d, t, image.Pt(px, pf-128))
	d.Run(t, "xdotool", "click", "1") // a poke: the second turn speaks
	a.WaitRecord(10*time.Second, "pet_poke", nil)
	harness.WaitFor(t, 20*time.Second, "the poke's reply", func() bool {
		return a.Count("speech", map[string]string{"kind": "reply"}) >= 2
	})
	on(mutterRight, "top-monitor1")
}
