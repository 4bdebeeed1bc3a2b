package main

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseBench(t *testing.T) {
	const pkg = "pkg: yui/x\n"
	tests := []struct {
		name    string
		in      string
		metrics map[string]map[string]float64 // key → unit → value
		failed  map[string]string             // key → reason contains
	}{
		{"standard figures", pkg + "BenchmarkA-2   \t  267922\t      4620 ns/op\t     920 B/op\t      23 allocs/op\n",
			map[string]map[string]float64{"yui/x.BenchmarkA": {"ns/op": 4620, "B/op": 920, "allocs/op": 23}}, nil},
		{"custom metrics", pkg + "BenchmarkB-2 100 10123456 ns/op 10.12 ms-to-first-sample 399.73 MB/s\n",
			map[string]map[string]float64{"yui/x.BenchmarkB": {"ns/op": 10123456, "ms-to-first-sample": 10.12, "MB/s": 399.73}}, nil},
		{"sub-benchmark keeps its name, loses the procs suffix", pkg + "BenchmarkC/window=8192-2   500   2345678 ns/op\n",
			map[string]map[string]float64{"yui/x.BenchmarkC/window=8192": {"ns/op": 2345678}}, nil},
		{"one CPU: no suffix", pkg + "BenchmarkD 500 7 ns/op\n",
			map[string]map[string]float64{"yui/x.BenchmarkD": {"ns/op": 7}}, nil},
		{"stderr between the name and the figures", pkg + "BenchmarkE-2   \tsome log text\nmore text\n       1\t57000000000 ns/op\t  45.10 bare-MiB\n",
			map[string]map[string]float64{"yui/x.BenchmarkE": {"ns/op": 57e9, "bare-MiB": 45.1}}, nil},
		{"stderr that starts with a number, figures after", pkg + "BenchmarkF-2   \t3 pets: fine\n       1\t100 ns/op\n",
			map[string]map[string]float64{"yui/x.BenchmarkF": {"ns/op": 100}}, nil},
		{"failure on the name line", pkg + "BenchmarkG-2   \t--- FAIL: BenchmarkG-2\n    g_test.go:12: boom\nFAIL\n",
			nil, map[string]string{"yui/x.BenchmarkG": "failed"}},
		{"skipped", pkg + "--- SKIP: BenchmarkH\n    h_test.go:3: YUI_E2E_BIN not set\n",
			nil, map[string]string{"yui/x.BenchmarkH": "skipped"}},
		{"package that did not build", "FAIL\tyui/broken [build failed]\n",
			nil, map[string]string{"yui/broken": "build failed"}},
		{"figures that are not numbers", pkg + "BenchmarkI-2  12 abc ns/op\n",
			nil, map[string]string{"yui/x.BenchmarkI": "do not parse"}},
		{"zero iterations", pkg + "BenchmarkJ-2  0 5 ns/op\n",
			nil, map[string]string{"yui/x.BenchmarkJ": "not a positive integer"}},
		{"odd figures", pkg + "BenchmarkK-2  10 5 ns/op 7\n",
			nil, map[string]string{"yui/x.BenchmarkK": "value-unit pairs"}},
		{"empty", "", nil, nil},
		{"not benchmark output at all", "\x00\x01garbage\nBenchmark\n\t\n=== RUN TestX\nok yui/x 0.1s\n", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := newBenchRun()
			if err := ParseBench(strings.NewReader(tt.in), run); err != nil {
				t.Fatalf("ParseBench: %v", err)
			}
			if len(run.Benches) != len(tt.metrics) {
				t.Errorf("benchmarks %v, want %d", run.Benches, len(tt.metrics))
			}
			for key, want := range tt.metrics {
				b, ok := run.Benches[key]
				if !ok {
					t.Errorf("no %s in %v", key, run.Benches)
					continue
				}
				for unit, v := range want {
					if b.Metrics[unit] != v {
						t.Errorf("%s %s = %v, want %v", key, unit, b.Metrics[unit], v)
					}
				}
				if len(b.Metrics) != len(want) {
					t.Errorf("%s metrics %v, want %v", key, b.Metrics, want)
				}
			}
			if len(run.Failed) != len(tt.failed) {
				t.Errorf("failed %v, want %v", run.Failed, tt.failed)
			}
			for key, why := range tt.failed {
				if !strings.Contains(run.Failed[key], why) {
					t.Errorf("failed[%s] = %q, want it to say %q", key, run.Failed[key], why)
				}
			}
		})
	}
}

