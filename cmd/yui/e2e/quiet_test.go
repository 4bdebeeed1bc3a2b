//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// setFullscreen asks the window manager to put window id (xdotool's
// decimal id) in or out of fullscreen, as an application does: an EWMH
// _NET_WM_STATE client message to the root window.
func (d *display) setFullscreen(t *testing.T, id string, on bool) {
	t.Helper()
	conn, err := xgb.NewConnDisplay(d.name)
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

// visible reports whether a window titled name is mapped.
func (d *display) visible(name string) bool {
	out, _ := d.command("xdotool", "search", "--onlyvisible", "--name", "^"+name+"$").Output()
	return strings.TrimSpace(string(out)) != ""
}

func TestQuietFullscreenHidesThePets(t *testing.T) {
	d := startXvfb(t, 1280, 800)
	startWM(t, d)
	scen := filepath.Join(t.TempDir(), "idle.json")
	if err := os.WriteFile(scen, []byte(`{"steps": [{"wait": "turn", "timeout_ms": 600000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startSim(t, freePort(t), "sim-key", scen)
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.url, "--stats-every", "1s")
	a.waitRecord(30*time.Second, "ws_ready", nil)
	d.windowID(t, "Yui")
	start(t, d.env(), "xmessage", "-title", "Film", "-geometry", "420x160+300+360", "a film")
	film := d.windowID(t, "Film")
	a.waitTicks(3) // past a poll of the fullscreen watcher (every 2 s)
	if !d.visible("Yui") {
		t.Fatal("the pet hid before anything went fullscreen")
	}

	d.setFullscreen(t, film, true)
	a.waitRecord(10*time.Second, "do_not_disturb", map[string]string{"on": "true"})
	waitFor(t, 10*time.Second, "the pet hidden", func() bool { return !d.visible("Yui") })
	d.screenshot(t, "fullscreen")

	d.setFullscreen(t, film, false)
	a.waitRecord(10*time.Second, "do_not_disturb", map[string]string{"on": "false"})
	waitFor(t, 10*time.Second, "the pet back", func() bool { return d.visible("Yui") })
	win := a.petRect()
	d.waitShot(t, "fullscreen-ended", 10*time.Second, drawnCheck(win))
}
