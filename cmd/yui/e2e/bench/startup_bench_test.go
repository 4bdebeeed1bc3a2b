//go:build e2e

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// BenchmarkStartupToWSReady measures start-up as a user meets it: from
// starting the yui process to its first ws_ready log record (the time the
// record carries), one push pet against yui-sim on loopback, a fresh
// config directory each run. It runs YUI_BENCH_STARTUP_RUNS times (5
// unless set) and reports the median; with YUI_BENCH_OUT set it writes
// every run to startup.json.
func BenchmarkStartupToWSReady(b *testing.B) {
	dir := harness.BinDir(b)
	runs := 5
	if s := os.Getenv("YUI_BENCH_STARTUP_RUNS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 && n <= 50 {
			runs = n
		}
	}
	var d *harness.Display
	cleanXvfbFiles(b, &d)
	d = harness.StartXvfb(b, 1280, 800)
	s := harness.StartSim(b, harness.FreePort(b), "startup-key", "echo")
	env := append(d.Env(), "YUI_KEY=", "HOME="+nullAudioHome(b))
	for i := 0; i < b.N; i++ {
		var ms, gaps []float64
		for r := range runs {
			cfg := b.TempDir()
			harness.WriteSettings(b, cfg, harness.Preset{ID: fmt.Sprintf("p-57a2%04d", r), Name: "Yui", Enabled: true, ChatAPI: "push",
				ChatBaseURL: s.Url, Key: "startup-key", ChatID: fmt.Sprintf("yui-57a2%04d", r)})
			t0 := time.Now()
			p := harness.Start(b, env, filepath.Join(dir, "yui"), "--config-dir", cfg)
			var ready, shown harness.Record
			harness.WaitFor(b, 60*time.Second, "ws_ready and pet_window_shown", func() bool {
				recs := harness.ReadLog(b, cfg)
				var ok1, ok2 bool
				ready, ok1 = harness.FindRecord(recs, "ws_ready", nil)
				shown, ok2 = harness.FindRecord(recs, "pet_window_shown", nil)
				return ok1 && ok2
			})
			at, err := time.Parse(time.RFC3339Nano, ready.Str("time"))
			if err != nil {
				b.Fatalf("ws_ready record time %q: %v", ready.Str("time"), err)
			}
			shownAt, err := time.Parse(time.RFC3339Nano, shown.Str("time"))
			if err != nil {
				b.Fatalf("pet_window_shown record time %q: %v", shown.Str("time"), err)
			}
			ms = append(ms, float64(at.Sub(t0).Microseconds())/1000)
			// How long after the window showed the connection was ready
			// (negative: ready first).
			gaps = append(gaps, float64(at.Sub(shownAt).Microseconds())/1000)
			p.Stop()
		}
		sorted := slices.Sorted(slices.Values(ms))
		median := sorted[len(sorted)/2]
		if len(sorted)%2 == 0 {
			median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
		}
		b.ReportMetric(median, "ms-to-ws_ready")
		b.ReportMetric(sorted[len(sorted)-1], "ms-worst")
		g := slices.Sorted(slices.Values(gaps))
		b.ReportMetric(g[len(g)/2], "ms-ready-after-shown")
		b.Logf("start-up to ws_ready over %d runs: median %.0f ms, runs %v ms; ws_ready after pet_window_shown: %v ms", runs, median, ms, gaps)
		writePerfResult(b, "startup.json", map[string][]float64{"runs_ms": ms, "ready_after_shown_ms": gaps})
	}
}