func TestParseBenchMachine(t *testing.T) {
	run := newBenchRun()
	if err := ParseBench(strings.NewReader("goos: linux\ngoarch: amd64\npkg: yui/x\ncpu: Some CPU @ 2GHz   \n"), run); err != nil {
		t.Fatal(err)
	}
	if run.CPU != "Some CPU @ 2GHz" || run.GOOS != "linux" || run.GOARCH != "amd64" {
		t.Fatalf("machine %q %q %q", run.CPU, run.GOOS, run.GOARCH)
	}
}

func TestMetricSaysWhyNot(t *testing.T) {
	run := newBenchRun()
	in := "pkg: yui/x\nBenchmarkA-2 10 5 ns/op\n--- FAIL: BenchmarkB-2\nFAIL\tyui/y [build failed]\n"
	if err := ParseBench(strings.NewReader(in), run); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ key, unit, want string }{
		{"yui/x.BenchmarkA", "ns/op", ""},
		{"yui/x.BenchmarkA", "allocs/op", "BenchmarkA reported no allocs/op"},
		{"yui/x.BenchmarkB", "ns/op", "BenchmarkB failed"},
		{"yui/y.BenchmarkC", "ns/op", "package yui/y failed [build failed]"},
		{"yui/z.BenchmarkD", "ns/op", "BenchmarkD is not in the benchmark output"},
	}
	for _, tt := range tests {
		v, err := run.Metric(tt.key, tt.unit)
		switch {
		case tt.want == "" && (err != nil || v != 5):
			t.Errorf("%s %s = %v, %v", tt.key, tt.unit, v, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s %s: error %v, want %q", tt.key, tt.unit, err, tt.want)
		}
	}
}

func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bad.json", `{"turns": 10000, "rss_before_bytes": `)
	write("zero.json", `{"turns": 10000, "rss_before_bytes": 0, "rss_after_bytes": 5, "goroutines_before": 1, "goroutines_after": 1}`)
	write("wrongtype.json", `{"turns": "many"}`)
	write("ok.json", `{"turns": 10000, "rss_before_bytes": 5, "rss_after_bytes": 6, "goroutines_before": 1, "goroutines_after": 1}`)
	write("startup.json", `{"runs_ms": []}`)
	write("idle.json", `{"window_seconds": 40, "bare_window": {"rss_bytes": 10}}`)
	tests := []struct {
		name    string
		in      func() (ok bool, missing bool, err error)
		wantErr string
	}{
		{"no directory", wrap(readInput[Turns]("", turnsFile)), ""},
		{"no file", wrap(readInput[Turns](dir, "absent.json")), ""},
		{"cut short", wrap(readInput[Turns](dir, "bad.json")), "bad.json is not valid"},
		{"wrong type", wrap(readInput[Turns](dir, "wrongtype.json")), "wrongtype.json is not valid"},
		{"zero RSS", wrap(readInput[Turns](dir, "zero.json")), "not both positive"},
		{"no runs", wrap(readInput[Startup](dir, "startup.json")), "runs_ms is empty"},
		{"one process only", wrap(readInput[Idle](dir, "idle.json")), "one_pet missing"},
		{"valid", wrap(readInput[Turns](dir, "ok.json")), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, missing, err := tt.in()
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || ok {
					t.Fatalf("ok %v, err %v, want an error saying %q", ok, err, tt.wantErr)
				}
			case tt.name == "valid":
				if !ok || err != nil || missing {
					t.Fatalf("ok %v, missing %v, err %v", ok, missing, err)
				}
			default:
				if ok || err != nil || !missing {
					t.Fatalf("ok %v, missing %v, err %v: want missing", ok, missing, err)
				}
			}
		})
	}
}

