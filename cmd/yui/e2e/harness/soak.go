//go:build e2e

package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// LogTail is a log reader with the soak tests' lookups.
type LogTail struct{ *logReader }

func NewLogTail(dir string) *LogTail { return &LogTail{NewLogReader(dir)} }

// All returns every record so far, reading only what was written since.
func (l *LogTail) All() []Record { return l.read() }

// Count counts the records named msg whose fields match.
func (l *LogTail) Count(msg string, fields map[string]string) int {
	return CountRecords(l.All(), msg, fields)
}

func CountRecords(recs []Record, msg string, fields map[string]string) int {
	n := 0
	for _, r := range recs {
		if r.Str("msg") == msg && matches(r, fields) {
			n++
		}
	}
	return n
}

func matches(r Record, fields map[string]string) bool {
	for k, v := range fields {
		if fmt.Sprint(r[k]) != v {
			return false
		}
	}
	return true
}

// Find returns the first record named msg matching fields, from index from.
func (l *LogTail) Find(from int, msg string, fields map[string]string) (Record, bool) {
	recs := l.All()
	for _, r := range recs[min(from, len(recs)):] {
		if r.Str("msg") == msg && matches(r, fields) {
			return r, true
		}
	}
	return nil, false
}

// Wait waits for a record named msg matching fields.
func (l *LogTail) Wait(t testing.TB, limit time.Duration, msg string, fields map[string]string) Record {
	t.Helper()
	var got Record
	WaitFor(t, limit, fmt.Sprintf("log record %s %v", msg, fields), func() bool {
		r, ok := l.Find(0, msg, fields)
		got = r
		return ok
	})
	return got
}

func (r Record) Num(k string) float64 { v, _ := r[k].(float64); return v }

func (r Record) At() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, r.Str("time"))
	return t
}

// Stats is one runtime_stats record.
type Stats struct {
	at              time.Time
	Goroutines, Fds int
	Rss, heap       int64
	index           int // the record's place in the log
}

// statsAfter returns the first runtime_stats record written after t.
// released waits for the app's memory_released record after t, written
// once its pets have been quiet for a few seconds, and returns its time.
func (l *LogTail) released(tb testing.TB, t time.Time) time.Time {
	tb.Helper()
	var at time.Time
	WaitFor(tb, 60*time.Second, "a memory_released record", func() bool {
		for _, r := range l.All() {
			if r.Str("msg") == "memory_released" && r.At().After(t) {
				at = r.At()
				return true
			}
		}
		return false
	})
	return at
}

func (l *LogTail) statsAfter(tb testing.TB, t time.Time) Stats {
	tb.Helper()
	var s Stats
	WaitFor(tb, 10*time.Second, "a runtime_stats record", func() bool {
		for i, r := range l.All() {
			if r.Str("msg") == "runtime_stats" && r.At().After(t) {
				s = Stats{at: r.At(), Goroutines: int(r.Num("goroutines")), Fds: int(r.Num("fds")),
					Rss: int64(r.Num("rss_bytes")), heap: int64(r.Num("heap_bytes")), index: i}
				return true
			}
		}
		return false
	})
	return s
}

// SettledStats returns a runtime_stats sample taken once the app has
// been quiet for a while (its memory_released record, written 5 s after
// the pets' last change): the bubble's hold and the last sentence's
// reading time are over, and the turns' garbage went back to the system.
// Call it right after activity, so that a release is still to come.
func (l *LogTail) SettledStats(tb testing.TB) Stats {
	tb.Helper()
	return l.statsAfter(tb, l.released(tb, time.Now()))
}

// KeepLogs copies the app's log files to the test's artifact folder: the
// evidence of a soak or a benchmark outlives its temporary directory.
func KeepLogs(t testing.TB, cfg string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(cfg, "logs", "*.log"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(Artifacts(t), filepath.Base(f)), data, 0o644); err != nil {
			t.Logf("keeping %s: %v", filepath.Base(f), err)
		}
	}
}

// CheckNoPanic fails when the app log or the process's output tells of a
// panic or a fatal runtime error.
func CheckNoPanic(t testing.TB, recs []Record, out string) {
	t.Helper()
	for _, bad := range []string{"panic:", "fatal error:", "goroutine 1 ["} {
		if strings.Contains(out, bad) {
			t.Errorf("the process output holds %q:\n%s", bad, Tail(out, 3000))
		}
	}
	for _, r := range recs {
		b, _ := json.Marshal(r)
		if strings.Contains(strings.ToLower(string(b)), "panic") {
			t.Errorf("a log record tells of a panic: %s", b)
		}
	}
}

// Growth describes how a count moved between two samples.
func Growth(before, after int) string { return fmt.Sprintf("%d→%d", before, after) }

func Mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Growth allowances between the settled samples before and after a run.
// Both are taken with the app idle and connected, so the goroutines and
// open files should be the same ones; the slack covers a timer goroutine
// or an HTTP keep-alive connection that happens to be live at one sample
// and not at the other. Any leak per turn or per reconnect shows as
// dozens over a run.
const (
	GoroutineSlack = 4
	FdSlack        = 2
)

// WriteSoakSettings writes a settings file with one preset (the fields
// given on top of a quiet default: speech engine none, log level debug so
// the composer's unlock is logged) and returns what it wrote.
func WriteSoakSettings(t testing.TB, dir string, p map[string]any) map[string]any {
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
