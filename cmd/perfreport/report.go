package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Machine is where the run happened.
type Machine struct {
	CPU       string // model, from go test's "cpu:" line
	CPUs      int
	GoVersion string
	OS        string
	Date      string
	// One-minute load averages when the run began and ended: the
	// machine is shared, and what else ran moves the figures.
	LoadBefore, LoadAfter string
}

// Write renders the report as Markdown to mdPath and its plots into
// imgDir, which the Markdown links relative to mdPath. A plot whose data
// was not measured is removed, so no stale image outlives its figures.
func Write(mdPath, imgDir string, r Results, m Machine) error {
	if err := os.MkdirAll(imgDir, 0o755); err != nil {
		return fmt.Errorf("image directory: %w", err)
	}
	rel, err := filepath.Rel(filepath.Dir(mdPath), imgDir)
	if err != nil {
		return fmt.Errorf("image directory relative to the report: %w", err)
	}
	rel = filepath.ToSlash(rel)
	img := func(name string) string { return rel + "/" + name }

	figs := Figures(r)
	var micro []Figure
	for _, f := range figs[len(figs)-len(microGoals):] {
		micro = append(micro, f)
	}

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	writeMachine(p, m)
	writeGoals(p, figs)
	if err := writeIdle(p, img, imgDir, r.Idle); err != nil {
		return err
	}
	p("%s", idleDesign)
	writeStartup(p, r.Startup)
	p("%s", firstFrameDesign)
	if err := writeTurns(p, img, imgDir, r.Turns); err != nil {
		return err
	}
	writeScale(p, r.Scale)
	if err := writeLatency(p, img, imgDir, r.Latency); err != nil {
		return err
	}
	if err := writeMicro(p, img, imgDir, micro); err != nil {
		return err
	}
	p("%s\n", vrmImport)
	writeEveryBenchmark(p, r.Bench)
	writeRegenerate(p)

	if err := os.WriteFile(mdPath, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// writeMachine writes the report's title, what it is, and the machine the
// run measured: the figures mean little without the cores and load behind them.
func writeMachine(p func(string, ...any), m Machine) {
	p("# Performance\n\n")
	p("Written by `make bench` (the generator is `cmd/perfreport`) from one run: every figure and plot\n")
	p("below was measured in that run, the e2e ones with the real `yui` binary under Xvfb. Edits by hand are\n")
	p("lost at the next run.\n\n")

	p("## Machine\n\n| | |\n|---|---|\n")
	p("| CPU | %s |\n| logical CPUs | %d |\n| OS | %s |\n| Go | %s |\n| date | %s |\n",
		orDash(m.CPU), m.CPUs, orDash(m.OS), orDash(m.GoVersion), orDash(m.Date))
	if m.LoadBefore != "" || m.LoadAfter != "" {
		p("| load average (1 min), start → end of the run | %s → %s |\n", orDash(m.LoadBefore), orDash(m.LoadAfter))
	}
	p("\nThe machine is shared: other work on its cores moves the time and CPU figures most.\n\n")
}

// writeGoals writes the table of every figure against its goal, and where
// the goals come from.
func writeGoals(p func(string, ...any), figs []Figure) {
	p("## Goals\n\n| figure | measured | goal | result |\n|---|---|---|---|\n")
	for _, f := range figs {
		p("| %s | %s | %s | %s |\n", cell(f.What), cell(f.MeasuredText()), f.GoalText(), f.Result())
	}
	p("\nThe goals are the project's standing ones: the developers' guide's for idle use and 10,000 turns\n")
	p("(one pet holds at most 1.25x the memory and 1.2x the idle CPU and wake-ups of a bare Fyne window, and its memory\n")
	p("grows by less than 5 MB over 10,000 turns; three pets in one process hold at most 1.2x the memory\n")
	p("and 2x the CPU, each pet past the first adding at most what a bare window past the first adds; ten\n")
	p("pets grow per window within 1.1x of ten bare windows; the connection is ready within 50 ms of the\n")
	p("window showing; issue 37's latency goals), the\n")
	p("micro-benchmarks' own, and for the JPEG fitter 500 ms as this report's reading of docs/protocol/client-tools.md's\n")
	p("\"well inside the time a user would notice\". A figure with no goal is reported. MB is 10⁶ bytes,\n")
	p("MiB 2²⁰.\n\n")
}

// writeIdle writes the idle section: its plot, how the processes were
// measured and the table of each against the bare window; unmeasured, it
// removes an earlier run's plot and says why.
func writeIdle(p func(string, ...any), img func(string) string, imgDir string, in Input[Idle]) error {
	p("## Idle: 1 and 3 pets beside a bare Fyne window\n\n")
	i := in.Value
	if i == nil {
		if err := removeStale(filepath.Join(imgDir, idlePNG)); err != nil {
			return err
		}
		p("Not measured: %s (BenchmarkIdlePetVsBareWindow writes it).\n\n", in.Status())
		return nil
	}
	if err := plotIdle(filepath.Join(imgDir, idlePNG), i); err != nil {
		return err
	}
	p("![Idle RSS and CPU of a bare Fyne window, 1 pet and 3 pets](%s)\n\n", img(idlePNG))
	p("The processes run side by side under one Xvfb and are measured over the same %s s window, after\n", num(i.WindowSeconds))
	p("they settled: a bare Fyne window with one label (`cmd/barewindow`), `yui` with one pet,\n")
	p("`yui` with three enabled presets (three pet windows), and three bare windows in one process\n")
	p("(`barewindow -windows 3`). Both `yui` processes are connected to `yui-sim`\n")
	p("and idle with their audio context open (ALSA's null device). RSS is the mean of one sample a second;\n")
	p("CPU is the time used over the whole window.\n\n")
	p("Wake-ups are the context switches of all the process's threads, read from\n")
	p("`/proc/<pid>/task/*/status` at both ends of the window.\n\n")
	writeIdleTable(p, i)
	p("\nEach pet past the first costs %s MiB.", num((mib(i.ThreePets.RSSBytes)-mib(i.OnePet.RSSBytes))/2))
	if i.ThreeBare != nil {
		p(" Each bare Fyne window past the first costs %s MiB (one process showing three, each\n", num((mib(i.ThreeBare.RSSBytes)-mib(i.Bare.RSSBytes))/2))
		p("with one label): that is the floor under a pet's, as Fyne gives every window its own GL context\n")
		p("and buffers, which no two windows share.")
	}
	p("\n\n")
	return nil
}

// writeIdleTable writes one row per measured process, each as a ratio of
// the bare window's figures (its CPU floored, so a near-idle bare window
// does not blow the ratios up).
func writeIdleTable(p func(string, ...any), i *Idle) {
	p("| process | RSS | CPU | wake-ups a second | RSS ÷ bare | CPU ÷ bare | wake-ups ÷ bare |\n|---|---|---|---|---|---|---|\n")
	bareCPU := max(i.Bare.CPUPercent, cpuFloor)
	for _, row := range []struct {
		name string
		u    *Usage
	}{{"bare Fyne window", i.Bare}, {"yui, 1 pet", i.OnePet}, {"yui, 3 pets", i.ThreePets}, {"3 bare Fyne windows", i.ThreeBare}} {
		if row.u == nil {
			continue
		}
		cs, csRatio := "—", "—"
		if i.Bare.CtxSwitches > 0 {
			cs, csRatio = num(row.u.CtxSwitches), ratio(row.u.CtxSwitches/i.Bare.CtxSwitches)
		}
		p("| %s | %s MiB | %s%% | %s | %s | %s | %s |\n", row.name, num(mib(row.u.RSSBytes)), num(row.u.CPUPercent), cs,
			ratio(float64(row.u.RSSBytes)/float64(i.Bare.RSSBytes)), ratio(max(row.u.CPUPercent, cpuFloor)/bareCPU), csRatio)
	}
}

// writeStartup writes the start-up section: the median time to ws_ready,
// every run, and how long after the window showed the connection was ready.
func writeStartup(p func(string, ...any), in Input[Startup]) {
	p("## Start-up to `ws_ready`\n\n")
	s := in.Value
	if s == nil {
		p("Not measured: %s (BenchmarkStartupToWSReady writes it).\n\n", in.Status())
		return
	}
	p("From starting the `yui` process to its first `ws_ready` log record (the time in the record), against\n")
	p("`yui-sim` on loopback, one pet, a fresh config directory each run: median **%s ms**; runs: %s ms.\n\n", num(s.Median()), joinNums(s.RunsMS))
	if len(s.ReadyAfterShownMS) > 0 {
		p("Ready first: `ws_ready` came %s ms after `pet_window_shown` (median; negative is before the\n", num(median(s.ReadyAfterShownMS)))
		p("window showed); runs: %s ms. The connection opens as soon as the window shows, while the\n", joinNums(s.ReadyAfterShownMS))
		p("character is scaled to it off the UI goroutine; what the backend sends before the window draws\n")
		p("waits in the pet's view, drawn with the first frame.\n\n")
	}
}

// joinNums writes figures as the report writes each, comma-separated.
func joinNums(vs []float64) string {
	var out []string
	for _, v := range vs {
		out = append(out, num(v))
	}
	return strings.Join(out, ", ")
}

// writeTurns writes the 10,000-turn section: its plot, the before and after
// table and how the points were sampled; unmeasured, it removes an earlier
// run's plot and says why.
func writeTurns(p func(string, ...any), img func(string) string, imgDir string, in Input[Turns]) error {
	p("## 10,000 turns\n\n")
	t := in.Value
	if t == nil {
		if err := removeStale(filepath.Join(imgDir, turnsPNG)); err != nil {
			return err
		}
		p("Not measured: %s (BenchmarkTenThousandTurns writes it).\n\n", in.Status())
		return nil
	}
	if err := plotTurns(filepath.Join(imgDir, turnsPNG), t); err != nil {
		return err
	}
	p("![RSS, goroutines and open files over %s turns](%s)\n\n", grouped(t.Turns), img(turnsPNG))
	p("| | before | after | change |\n|---|---|---|---|\n")
	p("| RSS | %s MiB | %s MiB | %s MB |\n", num(mib(t.RSSBeforeBytes)), num(mib(t.RSSAfterBytes)), signed(float64(t.RSSAfterBytes-t.RSSBeforeBytes)/1e6))
	p("| goroutines | %d | %d | %+d |\n", t.GoroutinesBefore, t.GoroutinesAfter, t.GoroutinesAfter-t.GoroutinesBefore)
	p("| open files | %d | %d | %+d |\n\n", t.FDsBefore, t.FDsAfter, t.FDsAfter-t.FDsBefore)
	p("From BenchmarkTenThousandTurns: one `yui` against `yui-sim`, %s simulated turns, each a cue\n", grouped(t.Turns))
	p("that changes the emotion shown, as fast as the app takes them (a few thousand a second). Before and\n")
	p("after are sampled once the app has given freed memory back to the system, which it does when its\n")
	p("pets have been quiet for 5 s (`memory_released`); the points between are taken during the burst,\n")
	p("with its garbage in flight.\n\n")
	return nil
}

// writeMicro writes the micro-benchmarks' section around its plot of each
// as a share of its goal.
func writeMicro(p func(string, ...any), img func(string) string, imgDir string, micro []Figure) error {
	p("## Micro-benchmarks against their goals\n\n")
	if err := plotMicro(filepath.Join(imgDir, microPNG), micro); err != nil {
		return err
	}
	p("![Each micro-benchmark as a share of its goal](%s)\n\n", img(microPNG))
	p("`go test -bench . -benchmem` over every package. Chat Completions and Responses figures are per\n")
	p("chunk or event of a 1,000-part stream.\n\n")
	return nil
}

// writeEveryBenchmark writes the table of every benchmark the run read,
// then the packages and benchmarks that gave no figures and why.
func writeEveryBenchmark(p func(string, ...any), run *BenchRun) {
	p("## Every benchmark of the run\n\n")
	p("| package | benchmark | time/op | B/op | allocs/op | other |\n|---|---|---|---|---|---|\n")
	for _, bn := range run.Sorted() {
		p("| %s | %s | %s | %s | %s | %s |\n", strings.TrimPrefix(bn.Pkg, "yui/"), bn.Name,
			duration(bn.Metrics["ns/op"]), metric(bn.Metrics, "B/op"), metric(bn.Metrics, "allocs/op"), cell(others(bn.Metrics)))
	}
	if len(run.Benches) == 0 {
		p("| — | no benchmark output was read | | | | |\n")
	}
	p("\nFor the e2e benchmarks (`cmd/yui/e2e/bench`) time/op is the wall time of the whole measurement; their\n")
	p("figures are in the last column and the sections above.\n")
	if len(run.Failed) > 0 {
		var keys []string
		for k := range run.Failed {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		p("\nNo figures from:\n\n")
		for _, k := range keys {
			p("- `%s` %s\n", strings.TrimPrefix(k, "yui/"), cell(run.Failed[k]))
		}
	}
}

// writeRegenerate closes the report with how to make it again.
func writeRegenerate(p func(string, ...any)) {
	p("\n## Regenerate\n\n```\nmake bench\n```\n\n")
	p("It builds the binaries, runs the micro-benchmarks and the e2e benchmarks (`cmd/yui/e2e/bench`, build tag\n")
	p("`e2e`, under Xvfb) with `YUI_BENCH_OUT` naming the directory the e2e ones write their JSON into, and\n")
	p("then this generator over both outputs.\n")
}

func removeStale(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove stale plot: %w", err)
	}
	return nil
}

// duration formats nanoseconds in the unit that reads best.
func duration(ns float64) string {
	switch {
	case ns == 0:
		return "—"
	case ns >= 1e9:
		return num(ns/1e9) + " s"
	case ns >= 1e6:
		return num(ns/1e6) + " ms"
	case ns >= 1e3:
		return num(ns/1e3) + " µs"
	}
	return num(ns) + " ns"
}

func metric(m map[string]float64, unit string) string {
	v, ok := m[unit]
	if !ok {
		return "—"
	}
	return num(v)
}

// others lists the custom metrics of a benchmark, sorted by unit.
func others(m map[string]float64) string {
	var units []string
	for u := range m {
		switch u {
		case "ns/op", "B/op", "allocs/op":
			continue
		}
		units = append(units, u)
	}
	sort.Strings(units)
	var parts []string
	for _, u := range units {
		parts = append(parts, num(m[u])+" "+u)
	}
	return strings.Join(parts, ", ")
}

func signed(v float64) string {
	if v >= 0 {
		return "+" + num(v)
	}
	return num(v)
}

// cell keeps a value from breaking its table row.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// ratio formats a multiple of the bare window's figure.
func ratio(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "x" }

// grouped writes n with thousands separators: 10,000.
func grouped(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + grouped(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