func wrap[T any](in Input[T]) func() (bool, bool, error) {
	return func() (bool, bool, error) { return in.Value != nil, in.Missing, in.Err }
}

// testRun reads the sample run in testdata: micro and e2e outputs, and the
// JSON files of the e2e benchmarks (turns.json in the schema the 10,000-turn
// benchmark writes).
func testRun(t *testing.T, dataDir string) Results {
	t.Helper()
	run := newBenchRun()
	for _, name := range []string{"testdata/micro.txt", "testdata/e2e.txt"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		err = ParseBench(f, run)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return readResults(run, dataDir)
}

func TestFigures(t *testing.T) {
	figs := Figures(testRun(t, "testdata/run"))
	want := map[string]struct {
		measured string
		result   Result
	}{
		"idle RSS, 1 pet":            {"1.11x", Pass},
		"idle CPU, 1 pet":            {"1.20x", Pass},
		"idle RSS, 3 pets":           {"1.55x", Fail},
		"RSS per extra pet":          {"10 MiB", Fail},
		"idle wake-ups, 1 pet":       {"1.50x (90 vs 60 a second)", Fail},
		"ws_ready after window":      {"-20 ms (median of 5)", Pass},
		"start-up to ws_ready":       {"412 ms (median of 5)", Reported},
		"RSS growth, 10,000 turns":   {"1.50 MB (57.2 → 58.7 MiB)", Pass},
		"goroutines, 10,000 turns":   {"41 → 41 (+0)", Reported},
		"render decode+dispatch":     {"4.62 µs", Pass},
		"render allocations":         {"23 allocs", Pass},
		"turn frame, 200 KiB image":  {"0.512 ms", Pass},
		"Chat Completions chunk":     {"5.91 µs", Pass},
		"Responses event":            {"6.91 µs", Pass},
		"JPEG fitter, 4K screenshot": {"182 ms", Pass},
		"first audio overhead":       {"10.1 ms", Pass},
		"stop to silence":            {"40 ms", Pass},
		"idle CPU, VRM pet":          {"1.04x", Pass},
		"idle wake-ups, VRM pet":     {"1.25x", Fail},
	}
	seen := 0
	for _, f := range figs {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		seen++
		if f.MeasuredText() != w.measured || f.Result() != w.result {
			t.Errorf("%s: %q %s, want %q %s", f.Name, f.MeasuredText(), f.Result(), w.measured, w.result)
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d of %d figures", seen, len(want))
	}
}

func TestFiguresFailAndNotMeasured(t *testing.T) {
	run := newBenchRun()
	in := "pkg: yui/transport/push\nBenchmarkRenderDecodeDispatch-2 100 25000 ns/op 900 B/op 31 allocs/op\n"
	if err := ParseBench(strings.NewReader(in), run); err != nil {
		t.Fatal(err)
	}
	figs := Figures(readResults(run, t.TempDir()))
	for _, f := range figs {
		switch f.Name {
		case "render decode+dispatch", "render allocations":
			if f.Result() != Fail {
				t.Errorf("%s %s: %s, want a failure", f.Name, f.MeasuredText(), f.Result())
			}
		default:
			if f.Result() != NotMeasured || (!strings.HasPrefix(f.MeasuredText(), "no ") && !strings.HasSuffix(f.MeasuredText(), "is not in the benchmark output")) {
				t.Errorf("%s: %q %s, want not measured", f.Name, f.MeasuredText(), f.Result())
			}
		}
	}
}

func TestGoalBoundary(t *testing.T) {
	within := Figure{Measured: 1.25, Goal: 1.25}
	under := Figure{Measured: 20, Goal: 20, Strict: true}
	if within.Result() != Pass || under.Result() != Fail {
		t.Fatalf("≤ at the goal: %s; < at the goal: %s", within.Result(), under.Result())
	}
	if within.GoalText() != "≤ 1.25" || under.GoalText() != "< 20" {
		t.Fatalf("goal texts %q %q", within.GoalText(), under.GoalText())
	}
}

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 4.62: "4.62", 0.5123: "0.512", 181.7: "182", 12345: "12345", 1.5: "1.50", -2.25: "-2.25"} {
		if got := num(v); got != want {
			t.Errorf("num(%v) = %q, want %q", v, got, want)
		}
	}
}

