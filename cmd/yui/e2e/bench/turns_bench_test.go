//go:build e2e

package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// turnsReport is $YUI_BENCH_OUT/turns.json, read by the performance report.
type turnsReport struct {
	Turns            int          `json:"turns"`
	RSSBefore        int64        `json:"rss_before_bytes"`
	RSSAfter         int64        `json:"rss_after_bytes"`
	GoroutinesBefore int          `json:"goroutines_before"`
	GoroutinesAfter  int          `json:"goroutines_after"`
	FDsBefore        int          `json:"fds_before"`
	FDsAfter         int          `json:"fds_after"`
	Series           []turnSample `json:"series"`
}

type turnSample struct {
	Turn       int   `json:"turn"`
	RSS        int64 `json:"rss_bytes"`
	Goroutines int   `json:"goroutines"`
	FDs        int   `json:"fds"`
}

// seriesEvery is the spacing of the report's series, in turns.
const seriesEvery = 250

// BenchmarkTenThousandTurns plays 10,000 turns through the real yui under
// Xvfb and measures what stays behind: resident memory, goroutines and
// open files, settled before and after (goal: under 5 MB of RSS growth,
// no goroutine or file growth).
//
// The turns are the ones a push backend starts on its own (yui-sim
// --script mint:N): a render with a cue and its turn_end, through the
// socket, the transport, the pet controller, the playback queue, the
// message history and the window, as fast as the app takes them. A turn
// the user types cannot go that fast: typing takes xdotool a few hundred
// milliseconds a turn, and a reply that speaks holds the playback queue
// for at least its reading time (1.2 s a sentence with speech engine
// none), so the minted turns are silent. Their cues cycle through the
// character's emotions, so every turn changes the frames shown: the worst
// case for the window. Under Xvfb the GL driver (Mesa's llvmpipe) runs
// in the process, so the textures it keeps count in the RSS too.
// YUI_BENCH_TURNS changes the count; with YUI_BENCH_OUT set the run
// writes turns.json there.
func BenchmarkTenThousandTurns(b *testing.B) {
	dir := os.Getenv("YUI_E2E_BIN")
	if dir == "" {
		b.Skip("YUI_E2E_BIN not set; run `make bench`")
	}
	turns := 10000
	if s := os.Getenv("YUI_BENCH_TURNS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			turns = n
		}
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		rep := measureTurns(b, turns)
		grew := float64(rep.RSSAfter-rep.RSSBefore) / (1 << 20)
		b.ReportMetric(grew, "rss-growth-MiB")
		b.ReportMetric(float64(rep.RSSAfter)/(1<<20), "rss-after-MiB")
		b.ReportMetric(float64(rep.GoroutinesBefore), "goroutines-before")
		b.ReportMetric(float64(rep.GoroutinesAfter), "goroutines-after")
		b.ReportMetric(float64(rep.FDsBefore), "fds-before")
		b.ReportMetric(float64(rep.FDsAfter), "fds-after")
		line := fmt.Sprintf("%d turns: RSS %s → %s (%+.1f MiB, goal < 5 MB), goroutines %s, fds %s",
			rep.Turns, harness.Mib(rep.RSSBefore), harness.Mib(rep.RSSAfter), grew,
			harness.Growth(rep.GoroutinesBefore, rep.GoroutinesAfter), harness.Growth(rep.FDsBefore, rep.FDsAfter))
		b.Log(line)
		fmt.Fprintln(os.Stderr, line)
		if rep.GoroutinesAfter > rep.GoroutinesBefore+harness.GoroutineSlack || rep.FDsAfter > rep.FDsBefore+harness.FdSlack {
			b.Errorf("goroutines or open files grew over %d turns: %s", rep.Turns, line)
		}
		if out := os.Getenv("YUI_BENCH_OUT"); out != "" {
			data, err := json.Marshal(rep)
			if err != nil {
				b.Fatal(err)
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, "turns.json"), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func measureTurns(b *testing.B, turns int) turnsReport {
	d := harness.StartXvfb(b, 1280, 800)
	port := harness.FreePort(b)
	cfg := b.TempDir()
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	harness.WriteSoakSettings(b, cfg, map[string]any{"chat_api": "push", "chat_base_url": url, "key": "k"})
	// The app first settles, connected to an idle backend, for the
	// sample before; then the backend is replaced by one that mints the
	// turns, which the app reaches on its first reconnect.
	idle := harness.StartSim(b, port, "k", "echo")
	// Samples often enough for a series point every ~250 turns: the
	// turns arrive at a few thousand a second.
	a := harness.StartYuiIn(b, d, cfg, "", "--stats-every", "50ms")
	lt := harness.NewLogTail(cfg)
	lt.Wait(b, 30*time.Second, "ws_ready", nil)
	// Each sample follows the memory the app gives back once its pets
	// have been quiet for a few seconds (memory_released).
	before := lt.SettledStats(b)
	idle.Proc.Stop()
	began := time.Now()
	mint := harness.StartSim(b, port, "k", fmt.Sprintf("mint:%d", turns))
	limit := 30*time.Second + time.Duration(turns)*20*time.Millisecond
	// A turn has played once the playback queue rendered its cue.
	ended := func() int {
		n := 0
		for _, r := range lt.All() {
			if r.Str("msg") == "cue" && strings.HasPrefix(r.Str("turn_id"), "sim-mint-") {
				n++
			}
		}
		return n
	}
	last, lastAt := 0, time.Now()
	harness.WaitFor(b, limit, fmt.Sprintf("%d turns to end", turns), func() bool {
		n := ended()
		if n != last {
			last, lastAt = n, time.Now()
		} else if time.Since(lastAt) > 60*time.Second {
			b.Fatalf("no turn ended for a minute after %d of %d\nsimulator:\n%s", n, turns, harness.Tail(mint.Proc.Output(), 2000))
		}
		return n >= turns
	})
	played := time.Since(began)
	after := lt.SettledStats(b)
	harness.CheckNoPanic(b, lt.All(), a.Proc.Output())
	harness.KeepLogs(b, cfg)
	fmt.Fprintf(os.Stderr, "%d turns played in %s (%.0f turns/s)\n", turns, played.Round(time.Millisecond), float64(turns)/played.Seconds())

	rep := turnsReport{Turns: turns, RSSBefore: before.Rss, RSSAfter: after.Rss,
		GoroutinesBefore: before.Goroutines, GoroutinesAfter: after.Goroutines, FDsBefore: before.Fds, FDsAfter: after.Fds,
		Series: []turnSample{{Turn: 0, RSS: before.Rss, Goroutines: before.Goroutines, FDs: before.Fds}}}
	n, next := 0, seriesEvery
	for _, r := range lt.All() {
		switch r.Str("msg") {
		case "push.turn_end":
			if strings.HasPrefix(r.Str("turn_id"), "sim-mint-") {
				n++
			}
		case "runtime_stats":
			if n >= next && n < turns {
				rep.Series = append(rep.Series, turnSample{Turn: n, RSS: int64(r.Num("rss_bytes")), Goroutines: int(r.Num("goroutines")), FDs: int(r.Num("fds"))})
				next = (n/seriesEvery + 1) * seriesEvery
			}
		}
	}
	rep.Series = append(rep.Series, turnSample{Turn: turns, RSS: after.Rss, Goroutines: after.Goroutines, FDs: after.Fds})
	return rep
}
