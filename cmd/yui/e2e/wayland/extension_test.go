//go:build e2e

package wayland

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"yui/cmd/yui/e2e/harness"
	"yui/tools/desktop/gnome"
)

// TestExtensionFacts: Yui's GNOME Shell extension, as the files setup
// writes, under GNOME Shell 43: GetAll lists a native foot window with its
// application id and frame, and moving it sends an Event signal.
func TestExtensionFacts(t *testing.T) {
	s := harness.NewSession(t, "GNOME")
	s.GnomeShell(t, func(env []string) {
		dir := filepath.Join(s.Home, ".local/share/gnome-shell/extensions", gnome.UUID)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, body := range gnome.Files(43) {
			if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s.Gsettings(t, "set", "org.gnome.shell", "enabled-extensions", "['yui-e2e-unsafe@yui.test', '"+gnome.UUID+"']")
	})
	s.Native(t, "Notes", "notes")
	c := s.SessionConn(t)
	if err := c.AddMatchSignal(dbus.WithMatchInterface(gnome.Interface)); err != nil {
		t.Fatal(err)
	}
	sig := make(chan *dbus.Signal, 256)
	c.Signal(sig)
	obj := c.Object(gnome.BusName, gnome.ObjectPath)
	var all string
	harness.WaitFor(t, 30*time.Second, "the extension listing Notes", func() bool {
		if err := obj.Call(gnome.Interface+".GetAll", 0).Store(&all); err != nil {
			return false
		}
		return strings.Contains(all, `"title":"Notes"`) && !strings.Contains(all, `"width":0`)
	})
	var facts struct {
		Windows []map[string]any `json:"windows"`
	}
	if err := json.Unmarshal([]byte(all), &facts); err != nil {
		t.Fatalf("GetAll: %v\n%s", err, all)
	}
	t.Logf("GetAll: %s", all)
	w := harness.GnomeWindow("Notes")
	deadline := time.After(10 * time.Second)
	for {
		s.Eval(t, w+".move_frame(true, 310, 220)")
		select {
		case <-time.After(time.Second): // moved again: the first placement may come after
		case v := <-sig:
			if len(v.Body) == 1 && strings.Contains(v.Body[0].(string), `"x":310`) {
				t.Logf("event: %s", v.Body[0])
				workspaceHides(t, s, obj)
				return
			}
		case <-deadline:
			t.Fatal("no Event with the moved frame in 10 s")
		}
	}
}

// workspaceHides: on another workspace Notes is out of sight, as an X11
// window unmapped there: its facts say minimized, and back they do not.
func workspaceHides(t *testing.T, s *harness.Session, obj dbus.BusObject) {
	t.Helper()
	minimized := func() bool {
		var all string
		if err := obj.Call(gnome.Interface+".GetAll", 0).Store(&all); err != nil {
			t.Fatal(err)
		}
		i := strings.Index(all, `"title":"Notes"`)
		return i >= 0 && strings.Contains(all[i:], `"minimized":true`) &&
			strings.Index(all[i:], `"minimized":true`) < strings.Index(all[i:], "}")
	}
	if s.Eval(t, "global.workspace_manager.n_workspaces > 1") != "true" {
		s.Eval(t, "global.workspace_manager.append_new_workspace(false, global.get_current_time()) && true")
	}
	s.Eval(t, "global.workspace_manager.get_workspace_by_index(1).activate(global.get_current_time())")
	harness.WaitFor(t, 10*time.Second, "Notes out of sight on another workspace", minimized)
	s.Eval(t, "global.workspace_manager.get_workspace_by_index(0).activate(global.get_current_time())")
	harness.WaitFor(t, 10*time.Second, "Notes in sight again", func() bool { return !minimized() })
}
