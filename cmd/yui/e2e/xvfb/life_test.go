//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"yui/cmd/yui/e2e/harness"
)

// lifeServer is a Chat Completions server that keeps each request's
// newest message: "remind me" calls remind (tea in one minute), "look now"
// calls look at the screen; anything else, and a tool result, is "Okay.".
type lifeServer struct {
	mu   sync.Mutex
	reqs []lifeRequest
}

type lifeRequest struct {
	text   string // the newest user message's text (its text parts joined)
	result string // the newest message's text when it is a tool result
	images int    // image parts of the newest user message
}

func (s *lifeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(raw, &body)
	var req lifeRequest
	if n := len(body.Messages); n > 0 {
		last := body.Messages[n-1]
		var text string
		if json.Unmarshal(last.Content, &text) != nil {
			var parts []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			_ = json.Unmarshal(last.Content, &parts)
			for _, p := range parts {
				if p.Type == "text" {
					text += p.Text
				} else {
					req.images++
				}
			}
		}
		if last.Role == "tool" {
			req.result = text
		} else {
			req.text = text
		}
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()

	w.Header().Set("Content-Type", "text/event-stream")
	send := func(v string) { fmt.Fprintf(w, "data: %s\n\n", v); w.(http.Flusher).Flush() }
	chunk := func(delta, finish string) string {
		return `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	call := func(name, args string) {
		a, _ := json.Marshal(args)
		send(chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_l","type":"function","function":{"name":"`+name+`","arguments":`+string(a)+`}}]}`, "null"))
		send(chunk(`{}`, `"tool_calls"`))
	}
	words := req.text
	if i := strings.LastIndex(words, "</client_context>"); i >= 0 {
		words = strings.TrimSpace(words[i+len("</client_context>"):])
	}
	switch {
	case req.result == "" && words == "remind me":
		call("remind", `{"text":"tea","in_minutes":1}`)
	case req.result == "" && words == "look now":
		call("look", `{"at":"screen"}`)
	default:
		send(chunk(`{"content":"Okay."}`, "null"))
		send(chunk(`{}`, `"stop"`))
	}
	send("[DONE]")
}

func (s *lifeServer) requests() []lifeRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]lifeRequest(nil), s.reqs...)
}

// waitRequest waits for a request whose newest message holds want and
// returns it.
func (s *lifeServer) waitRequest(t testing.TB, limit time.Duration, want string) lifeRequest {
	t.Helper()
	var got lifeRequest
	harness.WaitFor(t, limit, "a request with "+want, func() bool {
		for _, r := range s.requests() {
			if strings.Contains(r.text, want) || strings.Contains(r.result, want) {
				got = r
				return true
			}
		}
		return false
	})
	return got
}

// hasRequest reports whether any request's newest message holds want.
func (s *lifeServer) hasRequest(want string) bool {
	for _, r := range s.requests() {
		if strings.Contains(r.text, want) || strings.Contains(r.result, want) {
			return true
		}
	}
	return false
}

// yuiEvent runs yui event and returns its exit code and output.
func yuiEvent(t testing.TB, d *harness.Display, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(harness.BinDir(t), "yui"), append([]string{"event"}, args...)...)
	cmd.Env = d.Env()
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, string(out)
}

