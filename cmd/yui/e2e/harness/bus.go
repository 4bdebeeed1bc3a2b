//go:build e2e

package harness

import (
	"os"
	"path/filepath"
	"testing"
)

// SessionBus starts a private session bus for programs under an X test
// display and returns its address, for DBUS_SESSION_BUS_ADDRESS; it and
// the services it starts stop when the test ends. Without one a Fyne
// program autolaunches a session bus that outlives the test, and the
// desktop portals that bus activates mount their document store into the
// test's HOME, which then cannot be removed. Unlike NewSession it needs
// no system bus, logind stand-in or XWayland folder.
func SessionBus(t testing.TB) string {
	t.Helper()
	return privateSessionBus(t, withServices)
}

// QuietBus is a private session bus that starts no service: what an X
// test display's programs get (StartXvfb), so that no desktop portal or
// other session service is activated by them, outlives the test, or
// mounts anything in a HOME the test removes. An X11 session's Yui needs
// none of them.
func QuietBus(t testing.TB) string {
	t.Helper()
	return privateSessionBus(t, withoutServices)
}

func privateSessionBus(t testing.TB, act busActivation) string {
	t.Helper()
	NeedTools(t, "dbus-daemon")
	root, err := os.MkdirTemp("", "yui-bus-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	for _, d := range []string{"run", "home"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return startBus(t, root, "session", act)
}
