//go:build e2e

package wayland

import (
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// Under KWin (kwin_wayland --virtual), whose idle time is only in the
// ext-idle-notify Wayland protocol: Yui reads it on its own Wayland
// connection, and a pointer moved by the compositor's own input (KWin's
// fake input, as a remote desktop moves it) is the first activity of the
// day, which XWayland never sees.
func TestKWinIdle(t *testing.T) {
	// The fake-input protocol is for trusted programs; the test is one.
	// (Read by KWin from its environment, which the session passes on.)
	t.Setenv("KWIN_WAYLAND_NO_PERMISSION_CHECKS", "1")
	s := harness.NewSession(t, "KDE")
	s.KWin(t)
	srv := &lookServer{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	cfg := t.TempDir()
	writeLookSettings(t, cfg, "http://"+l.Addr().String()+"/v1")
	a := harness.StartYuiIn(t, s.Display, cfg, "", "--stats-every", "500ms")
	a.WaitRecord(60*time.Second, "idle_source", map[string]string{"source": "ext_idle_notifier_v1"})
	a.WaitTicks(4) // past the first second: the idle time is known
	for _, msg := range []string{"life_turn", "life_skipped"} {
		if a.Count(msg, map[string]string{"trigger": "first_activity"}) != 0 {
			t.Fatal("a first activity before any input")
		}
	}
	movePointer(t, filepath.Join(s.Runtime, s.Wayland))
	srv.wait(t, 20*time.Second, "the first activity turn", func(r lookRequest) bool {
		return strings.Contains(r.text, "trigger: first activity today")
	})
}

// movePointer moves KWin's pointer through org_kde_kwin_fake_input, on a
// Wayland connection of the test's: the bare wire protocol, a few
// messages.
func movePointer(t *testing.T, socket string) {
	t.Helper()
	c, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	ord := binary.NativeEndian
	send := func(obj uint32, op uint16, args ...any) {
		var body []byte
		for _, a := range args {
			switch v := a.(type) {
			case uint32:
				body = ord.AppendUint32(body, v)
			case string:
				body = ord.AppendUint32(body, uint32(len(v)+1))
				body = append(append(body, v...), 0)
				for len(body)%4 != 0 {
					body = append(body, 0)
				}
			}
		}
		b := ord.AppendUint32(nil, obj)
		b = ord.AppendUint32(b, uint32(8+len(body))<<16|uint32(op))
		if _, err := c.Write(append(b, body...)); err != nil {
			t.Fatal(err)
		}
	}
	// read until the callback's done, calling f for each registry global.
	roundtrip := func(callback uint32, f func(obj uint32, op uint16, args []byte)) {
		send(1, 0, callback) // wl_display.sync
		for {
			var h [8]byte
			if _, err := io.ReadFull(c, h[:]); err != nil {
				t.Fatal(err)
			}
			w := ord.Uint32(h[4:])
			args := make([]byte, int(w>>16)-8)
			if _, err := io.ReadFull(c, args); err != nil {
				t.Fatal(err)
			}
			obj, op := ord.Uint32(h[:]), uint16(w)
			if obj == 1 && op == 0 {
				t.Fatalf("KWin's protocol error: %q", args)
			}
			if obj == callback {
				return
			}
			f(obj, op, args)
		}
	}
	send(1, 1, uint32(2)) // wl_display.get_registry → 2
	var name, version uint32
	roundtrip(3, func(obj uint32, op uint16, args []byte) {
		if obj != 2 || op != 0 {
			return
		}
		n := ord.Uint32(args[4:])
		iface := string(args[8 : 8+n-1])
		if iface == "org_kde_kwin_fake_input" {
			name, version = ord.Uint32(args), ord.Uint32(args[8+(n+3)&^3:])
		}
	})
	if name == 0 {
		t.Fatal("KWin lists no org_kde_kwin_fake_input")
	}
	send(2, 0, name, "org_kde_kwin_fake_input", min(version, 4), uint32(4)) // bind → 4
	send(4, 0, "yui-e2e", "moves the pointer for a test")                   // authenticate
	for i := 0; i < 3; i++ {
		send(4, 1, uint32(20*256), uint32(10*256)) // pointer_motion, 24.8 fixed
	}
	roundtrip(5, func(uint32, uint16, []byte) {})
}
