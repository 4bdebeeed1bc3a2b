//go:build e2e

package xvfb

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// Helpers of the chaos and soak tests (chaos_push_test.go,
// chaos_request_test.go) and the 10,000-turn benchmark: a log read as it
// grows, runtime_stats samples, the reconnect schedule, typed turns.

// soakLong reports whether the long run was asked for (make soak sets
// YUI_SOAK=long); the short one runs inside make test.
func soakLong() bool { return os.Getenv("YUI_SOAK") == "long" }

// soakReport logs one line of the run's counts, and appends it to the file
// YUI_SOAK_REPORT names, which make soak prints last: go test shows a
// passing test's log only with -v.
func soakReport(t testing.TB, format string, args ...any) {
	t.Helper()
	line := fmt.Sprintf(format, args...)
	t.Log(line)
	if path := os.Getenv("YUI_SOAK_REPORT"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Errorf("soak report: %v", err)
			return
		}
		defer f.Close()
		fmt.Fprintln(f, line)
	}
}

// checkReconnects checks every ws_reconnect of the log against
// docs/protocol/push-transport.md's schedule: 1 s first, doubling per failed attempt up
// to 30 s, back to 1 s after a ready; a new connection (an edited preset,
// the user's reconnect) starts the schedule anew. The next attempt must
// start after the delay, not before (and not much later). After a 4401
// close nothing is retried until the preset changes. It returns how many
// delays it checked and the delays seen.
func checkReconnects(t testing.TB, recs []harness.Record) (int, map[string]int) {
	t.Helper()
	const first, limit = time.Second, 30 * time.Second
	want := first
	seen := map[string]int{}
	n := 0
	rejected := false
	for i, r := range recs {
		switch r.Str("msg") {
		case "ws_ready", "session_start", "preset_reconnect", "reconnect_requested":
			want = first
			rejected = false
		case "ws_close":
			if r.Num("code") == 4401 {
				rejected = true
			}
		case "ws_open":
			if rejected {
				t.Errorf("a socket opened after a 4401 close with no key change (record %d)", i)
			}
		case "ws_reconnect":
			if rejected {
				t.Errorf("ws_reconnect after a 4401 close (record %d)", i)
			}
			got, err := time.ParseDuration(r.Str("delay"))
			if err != nil || got != want {
				t.Errorf("record %d: ws_reconnect delay %q, want %v by the schedule", i, r.Str("delay"), want)
			}
			seen[r.Str("delay")]++
			n++
			// The next attempt starts after the delay.
			for _, next := range recs[i+1:] {
				if m := next.Str("msg"); m == "ws_open" || m == "ws_dial_failed" {
					gap := next.At().Sub(r.At())
					if gap < got-50*time.Millisecond || gap > got+3*time.Second {
						t.Errorf("record %d: the attempt after ws_reconnect %v came %v later", i, got, gap)
					}
					break
				} else if m == "session_start" || m == "preset_reconnect" {
					break
				}
			}
			want = min(want*2, limit)
		}
	}
	return n, seen
}

// checkGrowth fails when goroutines or open files grew past the slack.
func checkGrowth(t testing.TB, before, after harness.Stats) {
	t.Helper()
	if after.Goroutines > before.Goroutines+harness.GoroutineSlack {
		t.Errorf("goroutines grew %s over the run (slack %d)", harness.Growth(before.Goroutines, after.Goroutines), harness.GoroutineSlack)
	}
	if after.Fds > before.Fds+harness.FdSlack {
		t.Errorf("open files grew %s over the run (slack %d)", harness.Growth(before.Fds, after.Fds), harness.FdSlack)
	}
}

// typist types turns into a pet's open composer.
type typist struct {
	t   testing.TB
	a   *harness.App
	log *harness.LogTail
}

// send types text into the composer and presses Enter, and returns once
// the composer sent it (pet_composer_send). The composer is opened first
// when the line did not go out (it lost its focus to another window, or
// closed while idle).
func (ty *typist) send(text string) {
	ty.t.Helper()
	n := ty.log.Count("pet_composer_send", nil)
	for try := 0; ; try++ {
		ty.a.D.Run(ty.t, "xdotool", "type", "--delay", "8", text)
		ty.a.D.Run(ty.t, "xdotool", "key", "Return")
		if harness.WaitForOr(5*time.Second, func() bool { return ty.log.Count("pet_composer_send", nil) > n }) {
			return
		}
		if try == 3 {
			ty.t.Fatalf("the composer never sent %q", text)
		}
		ty.a.OpenComposer()
		ty.a.D.Run(ty.t, "xdotool", "key", "ctrl+a", "BackSpace")
	}
}

// stop clicks the composer's send button, a stop button while a turn
// runs (the entry is locked then, so Enter does nothing). The window's
// layout puts its centre 28 px from the window's right edge and 482 px
// below its top (windows/petwindow/layout.go: the bubble area, the character, the
// plate and the pill above the composer row).
// turn sends text and returns the id of the turn record it made.
func (ty *typist) turn(text string) string {
	ty.t.Helper()
	before := ty.log.Count("turn", nil)
	ty.send(text)
	harness.WaitFor(ty.t, 10*time.Second, "the turn record", func() bool { return ty.log.Count("turn", nil) > before })
	var id string
	for _, r := range ty.log.All() {
		if r.Str("msg") == "turn" {
			id = r.Str("turn_id")
		}
	}
	return id
}

func (ty *typist) stop() {
	ty.t.Helper()
	win := ty.a.PetRect()
	harness.Click(ty.t, ty.a.D, win.Max.X-28, win.Min.Y+482)
}

// waitUnlocked waits until the composer unlocked after n turns.
func (ty *typist) waitUnlocked(n int, limit time.Duration) {
	ty.t.Helper()
	harness.WaitFor(ty.t, limit, fmt.Sprintf("the composer unlocked after turn %d", n), func() bool {
		return ty.log.Count("pet_composer_unlocked", nil) >= n
	})
}

// checkSettingsKept compares the saved settings with what the test wrote:
// every field of the preset but those in changed is as written, nothing
// was set aside as corrupt or invalid.
func checkSettingsKept(t testing.TB, dir string, wrote map[string]any, changed map[string]any) map[string]any {
	t.Helper()
	got := harness.ReadSettings(t, dir)
	ps, _ := got["presets"].([]any)
	if len(ps) != 1 {
		t.Fatalf("settings hold %d presets after the run, want 1", len(ps))
	}
	p, _ := ps[0].(map[string]any)
	want := wrote["presets"].([]any)[0].(map[string]any)
	for k, v := range want {
		if c, ok := changed[k]; ok {
			v = c
		}
		if k == "speech" {
			if fmt.Sprint(p[k].(map[string]any)["engine"]) != "none" {
				t.Errorf("settings after the run: speech %v", p[k])
			}
			continue
		}
		if fmt.Sprint(p[k]) != fmt.Sprint(v) {
			t.Errorf("settings after the run: %s = %v, want %v", k, p[k], v)
		}
	}
	if got["active_preset"] != wrote["active_preset"] || got["log_level"] != "debug" {
		t.Errorf("settings after the run: active_preset %v, log_level %v", got["active_preset"], got["log_level"])
	}
	for _, pat := range []string{"settings.json.corrupt-*", "settings.json.invalid-*", "settings.json.newer-*"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			t.Errorf("the settings file was set aside: %v", m)
		}
	}
	return got
}
