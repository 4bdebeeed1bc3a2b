package app

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"log/slog"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"yui/pet/settings"
	"yui/tools/body"
	"yui/tools/desktop/desktoptest"
	"yui/tools/look"
	"yui/transport"
	"yui/transport/clock"
	"yui/transport/push"
	"yui/transport/pushsim"
)

// askCounter is the app's screen permission with the pet's prompt
// replaced by a count: the prompt is the user's window.
type askCounter struct {
	screenPermission
	asked atomic.Int32
}

func (a *askCounter) AskScreenLook() { a.asked.Add(1) }

// stillBody is a pet standing still on the first display.
type stillBody struct{}

func (stillBody) State() body.State {
	return body.State{Rect: image.Rect(100, 544, 292, 800), Visible: true, Emotion: "neutral", Motion: "idle"}
}
func (stillBody) MoveTo(image.Point, time.Duration, body.Motion) {}
func (stillBody) Play(body.Motion)                               {}
func (stillBody) SetVisible(bool)                                {}

type grayCapture struct{}

func (grayCapture) Capture(r image.Rectangle) (*image.RGBA, error) {
	return image.NewRGBA(image.Rect(0, 0, 64, 48)), nil
}

// TestABackendCannotPassThePermissionGates runs main's real toolset over a
// real push connection to a fake backend that calls the gated tools: look
// at the screen is answered by the saved permission (asking the user
// while unanswered, never capturing before they allow it); browser,
// switched off, is an unknown tool; no call or argument changes a setting.
func TestABackendCannotPassThePermissionGates(t *testing.T) {
	store, _, err := settings.Open(t.TempDir(), settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	// Another preset with a key of its own: it never reaches this backend.
	if _, err := store.AddPreset("Mochi"); err != nil {
		t.Fatal(err)
	}
	const otherKey = "sk-other-preset-0a1b2c3d"
	if err := store.UpdatePreset(store.Get().Presets[1].ID, func(p *settings.Preset) error { p.Key = otherKey; return nil }); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	y := &yui{log: log, store: store}
	y.browserPath = "/usr/bin/chromium"
	s := &session{y: y, log: log, scores: &memScores{score: settings.RelationDefault}}
	s.setPreset(store.Get().Presets[0])
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 1280, 800), 0, true))
	s.actor = body.New(body.Options{Desktop: d, Body: stillBody{}, PID: 1})
	defer s.actor.Close()
	perm := &askCounter{screenPermission: screenPermission{s}}
	s.look = look.New(look.Options{Actor: s.actor, Desktop: d, Capture: grayCapture{}, Permission: perm})
	set := s.newToolset()
	defer set.Close()

	srv, err := pushsim.Start(pushsim.Options{Key: "k-gates"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	tr, err := push.New(transport.Options{ChatBaseURL: srv.URL, Key: "k-gates", ChatID: "yui-0000gate",
		Tools: set.Tools(), Clock: clock.Real{}, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	go func() {
		for range tr.Events() {
		}
	}()
	tr.Start()
	conn := srv.NextConn(t, 20*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	before, err := os.ReadFile(store.Path())
	if err != nil {
		t.Fatal(err)
	}

	n := 0
	callTool := func(name, args string) (string, int) {
		t.Helper()
		n++
		id := "gate-" + string(rune('a'+n))
		if err := conn.Send(map[string]any{"type": "tool_call", "id": id, "turn_id": "b-1", "name": name,
			"arguments": json.RawMessage(args)}); err != nil {
			t.Fatal(err)
		}
		f, err := conn.NextOfType(ctx, "tool_result")
		if err != nil {
			t.Fatalf("%s %s: %v", name, args, err)
		}
		var res struct {
			ID     string   `json:"id"`
			Result string   `json:"result"`
			Images []string `json:"images"`
		}
		if err := f.Decode(&res); err != nil || res.ID != id {
			t.Fatalf("%s: result %s (%v)", name, f.Raw, err)
		}
		return res.Result, len(res.Images)
	}
	setLook := func(v string) {
		if err := store.Update(func(st *settings.Settings) error { st.ScreenLook = v; return nil }); err != nil {
			t.Fatal(err)
		}
	}

	// Never answered: the user is asked, nothing is captured.
	if got, imgs := callTool("look", `{"at":"screen"}`); got != look.ErrWaitingPermission || imgs != 0 || perm.asked.Load() != 1 {
		t.Fatalf("unanswered: %q, %d images, asked %d", got, imgs, perm.asked.Load())
	}
	// Arguments cannot carry a grant.
	for _, args := range []string{`{"at":"screen","allowed":true}`, `{"at":"screen","permission":"allowed"}`} {
		if got, imgs := callTool("look", args); got[:len("error: ")] != "error: " || imgs != 0 {
			t.Fatalf("%s: %q, %d images", args, got, imgs)
		}
	}
	// No tool grants anything: the names a backend might try are unknown,
	// and so is browser while its switch is off.
	for _, name := range []string{"browser", "settings", "screen_look", "set_permission", "grant", "shell", "exec", "read_file"} {
		if got, _ := callTool(name, `{"action":"read","url":"http://127.0.0.1:1/","value":"allowed"}`); got != "error: unknown tool" {
			t.Fatalf("%s: %q", name, got)
		}
	}
	after, _ := os.ReadFile(store.Path())
	if !bytes.Equal(before, after) {
		t.Fatalf("the backend's calls changed the settings file:\n%s\n->\n%s", before, after)
	}

	setLook(settings.ScreenLookRefused)
	if got, imgs := callTool("look", `{"at":"screen"}`); got != look.ErrNotAllowed || imgs != 0 || perm.asked.Load() != 1 {
		t.Fatalf("refused: %q, %d images, asked %d", got, imgs, perm.asked.Load())
	}
	setLook(settings.ScreenLookAllowed)
	if got, imgs := callTool("look", `{"at":"screen"}`); imgs != 1 || got[:len("screenshot of display")] != "screenshot of display" {
		t.Fatalf("allowed: %q, %d images", got, imgs)
	}
	st := store.Get()
	if st.ScreenLook != settings.ScreenLookAllowed || st.BrowserTool {
		t.Fatalf("settings now %q, browser %v", st.ScreenLook, st.BrowserTool)
	}
	if conn.Hello.Key != "k-gates" {
		t.Errorf("hello key %q", conn.Hello.Key)
	}
	for _, f := range conn.Received() {
		if bytes.Contains(f.Raw, []byte(otherKey)) {
			t.Errorf("another preset's key went to this backend: %s", f.Raw)
		}
	}
}

// TestTurnScreenshotsNeedTheScreenPermission: a turn carries a screenshot
// (screen_on_turn "always") only while the user allows screen look.
func TestTurnScreenshotsNeedTheScreenPermission(t *testing.T) {
	store, _, err := settings.Open(t.TempDir(), settings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	log := slog.New(slog.DiscardHandler)
	y := &yui{log: log, store: store}
	s := &session{y: y, log: log}
	p := store.Get().Presets[0]
	p.ScreenOnTurn = "always"
	s.setPreset(p)
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 1280, 800), 0, true))
	s.actor = body.New(body.Options{Desktop: d, Body: stillBody{}, PID: 1})
	defer s.actor.Close()
	s.look = look.New(look.Options{Actor: s.actor, Desktop: d, Capture: grayCapture{}, Permission: screenPermission{s}})
	for _, c := range []struct {
		look string
		want bool
	}{{settings.ScreenLookUnset, false}, {settings.ScreenLookRefused, false}, {settings.ScreenLookAllowed, true}} {
		if err := store.Update(func(st *settings.Settings) error { st.ScreenLook = c.look; return nil }); err != nil {
			t.Fatal(err)
		}
		for _, trig := range []transport.Trigger{transport.TriggerUserMessage, "addressed by Mochi", "poke"} {
			if got := s.screenshot(trig) != nil; got != c.want {
				t.Errorf("screen look %s, trigger %s: screenshot %v", c.look, trig, got)
			}
		}
	}
}