var machine = Machine{CPU: "Test CPU", CPUs: 2, GoVersion: "go1.26.8", OS: "linux/amd64", Date: "2026-12-01 00:00 UTC", LoadBefore: "1.52", LoadAfter: "2.10"}

func TestWriteFullRun(t *testing.T) {
	out := t.TempDir()
	md, img := filepath.Join(out, "performance.md"), filepath.Join(out, "performance")
	if err := Write(md, img, testRun(t, "testdata/run"), machine); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Idle resident set: 1 pet ÷ bare Fyne window (BenchmarkIdlePetVsBareWindow) | 1.11x | ≤ 1.25x | pass |",
		"| Idle CPU: 1 pet ÷ bare Fyne window (BenchmarkIdlePetVsBareWindow) | 1.20x | ≤ 1.20x | pass |",
		"| Resident set growth over 10,000 simulated turns (BenchmarkTenThousandTurns) | 1.50 MB (57.2 → 58.7 MiB) | < 5 MB | pass |",
		"![Idle RSS and CPU of a bare Fyne window, 1 pet and 3 pets](performance/idle.png)",
		"(performance/turns.png)", "(performance/micro.png)",
		"| yui, 3 pets | 70 MiB | 3.10% | 150 | 1.55x | 2.07x | 2.50x |", "| bare Fyne window | 45.1 MiB | 1.50% | 60 | 1.00x | 1.00x | 1.00x |",
		"median **412 ms**; runs: 530, 402, 412, 398, 420 ms",
		"| transport/chatcompletions | BenchmarkRequestFrom1000Turns/window=8192 | 2.35 ms | 345678 | 4567 |  |",
		"| transport/push | BenchmarkTurnFrame200KiBImage | 512 µs | 600000 | 12 | 400 MB/s |",
		"- `cmd/yui/e2e/bench.BenchmarkTenThousandTurns` failed",
		"| CPU | Test CPU |", "| Go | go1.26.8 |", "| load average (1 min), start → end of the run | 1.52 → 2.10 |",
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, name := range []string{idlePNG, turnsPNG, microPNG} {
		checkPNG(t, filepath.Join(img, name))
	}

	// The same run gives the same report and plots.
	md2, img2 := filepath.Join(out, "again.md"), filepath.Join(out, "again")
	if err := Write(md2, img2, testRun(t, "testdata/run"), machine); err != nil {
		t.Fatal(err)
	}
	report2, _ := os.ReadFile(md2)
	if string(report2) != strings.ReplaceAll(string(report), "(performance/", "(again/") {
		t.Error("a second report of the same run differs")
	}
	for _, name := range []string{idlePNG, turnsPNG, microPNG} {
		a, _ := os.ReadFile(filepath.Join(img, name))
		b, _ := os.ReadFile(filepath.Join(img2, name))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two reports of the same run", name)
		}
	}
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if s := m.Bounds().Size(); s.X < 400 || s.Y < 200 {
		t.Errorf("%s is %v, too small to read", path, s)
	}
}

