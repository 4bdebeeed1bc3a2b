//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/request/requesttest"
)

// say types text into the open composer and sends it, then waits for the
// server's request n. Enter while the previous turn still runs would stop
// it instead: the text then stays, and Enter is pressed again.
func say(a *harness.App, s *requesttest.Counting, text string, n int) {
	a.T.Helper()
	a.D.Run(a.T, "xdotool", "type", "--delay", "8", text)
	a.D.Run(a.T, "xdotool", "key", "Return")
	for try := 0; !s.WaitRequests(n, 3*time.Second); try++ {
		if try == 3 {
			a.T.Fatalf("request %d (%q) never came", n, text)
		}
		a.D.Run(a.T, "xdotool", "key", "Return")
	}
	// The composer is locked while the turn runs: typing before it is
	// unlocked again would lose letters.
	harness.WaitFor(a.T, 10*time.Second, fmt.Sprintf("the composer unlocked after request %d", n), func() bool {
		return a.Count("pet_composer_unlocked", nil) >= n
	})
}

// 300 turns on context_window 4096: every request stays under the window
// with the newest turn in it; after a restart the first request carries
// the earlier turns.
func TestLongConversationKeepsUnderWindowAndSurvivesRestart(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv := requesttest.NewCounting()
	hs := requesttest.Start(t, srv.Handle)
	cfg := t.TempDir()
	st := map[string]any{"version": 1, "active_preset": "p-long0001", "log_level": "debug", "presets": []any{map[string]any{
		"id": "p-long0001", "name": "Yui", "enabled": true, "character": "yui", "chat_api": "chat_completions",
		"chat_base_url": hs.URL + "/v1", "model": "m", "context_window": 4096, "chat_id": "yui-0000abcd",
	}}}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}

	a := harness.StartYuiIn(t, d, cfg, "")
	a.OpenComposer()
	// A first turn lets the pet window settle (its bubble appears) before
	// the counted ones.
	say(a, srv, "hello", 1)
	const turns = 300
	start := time.Now()
	for i := 1; i <= turns; i++ {
		say(a, srv, fmt.Sprintf("turn %d", i), i+1)
	}
	t.Logf("%d turns in %s", turns, time.Since(start).Round(time.Millisecond))
	reqs := srv.Requests()[1:]
	if n := srv.Refused(); n > 0 {
		t.Errorf("the server refused %d requests as over its context", n)
	}
	maxTokens := 0
	for i, r := range reqs {
		maxTokens = max(maxTokens, r.Tokens)
		if r.Tokens > requesttest.CountingContext {
			t.Errorf("request %d: %d tokens, over the window", i+1, r.Tokens)
		}
		if want := fmt.Sprintf("\n\nturn %d", i+1); !strings.HasSuffix(r.Last, want) {
			t.Fatalf("request %d: the newest message is %q, want the turn %q", i+1, r.Last, want)
		}
	}
	if strings.Contains(reqs[turns-1].Raw, `\n\nturn 1"`) {
		t.Error("the 300th request still carries the first turn: nothing was dropped")
	}
	t.Logf("largest request: %d tokens as the server counts", maxTokens)
	if srv.Summaries() == 0 {
		t.Error("300 turns dropped many from the context, and no summary request for long-term memory came")
	}
	t.Logf("%d memory summary requests", srv.Summaries())
	// The memory is saved as each turn ends, not only at quit: stop
	// waits for the process to end, however its shutdown goes.
	a.Proc.Stop()

	mem := filepath.Join(cfg, "memory", "p-long0001.json")
	fi, err := os.Stat(mem)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("memory file: %v %v", fi, err)
	}

	b := harness.StartYuiIn(t, d, cfg, "")
	harness.WaitFor(t, 30*time.Second, "the second run's pet", func() bool { return b.Count("pet_window_shown", nil) == 2 })
	b.OpenComposer()
	say(b, srv, "do you remember?", turns+2)
	first := srv.Requests()[turns+1]
	for _, want := range []string{`\n\nturn 300"`, `\n\nturn 299"`, `Noted, request 301.`, `\n\ndo you remember?"`} {
		if !strings.Contains(first.Raw, want) {
			t.Errorf("the first request after the restart lacks %s", want)
		}
	}
	if first.Tokens > requesttest.CountingContext {
		t.Errorf("the first request after the restart: %d tokens", first.Tokens)
	}
	d.Screenshot(t, "after-restart")
}
