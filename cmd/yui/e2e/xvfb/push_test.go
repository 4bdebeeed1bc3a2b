//go:build e2e

package xvfb

import (
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

func startYui(t testing.TB, d *harness.Display, key string, args ...string) *harness.App {
	t.Helper()
	return harness.StartYuiIn(t, d, t.TempDir(), key, args...)
}

func TestTypedTurnOverPush(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	port := harness.FreePort(t)
	s := harness.StartSim(t, port, "sim-key", "echo")
	a := startYui(t, d, "sim-key", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	win := a.PetRect()
	d.WaitShot(t, "idle", 10*time.Second, func(img image.Image) error { return harness.NotShaped(img, win) })

	a.Talk("hello yui")
	turn := a.WaitRecord(20*time.Second, "turn", map[string]string{"spoke_text": "false"})
	id := turn.Str("turn_id")
	a.WaitRecord(20*time.Second, "push.render", map[string]string{"turn_id": id})
	a.WaitRecord(20*time.Second, "push.turn_end", map[string]string{"turn_id": id})
	a.WaitRecord(10*time.Second, "speech", map[string]string{"turn_id": id, "kind": "reply"})

	var got map[string]any
	harness.WaitFor(t, 5*time.Second, "the turn frame at the simulator", func() bool {
		for _, f := range s.Frames("turn") {
			if f["turn_id"] == id {
				got = f
				return true
			}
		}
		return false
	})
	if got["text"] != "hello yui" {
		t.Fatalf("turn text = %q, want %q", got["text"], "hello yui")
	}
	cc, _ := got["client_context"].(string)
	if !strings.Contains(cc, "trigger: user message") || !strings.HasPrefix(cc, "<client_context>\n") {
		t.Fatalf("client_context = %q", cc)
	}
	talking := d.WaitShot(t, "talking", 10*time.Second, harness.BubbleCheck(win))
	harness.AssertShaped(t, talking, win)
	hello := s.Frames("hello")
	if len(hello) == 0 || hello[0]["key"] != "[redacted]" {
		t.Fatalf("hello frames = %v", hello)
	}
	for _, r := range a.Log() {
		b, _ := json.Marshal(r)
		if strings.Contains(string(b), "sim-key") {
			t.Fatalf("the key appears in the app log: %s", b)
		}
	}
}

func TestWrongKeyIsRejectedWithoutRetry(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	port := harness.FreePort(t)
	s := harness.StartSim(t, port, "right-key", "echo")
	a := startYui(t, d, "wrong-key", "--chat-api", "push", "--chat-base-url", s.Url, "--stats-every", "1s")
	a.WaitRecord(30*time.Second, "ws_close", map[string]string{"code": "4401"})
	a.WaitTicks(4) // past the first two backoff steps
	if n := a.Count("ws_open", nil); n != 1 {
		t.Fatalf("%d connections opened after a 4401 close, want 1 (no retry)", n)
	}
	if n := a.Count("ws_reconnect", nil); n != 0 {
		t.Fatalf("ws_reconnect logged %d times after a 4401 close", n)
	}
	win := a.PetRect()
	a.WaitRecord(5*time.Second, "pet_pill", map[string]string{"conn": "key rejected"})
	// A rejected key opens the settings window on the preset; it stands
	// over the pet on this small screen, so it goes before the pet is
	// checked.
	a.WaitRecord(10*time.Second, "window_open", map[string]string{"window": "settings"})
	d.Screenshot(t, "key-rejected-settings")
	_ = d.Command("xdotool", "search", "--name", "^Yui settings$", "windowunmap", "--sync").Run()
	shot := d.Screenshot(t, "key-rejected")
	harness.AssertShaped(t, shot, win)
}

func TestSimulatorKilledMidTurn(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	port := harness.FreePort(t)
	// A backend that takes the turn and never answers it.
	scenario := filepath.Join(t.TempDir(), "silent.json")
	if err := os.WriteFile(scenario, []byte(`{"loop":true,"steps":[{"wait":"turn","timeout_ms":600000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := harness.StartSim(t, port, "k", scenario)
	a := startYui(t, d, "k", "--chat-api", "push", "--chat-base-url", s.Url)
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	a.Talk("are you there")
	turn := a.WaitRecord(20*time.Second, "turn", nil)
	id := turn.Str("turn_id")
	harness.WaitFor(t, 10*time.Second, "the turn at the simulator", func() bool { return len(s.Frames("turn")) > 0 })

	s.Proc.Stop()
	a.WaitRecord(20*time.Second, "network_drop", map[string]string{"turn_id": id, "stage": "push_wait"})
	a.WaitRecord(20*time.Second, "speech", map[string]string{"turn_id": id, "kind": "failure"})
	a.WaitRecord(10*time.Second, "ws_reconnect", map[string]string{"delay": "1s"})
	a.WaitRecord(10*time.Second, "ws_reconnect", map[string]string{"delay": "2s"})
	shot := d.Screenshot(t, "failure-line")
	if !harness.BubbleShown(shot, a.PetRect()) {
		t.Fatal("the failure line is not shown in a bubble")
	}

	// The backend comes back on the same port; the next turn works.
	s2 := harness.StartSim(t, port, "k", "echo")
	a.WaitRecord(60*time.Second, "ws_ready", nil)
	harness.WaitFor(t, 60*time.Second, "a second ws_ready", func() bool { return a.Count("ws_ready", nil) >= 2 })
	a.Talk("and now")
	harness.WaitFor(t, 20*time.Second, "a turn_end for the second turn", func() bool {
		for _, f := range s2.Frames("turn") {
			if f["text"] == "and now" {
				_, ok := harness.FindRecord(a.Log(), "push.turn_end", map[string]string{"turn_id": f["turn_id"].(string)})
				return ok
			}
		}
		return false
	})
}
