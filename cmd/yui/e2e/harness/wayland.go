//go:build e2e

package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

// A Wayland desktop session of its own for a test: a private system bus
// with a stand-in for systemd-logind on it, a private session bus, a
// runtime folder and a home folder, and then a real compositor in it
// (StartGnomeShell, StartKWin in wayland_shells.go). Nothing of the
// machine's own session leaks in: the variables that name it are cleared.

// Session is a private desktop session; its Display is the compositor's
// XWayland once a compositor runs.
type Session struct {
	*Display
	Runtime   string // XDG_RUNTIME_DIR: the Wayland socket, the Xauthority
	Home      string // HOME: the user's extensions, dconf database, KWin's config
	Bus       string // the session bus address
	SystemBus string // the private system bus address
	Wayland   string // WAYLAND_DISPLAY, once the compositor listens
	Desktop   string // XDG_CURRENT_DESKTOP: "GNOME" or "KDE"
	// Scale is KWin's output scale, with XWayland scaled by the same
	// ("legacy applications: apply scaling themselves"), so that X's
	// coordinates are the compositor's times Scale; 0 or 1 for none.
	Scale int

	kwinOnce sync.Once
	kwin     *kwinReports // KWinEval's receiver
}

// sessionKeys are the variables of the machine's own session that a test
// session replaces.
var sessionKeys = []string{"DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS",
	"XAUTHORITY", "XDG_RUNTIME_DIR", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
	"XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP", "DESKTOP_SESSION", "GNOME_SETUP_DISPLAY"}

// BaseEnv is the process environment without the machine's session.
func BaseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, s := range sessionKeys {
			if k == s {
				keep = false
			}
		}
		if keep {
			env = append(env, kv)
		}
	}
	return env
}

// SessionEnv is what a program in the session sees: BaseEnv and the
// session's own variables (the X display's too once there is one).
func (s *Session) SessionEnv() []string {
	env := append(BaseEnv(),
		"XDG_RUNTIME_DIR="+s.Runtime, "HOME="+s.Home,
		"DBUS_SESSION_BUS_ADDRESS="+s.Bus, "DBUS_SYSTEM_BUS_ADDRESS="+s.SystemBus,
		"XDG_SESSION_TYPE=wayland")
	if s.Desktop != "" {
		env = append(env, "XDG_CURRENT_DESKTOP="+s.Desktop)
	}
	if s.Wayland != "" {
		env = append(env, "WAYLAND_DISPLAY="+s.Wayland)
	}
	return env
}

// NeedTools skips a test whose programs are missing, but fails it under
// CI, where .ci/deps.sh installed them: a group never skips silently.
func NeedTools(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not installed (.ci/deps.sh test installs it): %v", n, err)
			}
			t.Skipf("%s not installed; run .ci/deps.sh test", n)
		}
	}
}