// lifeSettings writes a settings file whose one preset talks to base and
// has life, and a state file holding reminders.
func lifeSettings(t testing.TB, dir, base string, life map[string]any, reminders []map[string]any) {
	t.Helper()
	st := map[string]any{"version": 2, "active_preset": "p-life0001", "log_level": "debug", "screen_look": "allowed",
		"presets": []any{map[string]any{
			"id": "p-life0001", "name": "Yui", "enabled": true, "character": "yui", "chat_api": "chat_completions",
			"chat_base_url": base, "model": "m", "chat_id": "yui-0000beef", "screen_on_turn": "always", "poke": true,
			"speech": map[string]any{"engine": "none", "rate": 1, "volume": 1}, "voice": map[string]any{"mode": "off", "engine": "openai"},
			"life": life,
		}}}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "state"), 0o700); err != nil {
		t.Fatal(err)
	}
	state, _ := json.Marshal(map[string]any{"version": 1, "positions": map[string]any{}, "relation": 50,
		"reminders": reminders, "next_reminder_id": len(reminders) + 1})
	if err := os.WriteFile(filepath.Join(dir, "state", "p-life0001.json"), state, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Yui speaks first under Xvfb and openbox, over Chat Completions: a
// reminder due while she was stopped comes late on start; real pointer
// input is the first activity of the day; a switch to a watched app;
// yui event reaches her (and exits 1 with no Yui); nothing starts while
// the composer holds text; a private window keeps the turn's screenshot
// and look's away; a remind call with in_minutes 1 survives a restart and
// fires a minute after it was set; a schedule runs at its time.
func TestLifeTurns(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	harness.StartWM(t, d)
	srv := &lifeServer{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })

	began := time.Now()
	// The schedule falls between 150 and 210 s from now: in the second run.
	sched := began.Add(150 * time.Second).Add(time.Minute).Truncate(time.Minute).Format("15:04")
	cfg := t.TempDir()
	lifeSettings(t, cfg, "http://"+l.Addr().String()+"/v1", map[string]any{
		"talk": "chatty", "quiet_hours": "", "first_activity": true, "back_from_away_minutes": 0,
		"watch_apps": []string{"xmessage"}, "private_titles": []string{"secretword"},
		"schedules": []any{map[string]any{"at": sched, "days": "daily", "note": "stand up"}},
	}, []map[string]any{{"id": 1, "text": "stretch", "at": began.Add(-10 * time.Minute).Format(time.RFC3339)}})

	a := harness.StartYuiIn(t, d, cfg, "")
	srv.waitRequest(t, 30*time.Second, `trigger: reminder "stretch" (10 min late)`)
	a.WaitRecord(5*time.Second, "life_turn", map[string]string{"trigger": "reminder"})
	waitTurnsEnded(t, a) // a first activity held by the running turn would be spent

	// Real input: the first of the day.
	d.Run(t, "xdotool", "mousemove", "100", "100")
	d.Run(t, "xdotool", "mousemove", "200", "150")
	srv.waitRequest(t, 10*time.Second, "trigger: first activity today")
	waitTurnsEnded(t, a)

	// A watched app becomes active.
	harness.Start(t, d.Env(), "xmessage", "-title", "notes", "hello")
	srv.waitRequest(t, 15*time.Second, `trigger: app switch to "Xmessage"`)
	waitTurnsEnded(t, a)

	// yui event reaches the running Yui; with none running it exits 1.
	if code, out := yuiEvent(t, d, "--config-dir", cfg, "--source", "build", "done"); code != 0 {
		t.Fatalf("yui event: exit %d: %s", code, out)
	}
	srv.waitRequest(t, 10*time.Second, `trigger: event from "build": "done"`)
	if code, out := yuiEvent(t, d, "--config-dir", t.TempDir(), "hello"); code != 1 || !strings.Contains(out, "no Yui is running") {
		t.Fatalf("yui event with no Yui: exit %d: %s", code, out)
	}
	waitTurnsEnded(t, a)

	// Nothing starts while the composer holds text.
	a.OpenComposer()
	d.Run(t, "xdotool", "type", "--delay", "20", "draft")
	if code, out := yuiEvent(t, d, "--config-dir", cfg, "later"); code != 0 {
		t.Fatalf("yui event: exit %d: %s", code, out)
	}
	held := map[string]string{"trigger": "event", "reason": "busy"}
	a.WaitRecord(5*time.Second, "life_skipped", held)
	// The scheduler tries again each second: a second hold shows the event
	// waited through a try while the draft stayed.
	harness.WaitForOr(5*time.Second, func() bool { return a.Count("life_skipped", held) >= 2 })
	if srv.hasRequest(`"later"`) {
		t.Fatal("an event turn ran while the composer held text")
	}
	d.Run(t, "xdotool", "key", "ctrl+a", "BackSpace", "Escape")
	srv.waitRequest(t, 10*time.Second, `trigger: event from "cli": "later"`)
	waitTurnsEnded(t, a)

	// A typed turn carries its screenshot; under a private window it does not, and look is refused.
	a.Talk("hello there")
	if r := srv.waitRequest(t, 10*time.Second, "hello there"); !strings.Contains(r.text, "screenshot source:") || r.images != 1 {
		t.Fatalf("a typed turn without its screenshot: %q (%d images)", r.text, r.images)
	}
	d.Run(t, "xdotool", "key", "Escape")
	harness.Start(t, d.Env(), "xmessage", "-title", "secretword vault", "private")
	d.WaitFocus(t, d.WindowID(t, "secretword vault"))
	waitTurnsEnded(t, a)
	a.Talk("what is this")
	if r := srv.waitRequest(t, 10*time.Second, "what is this"); strings.Contains(r.text, "screenshot source:") || r.images != 0 {
		t.Fatalf("a screenshot under a private window: %q (%d images)", r.text, r.images)
	}
	a.WaitRecord(5*time.Second, "screenshot_skipped", map[string]string{"reason": "private"})
	waitTurnsEnded(t, a)
	d.Run(t, "xdotool", "type", "--delay", "20", "look now")
	d.Run(t, "xdotool", "key", "Return")
	srv.waitRequest(t, 10*time.Second, "error: a private window is on the screen")
	waitTurnsEnded(t, a)

	// remind in one minute; a restart before it is due keeps it.
	d.Run(t, "xdotool", "type", "--delay", "20", "remind me")
	d.Run(t, "xdotool", "key", "Return")
	set := srv.waitRequest(t, 10*time.Second, "ok: reminder #2 at ")
	setAt := time.Now()
	t.Logf("remind: %s", set.result)
	a.Proc.Stop()
	st := harness.ReadState(t, cfg, "p-life0001")
	if rs, _ := st["reminders"].([]any); len(rs) != 1 {
		t.Fatalf("state after the restart's stop: %v", st["reminders"])
	}
	b := harness.StartYuiIn(t, d, cfg, "")
	srv.waitRequest(t, 90*time.Second, `trigger: reminder "tea"`)
	if wait := time.Since(setAt); wait < 55*time.Second {
		t.Fatalf("the reminder fired %s after it was set", wait)
	}
	b.WaitRecord(5*time.Second, "life_turn", map[string]string{"trigger": "reminder"})
	srv.waitRequest(t, time.Until(began.Add(5*time.Minute)), `trigger: schedule "stand up"`)
}

// waitTurnsEnded waits until every turn the app started has ended: the
// pet window logs pet_composer_unlocked as a running turn ends (at the
// debug level these settings set), one for each "turn" record.
func waitTurnsEnded(t *testing.T, a *harness.App) {
	t.Helper()
	harness.WaitFor(t, 30*time.Second, "the turns' end", func() bool {
		return a.Count("pet_composer_unlocked", nil) >= a.Count("turn", nil)
	})
}
