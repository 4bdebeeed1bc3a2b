//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// logTail is a log reader with the soak tests' lookups.
type logTail struct{ *logReader }

func newLogTail(dir string) *logTail { return &logTail{newLogReader(dir)} }

// all returns every record so far, reading only what was written since.
func (l *logTail) all() []record { return l.read() }

// count counts the records named msg whose fields match.
func (l *logTail) count(msg string, fields map[string]string) int {
	return countRecords(l.all(), msg, fields)
}

func countRecords(recs []record, msg string, fields map[string]string) int {
	n := 0
	for _, r := range recs {
		if r.str("msg") == msg && matches(r, fields) {
			n++
		}
	}
	return n
}

func matches(r record, fields map[string]string) bool {
	for k, v := range fields {
		if fmt.Sprint(r[k]) != v {
			return false
		}
	}
	return true
}

// find returns the first record named msg matching fields, from index from.
func (l *logTail) find(from int, msg string, fields map[string]string) (record, bool) {
	recs := l.all()
	for _, r := range recs[min(from, len(recs)):] {
		if r.str("msg") == msg && matches(r, fields) {
			return r, true
		}
	}
	return nil, false
}

// wait waits for a record named msg matching fields.
func (l *logTail) wait(t testing.TB, limit time.Duration, msg string, fields map[string]string) record {
	t.Helper()
	var got record
	waitFor(t, limit, fmt.Sprintf("log record %s %v", msg, fields), func() bool {
		r, ok := l.find(0, msg, fields)
		got = r
		return ok
	})
	return got
}

func (r record) num(k string) float64 { v, _ := r[k].(float64); return v }

func (r record) at() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, r.str("time"))
	return t
}

// stats is one runtime_stats record.
type stats struct {
	at              time.Time
	goroutines, fds int
	rss, heap       int64
	index           int // the record's place in the log
}

// statsAfter returns the first runtime_stats record written after t.
// released waits for the app's memory_released record after t, written
// once its pets have been quiet for a few seconds, and returns its time.
func (l *logTail) released(tb testing.TB, t time.Time) time.Time {
	tb.Helper()
	var at time.Time
	waitFor(tb, 60*time.Second, "a memory_released record", func() bool {
		for _, r := range l.all() {
			if r.str("msg") == "memory_released" && r.at().After(t) {
				at = r.at()
				return true
			}
		}
		return false
	})
	return at
}

func (l *logTail) statsAfter(tb testing.TB, t time.Time) stats {
	tb.Helper()
	var s stats
	waitFor(tb, 10*time.Second, "a runtime_stats record", func() bool {
		for i, r := range l.all() {
			if r.str("msg") == "runtime_stats" && r.at().After(t) {
				s = stats{at: r.at(), goroutines: int(r.num("goroutines")), fds: int(r.num("fds")),
					rss: int64(r.num("rss_bytes")), heap: int64(r.num("heap_bytes")), index: i}
				return true
			}
		}
		return false
	})
	return s
}

// settledStats returns a runtime_stats sample taken once the app has
// been quiet for a while (its memory_released record, written 5 s after
// the pets' last change): the bubble's hold and the last sentence's
// reading time are over, and the turns' garbage went back to the system.
// Call it right after activity, so that a release is still to come.
func (l *logTail) settledStats(tb testing.TB) stats {
	tb.Helper()
	return l.statsAfter(tb, l.released(tb, time.Now()))
}