func TestWriteWithNothingMeasured(t *testing.T) {
	out := t.TempDir()
	md, img := filepath.Join(out, "performance.md"), filepath.Join(out, "performance")
	// Plots of an earlier run that this one did not measure go.
	if err := os.MkdirAll(img, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{idlePNG, turnsPNG} {
		if err := os.WriteFile(filepath.Join(img, name), []byte("stale"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, turnsFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(md, img, readResults(newBenchRun(), data), machine); err != nil {
		t.Fatal(err)
	}
	report, _ := os.ReadFile(md)
	for _, want := range []string{
		"Not measured: no idle.json in this run (BenchmarkIdlePetVsBareWindow writes it).",
		"Not measured: turns.json is not valid:",
		"| Idle resident set: 1 pet ÷ bare Fyne window (BenchmarkIdlePetVsBareWindow) | no idle.json in this run | ≤ 1.25x | not measured |",
		"| — | no benchmark output was read | | | | |",
		"| BenchmarkRenderDecodeDispatch is not in the benchmark output | < 20 µs | not measured |",
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	for _, name := range []string{idlePNG, turnsPNG} {
		if _, err := os.Stat(filepath.Join(img, name)); !os.IsNotExist(err) {
			t.Errorf("stale %s kept: %v", name, err)
		}
	}
	checkPNG(t, filepath.Join(img, microPNG))
}

func TestRunReportsBadInput(t *testing.T) {
	out := t.TempDir()
	err := run("", filepath.Join(out, "p.md"), filepath.Join(out, "p"), []string{filepath.Join(out, "absent.txt")})
	if err == nil || !strings.Contains(err.Error(), "absent.txt") {
		t.Fatalf("run with a missing benchmark output: %v", err)
	}
	if err := run("testdata/run", filepath.Join(out, "p.md"), filepath.Join(out, "p"), []string{"testdata/micro.txt"}); err != nil {
		t.Fatalf("run: %v", err)
	}
}

func TestGrouped(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 10000: "10,000", 1234567: "1,234,567", -5000: "-5,000"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestLoadAverage(t *testing.T) {
	dir := t.TempDir()
	for name, s := range map[string]string{"good": "1.52 0.90 0.40 2/345 6789\n", "bad": "busy\n", "empty": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{"good": "1.52", "bad": "", "empty": "", "absent": ""} {
		if got := loadAverage(dir, name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if got := loadAverage("", "good"); got != "" {
		t.Errorf("no directory: %q", got)
	}
}

// Only this generator links the plotting library: the yui binary stays
// without it. Of gonum, yui links only the FFT the echo canceller and the
// voice detector use (pet/voice/aec, pet/voice/spectrum.go).
func TestYuiDoesNotLinkGonum(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list yui's dependencies")
	}
	out, err := exec.Command(gobin, "list", "-deps", "yui/cmd/yui").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "gonum.org/") && !strings.HasPrefix(dep, "gonum.org/v1/gonum/dsp/fourier") {
			t.Errorf("yui links %s", dep)
		}
	}
}

// Any text gives benchmarks with figures, or reasons in Failed: never a
// panic or an error from a reader that works.
func FuzzParseBench(f *testing.F) {
	for _, name := range []string{"testdata/micro.txt", "testdata/e2e.txt"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("pkg: yui/x\nBenchmarkA-2 \t3 pets\n 1 2 ns/op\n--- FAIL: BenchmarkA\nFAIL\tyui/x [build failed]\n")
	f.Fuzz(func(t *testing.T, in string) {
		run := newBenchRun()
		if err := ParseBench(strings.NewReader(in), run); err != nil {
			t.Fatalf("ParseBench: %v", err)
		}
		for key, b := range run.Benches {
			if b.Iters <= 0 || len(b.Metrics) == 0 || key != b.Key() {
				t.Fatalf("%s: %+v", key, b)
			}
		}
		_ = Figures(readResults(run, ""))
	})
}

// Edge cases of measured data still give a report and readable plots: a
// bare window that used no CPU the clock could see, a single-sample turn
// series, a goal missed by far.
func TestWriteEdgeCases(t *testing.T) {
	data := t.TempDir()
	files := map[string]string{
		idleFile:    `{"window_seconds": 0.5, "bare_window": {"rss_bytes": 1, "cpu_percent": 0}, "one_pet": {"rss_bytes": 1000000000, "cpu_percent": 0}, "three_pets": {"rss_bytes": 3000000000, "cpu_percent": 90}}`,
		startupFile: `{"runs_ms": [1, 2]}`,
		turnsFile:   `{"turns": 1, "rss_before_bytes": 1, "rss_after_bytes": 9000000000, "goroutines_before": 1, "goroutines_after": 9000, "series": [{"turn": 0, "rss_bytes": 1, "goroutines": 1, "fds": 0}]}`,
	}
	for name, s := range files {
		if err := os.WriteFile(filepath.Join(data, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := newBenchRun()
	if err := ParseBench(strings.NewReader("pkg: yui/pet/playback\nBenchmarkAudioAfterStop-2 1 1 ns/op 5000 worst-ms-audible-after-stop\n"), run); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	md, img := filepath.Join(out, "p.md"), filepath.Join(out, "p")
	if err := Write(md, img, readResults(run, data), machine); err != nil {
		t.Fatal(err)
	}
	report, _ := os.ReadFile(md)
	for _, want := range []string{
		"median **1.50 ms**",
		"| 1000000000x | ≤ 1.25x | **FAIL** |",
		"| Idle CPU: 1 pet ÷ bare Fyne window (BenchmarkIdlePetVsBareWindow) | 1x | ≤ 1.20x | pass |",
		"| 9000 MB (0.000000954 → 8583 MiB) | < 5 MB | **FAIL** |",
		"| 5000 ms | < 50 ms | **FAIL** |",
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, name := range []string{idlePNG, turnsPNG, microPNG} {
		checkPNG(t, filepath.Join(img, name))
	}
}

// latency.json's two paths become the two goals and the stacked plot; a
// file with a part out of range is refused.
func TestLatencyFiguresAndPlot(t *testing.T) {
	l := Latency{
		{Path: "voice", TotalMS: 1230, AddedMS: 240, Spans: []LatencySpan{{"end of speech to the upload", true, 210}, {"transcription server", false, 300}, {"the hangover's rest, then to the chat request received", true, 20}}},
		{Path: "typed", TotalMS: 700, AddedMS: 35, Spans: []LatencySpan{{"to the chat request received", true, 35}, {"model server", false, 520}}},
	}
	figs := latencyFigures(Input[Latency]{File: latencyFile, Value: &l})
	if len(figs) != 3 || figs[0].Result() != Pass || figs[1].Result() != Fail || figs[2].Result() != NotMeasured {
		t.Fatalf("figures %+v: want the voice goal met and the typed one missed", figs)
	}
	if err := plotLatency(filepath.Join(t.TempDir(), latencyPNG), &l); err != nil {
		t.Fatal(err)
	}
	bad := Latency{{Path: "voice", Spans: []LatencySpan{{"x", true, -50}}}}
	if err := bad.validate(); err == nil {
		t.Error("a part of -50 ms was taken")
	}
	missing := latencyFigures(Input[Latency]{File: latencyFile, Missing: true})
	if missing[0].Result() != NotMeasured {
		t.Errorf("no latency.json: %v", missing[0].Result())
	}
}

// A micro figure with no goal (reported, such as the canceller's ERLE)
// draws as reported, not as an infinite share of a zero goal.
func TestMicroPlotReportedFigure(t *testing.T) {
	figs := []Figure{{Name: "ERLE", Unit: "dB", Measured: 29.5}, {Name: "x", Unit: "ms", Measured: 5, Goal: 10}}
	if err := plotMicro(filepath.Join(t.TempDir(), microPNG), figs); err != nil {
		t.Fatal(err)
	}
}