// NewSession makes the folders and starts both buses and the logind
// stand-in; all stop when the test ends.
func NewSession(t testing.TB, desktop string) *Session {
	t.Helper()
	NeedTools(t, "dbus-daemon")
	root, err := os.MkdirTemp("", "yui-wl-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s := &Session{Runtime: filepath.Join(root, "run"), Home: filepath.Join(root, "home"), Desktop: desktop}
	for _, d := range []string{s.Runtime, s.Home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	s.SystemBus = startBus(t, root, "system", withoutServices)
	s.Bus = startBus(t, root, "session", withServices)
	StartLogind(t, s.SystemBus)
	// XWayland's sockets go in the shared X11 folder, which mutter wants
	// world-writable and sticky as every X server makes it.
	if fi, err := os.Stat("/tmp/.X11-unix"); err == nil && fi.Mode().Perm()&0o022 != 0o022 {
		msg := fmt.Sprintf("/tmp/.X11-unix is %v, not writable by every user: XWayland cannot start (chmod 1777 it)", fi.Mode())
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return s
}

// busConfig is a private bus: the system bus's type, so that programs
// asking for "the system bus" accept it, and open to this user alone (the
// socket sits in the test's own folder). The session bus keeps the
// session's service activation (dconf, the accessibility bus).
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>%s</type>
  %s
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
  </policy>
</busconfig>
`

// busActivation says whether a private bus starts the services the
// machine has for its type (a session bus: dconf, the accessibility bus,
// the desktop portals).
type busActivation bool

const (
	withServices    busActivation = true
	withoutServices busActivation = false
)

// startBus runs a dbus-daemon of the type given on a socket in dir and
// returns its address once it accepts connections.
func startBus(t testing.TB, dir, typ string, act busActivation) string {
	t.Helper()
	sock := filepath.Join(dir, typ+"_bus")
	extra := ""
	if typ == "session" && act == withServices {
		extra = "<standard_session_servicedirs/>"
	}
	conf := filepath.Join(dir, typ+".conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(busConfig, typ, extra, sock)), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--nofork", "--config-file="+conf)
	cmd.Env = append(BaseEnv(), "XDG_RUNTIME_DIR="+filepath.Join(dir, "run"), "HOME="+filepath.Join(dir, "home"))
	// Its own process group: the services it starts (dconf) stop with it.
	StartGroup(t, cmd, "dbus-daemon ("+typ+")")
	addr := "unix:path=" + sock
	WaitFor(t, 20*time.Second, "the "+typ+" bus", func() bool {
		c, err := dbus.Dial(addr)
		if err != nil {
			return false
		}
		defer c.Close()
		return c.Auth(nil) == nil && c.Hello() == nil
	})
	return addr
}

// StartGroup starts cmd in a process group of its own, which the test's
// end stops (SIGTERM, then SIGKILL after 10 s): the program and what it
// started. Its output is kept and logged when the test failed.
func StartGroup(t testing.TB, cmd *exec.Cmd, what string) *Proc {
	t.Helper()
	p := &Proc{Cmd: cmd}
	cmd.Stdout, cmd.Stderr = p, p
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", what, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		// What the leader left in its group (a service it activated).
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if t.Failed() {
			t.Logf("%s output:\n%s", what, Tail(p.Output(), 6000))
		}
	})
	return p
}

// The logind stand-in: GNOME Shell asks org.freedesktop.login1 on the
// system bus for its session (to lock, to know it is active); this
// answers with one active session, "yui-1", for every process.
const (
	login1Name    = "org.freedesktop.login1"
	login1Path    = dbus.ObjectPath("/org/freedesktop/login1")
	login1Manager = "org.freedesktop.login1.Manager"
	login1Session = "org.freedesktop.login1.Session"
	sessionPath   = dbus.ObjectPath("/org/freedesktop/login1/session/yui_2d1")
)

type login1 struct{}

func (login1) GetSession(id string) (dbus.ObjectPath, *dbus.Error) { return sessionPath, nil }
func (login1) GetSessionByPID(pid uint32) (dbus.ObjectPath, *dbus.Error) {
	return sessionPath, nil
}

// ListSessions is a(susso): id, uid, user, seat, path.
func (login1) ListSessions() ([]struct {
	ID   string
	UID  uint32
	User string
	Seat string
	Path dbus.ObjectPath
}, *dbus.Error) {
	return []struct {
		ID   string
		UID  uint32
		User string
		Seat string
		Path dbus.ObjectPath
	}{{"yui-1", uint32(os.Getuid()), "yui", "seat0", sessionPath}}, nil
}

// session1 is the session object: what GNOME Shell calls on it is
// accepted and does nothing.
type session1 struct{}

func (session1) Activate() *dbus.Error                            { return nil }
func (session1) Lock() *dbus.Error                                { return nil }
func (session1) Unlock() *dbus.Error                              { return nil }
func (session1) SetLockedHint(bool) *dbus.Error                   { return nil }
func (session1) SetIdleHint(bool) *dbus.Error                     { return nil }
func (session1) TakeControl(bool) *dbus.Error                     { return nil }
func (session1) ReleaseControl() *dbus.Error                      { return nil }
func (session1) SetType(string) *dbus.Error                       { return nil }
func (session1) SetBrightness(string, string, uint32) *dbus.Error { return nil }

// StartLogind owns org.freedesktop.login1 on the bus at addr until the
// test ends.
func StartLogind(t testing.TB, addr string) {
	t.Helper()
	c, err := dbus.Connect(addr)
	if err != nil {
		t.Fatalf("logind stand-in: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Export(login1{}, login1Path, login1Manager); err != nil {
		t.Fatal(err)
	}
	if err := c.Export(session1{}, sessionPath, login1Session); err != nil {
		t.Fatal(err)
	}
	str := func(v any) *prop.Prop { return &prop.Prop{Value: v, Emit: prop.EmitFalse} }
	if _, err := prop.Export(c, sessionPath, prop.Map{login1Session: {
		"Id": str("yui-1"), "Active": str(true), "State": str("active"), "Type": str("wayland"),
		"Class": str("user"), "Remote": str(false), "LockedHint": str(false), "IdleHint": str(false),
		"Name": str("yui"), "Seat": str(struct {
			ID   string
			Path dbus.ObjectPath
		}{"seat0", "/org/freedesktop/login1/seat/seat0"}),
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := prop.Export(c, login1Path, prop.Map{login1Manager: {
		"IdleHint": str(false), "PreparingForSleep": str(false), "PreparingForShutdown": str(false),
	}}); err != nil {
		t.Fatal(err)
	}
	if r, err := c.RequestName(login1Name, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("logind stand-in: own %s: %v (%v)", login1Name, r, err)
	}
}