// checkReconnects checks every ws_reconnect of the log against
// docs/protocol/push-transport.md's schedule: 1 s first, doubling per failed attempt up
// to 30 s, back to 1 s after a ready; a new connection (an edited preset,
// the user's reconnect) starts the schedule anew. The next attempt must
// start after the delay, not before (and not much later). After a 4401
// close nothing is retried until the preset changes. It returns how many
// delays it checked and the delays seen.
func checkReconnects(t testing.TB, recs []record) (int, map[string]int) {
	t.Helper()
	const first, limit = time.Second, 30 * time.Second
	want := first
	seen := map[string]int{}
	n := 0
	rejected := false
	for i, r := range recs {
		switch r.str("msg") {
		case "ws_ready", "session_start", "preset_reconnect", "reconnect_requested":
			want = first
			rejected = false
		case "ws_close":
			if r.num("code") == 4401 {
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
			got, err := time.ParseDuration(r.str("delay"))
			if err != nil || got != want {
				t.Errorf("record %d: ws_reconnect delay %q, want %v by the schedule", i, r.str("delay"), want)
			}
			seen[r.str("delay")]++
			n++
			// The next attempt starts after the delay.
			for _, next := range recs[i+1:] {
				if m := next.str("msg"); m == "ws_open" || m == "ws_dial_failed" {
					gap := next.at().Sub(r.at())
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

// keepLogs copies the app's log files to the test's artifact folder: the
// evidence of a soak or a benchmark outlives its temporary directory.
func keepLogs(t testing.TB, cfg string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(cfg, "logs", "*.log"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(artifacts(t), filepath.Base(f)), data, 0o644); err != nil {
			t.Logf("keeping %s: %v", filepath.Base(f), err)
		}
	}
}

// checkNoPanic fails when the app log or the process's output tells of a
// panic or a fatal runtime error.
func checkNoPanic(t testing.TB, recs []record, out string) {
	t.Helper()
	for _, bad := range []string{"panic:", "fatal error:", "goroutine 1 ["} {
		if strings.Contains(out, bad) {
			t.Errorf("the process output holds %q:\n%s", bad, tail(out, 3000))
		}
	}
	for _, r := range recs {
		b, _ := json.Marshal(r)
		if strings.Contains(strings.ToLower(string(b)), "panic") {
			t.Errorf("a log record tells of a panic: %s", b)
		}
	}
}

// growth describes how a count moved between two samples.
func growth(before, after int) string { return fmt.Sprintf("%d→%d", before, after) }

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Growth allowances between the settled samples before and after a run.
// Both are taken with the app idle and connected, so the goroutines and
// open files should be the same ones; the slack covers a timer goroutine
// or an HTTP keep-alive connection that happens to be live at one sample
// and not at the other. Any leak per turn or per reconnect shows as
// dozens over a run.
const (
	goroutineSlack = 4
	fdSlack        = 2
)

// checkGrowth fails when goroutines or open files grew past the slack.
func checkGrowth(t testing.TB, before, after stats) {
	t.Helper()
	if after.goroutines > before.goroutines+goroutineSlack {
		t.Errorf("goroutines grew %s over the run (slack %d)", growth(before.goroutines, after.goroutines), goroutineSlack)
	}
	if after.fds > before.fds+fdSlack {
		t.Errorf("open files grew %s over the run (slack %d)", growth(before.fds, after.fds), fdSlack)
	}
}

// typist types turns into a pet's open composer.
type typist struct {
	t   testing.TB
	a   *app
	log *logTail
}

// send types text into the composer and presses Enter, and returns once
// the composer sent it (pet_composer_send). The composer is opened first
// when the line did not go out (it lost its focus to another window, or
// closed while idle).
func (ty *typist) send(text string) {
	ty.t.Helper()
	n := ty.log.count("pet_composer_send", nil)
	for try := 0; ; try++ {
		ty.a.d.run(ty.t, "xdotool", "type", "--delay", "8", text)
		ty.a.d.run(ty.t, "xdotool", "key", "Return")
		if waitForOr(5*time.Second, func() bool { return ty.log.count("pet_composer_send", nil) > n }) {
			return
		}
		if try == 3 {
			ty.t.Fatalf("the composer never sent %q", text)
		}
		ty.a.openComposer()
		ty.a.d.run(ty.t, "xdotool", "key", "ctrl+a", "BackSpace")
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
	before := ty.log.count("turn", nil)
	ty.send(text)
	waitFor(ty.t, 10*time.Second, "the turn record", func() bool { return ty.log.count("turn", nil) > before })
	var id string
	for _, r := range ty.log.all() {
		if r.str("msg") == "turn" {
			id = r.str("turn_id")
		}
	}
	return id
}

func (ty *typist) stop() {
	ty.t.Helper()
	win := ty.a.petRect()
	click(ty.t, ty.a.d, win.Max.X-28, win.Min.Y+482)
}

// waitUnlocked waits until the composer unlocked after n turns.
func (ty *typist) waitUnlocked(n int, limit time.Duration) {
	ty.t.Helper()
	waitFor(ty.t, limit, fmt.Sprintf("the composer unlocked after turn %d", n), func() bool {
		return ty.log.count("pet_composer_unlocked", nil) >= n
	})
}

// writeSoakSettings writes a settings file with one preset (the fields
// given on top of a quiet default: speech engine none, log level debug so
// the composer's unlock is logged) and returns what it wrote.
func writeSoakSettings(t testing.TB, dir string, p map[string]any) map[string]any {
	t.Helper()
	preset := map[string]any{"id": "p-soak0001", "name": "Yui", "enabled": true, "character": "yui",
		"chat_id": "yui-50a50001", "speech": map[string]any{"engine": "none", "rate": 1, "volume": 1}}
	for k, v := range p {
		preset[k] = v
	}
	st := map[string]any{"version": 1, "active_preset": preset["id"], "log_level": "debug", "presets": []any{preset}}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return st
}

// checkSettingsKept compares the saved settings with what the test wrote:
// every field of the preset but those in changed is as written, nothing
// was set aside as corrupt or invalid.
func checkSettingsKept(t testing.TB, dir string, wrote map[string]any, changed map[string]any) map[string]any {
	t.Helper()
	got := readSettings(t, dir)
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
