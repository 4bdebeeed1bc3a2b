//go:build e2e

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// scaleWindows is how many pets and bare windows the scale benchmark
// runs beside one of each.
const scaleWindows = 10

// scaleReport is scale.json, as perfreport reads it.
type scaleReport struct {
	Windows       int       `json:"windows"`
	WindowSeconds float64   `json:"window_seconds"`
	Bare          idleUsage `json:"bare_window"`
	Bares         idleUsage `json:"bare_windows"`
	Pet           idleUsage `json:"one_pet"`
	Pets          idleUsage `json:"pets"`
}

// BenchmarkTenPetsVsTenBareWindows runs, side by side under one Xvfb, one
// bare Fyne window, ten bare windows in one process, yui with one pet and
// yui with ten pets (ten enabled presets), idle, and reports how CPU and
// RSS grow per window: (ten − one) ÷ 9, for the pets against the bare
// windows (issue 37's goal: a slope within 1.1x the bare windows'). Every
// window has its own GL context in Fyne, which the design keeps: one pet
// window a preset. With YUI_BENCH_OUT set it writes scale.json there.
func BenchmarkTenPetsVsTenBareWindows(b *testing.B) {
	dir := harness.BinDir(b)
	settle, window := 15*time.Second, 40*time.Second
	if s := os.Getenv("YUI_BENCH_WINDOW"); s != "" {
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			window = d
		}
	}
	for i := 0; i < b.N; i++ {
		u := measureScale(b, dir, settle, window)
		pct := func(c time.Duration) float64 { return 100 * c.Seconds() / window.Seconds() }
		cs := func(x usage) float64 { return float64(x.ctxsw) / window.Seconds() }
		rep := scaleReport{Windows: scaleWindows, WindowSeconds: window.Seconds(),
			Bare: idleUsage{u[0].rss, pct(u[0].cpu), cs(u[0])}, Bares: idleUsage{u[1].rss, pct(u[1].cpu), cs(u[1])},
			Pet: idleUsage{u[2].rss, pct(u[2].cpu), cs(u[2])}, Pets: idleUsage{u[3].rss, pct(u[3].cpu), cs(u[3])}}
		per := float64(scaleWindows - 1)
		bareRSS, petRSS := mebi(u[1].rss-u[0].rss)/per, mebi(u[3].rss-u[2].rss)/per
		bareCPU, petCPU := (rep.Bares.CPUPercent-rep.Bare.CPUPercent)/per, (rep.Pets.CPUPercent-rep.Pet.CPUPercent)/per
		b.ReportMetric(petRSS, "pet-MiB/window")
		b.ReportMetric(bareRSS, "bare-MiB/window")
		b.ReportMetric(petCPU, "pet-cpu%/window")
		b.ReportMetric(bareCPU, "bare-cpu%/window")
		b.Logf("over %s, per window past the first: pets %.1f MiB, %.2f%% CPU; bare windows %.1f MiB, %.2f%% CPU",
			window, petRSS, petCPU, bareRSS, bareCPU)
		writePerfResult(b, "scale.json", rep)
	}
}

// measureScale returns the usage of one bare window, ten bare windows,
// one pet and ten pets.
func measureScale(b *testing.B, dir string, settle, window time.Duration) []usage {
	var d *harness.Display
	cleanXvfbFiles(b, &d)
	d = harness.StartXvfb(b, 2560, 1200)
	s := harness.StartSim(b, harness.FreePort(b), "scale-key", "echo")
	env := append(d.Env(), "YUI_KEY=", "HOME="+nullAudioHome(b))
	const layout = "2560x1200+0+0"
	// The pets stand apart on a grid right of the bare windows (which open
	// at the top left): no shaped window changes over another.
	preset := func(n int) harness.Preset {
		p := harness.Preset{ID: fmt.Sprintf("p-5ca1%04d", n), Name: fmt.Sprintf("Pet %d", n), Enabled: true, ChatAPI: "push",
			ChatBaseURL: s.Url, Key: "scale-key", ChatID: fmt.Sprintf("yui-5ca1%04d", n)}
		col, row := n%6, n/6
		p.Positions = map[string]any{layout: map[string]int{"x": 760 + col*300, "y": 40 + row*560}}
		return p
	}
	one, many := b.TempDir(), b.TempDir()
	harness.WriteSettings(b, one, preset(0))
	var presets []harness.Preset
	for n := 1; n <= scaleWindows; n++ {
		presets = append(presets, preset(n))
	}
	harness.WriteSettings(b, many, presets...)
	bare := harness.Start(b, env, filepath.Join(dir, "barewindow"))
	bares := harness.Start(b, env, filepath.Join(dir, "barewindow"), "-windows", fmt.Sprint(scaleWindows))
	pet := harness.Start(b, env, filepath.Join(dir, "yui"), "--config-dir", one)
	pets := harness.Start(b, env, filepath.Join(dir, "yui"), "--config-dir", many)
	ready := func(cfg string, n int) func() bool {
		return func() bool {
			recs := harness.ReadLog(b, cfg)
			return harness.CountRecords(recs, "ws_ready", nil) >= n && harness.CountRecords(recs, "pet_window_shown", nil) >= n
		}
	}
	harness.WaitFor(b, 60*time.Second, "one pet ready and shown", ready(one, 1))
	harness.WaitFor(b, 120*time.Second, "ten pets ready and shown", ready(many, scaleWindows))
	// The settling period is part of what is measured (idle after start-up,
	// as the idle benchmark's): no record marks its end without activity.
	settled := time.NewTimer(settle)
	<-settled.C
	return sampleUsage(b, []*harness.Proc{bare, bares, pet, pets}, window)
}
