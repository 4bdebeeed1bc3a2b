//go:build e2e

package bench

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"yui/assets"
	"yui/cmd/yui/e2e/harness"
	"yui/pet/character"
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
	// StillPet and StillPets are the same pets showing a character whose
	// idle motion has one frame: everything a pet does but breathe.
	StillPet  idleUsage `json:"one_still_pet"`
	StillPets idleUsage `json:"still_pets"`
}

// BenchmarkTenPetsVsTenBareWindows runs, side by side under one Xvfb, one
// bare Fyne window, ten bare windows in one process, yui with one pet and
// yui with ten pets (ten enabled presets), idle, and reports how CPU and
// RSS grow per window: (ten − one) ÷ 9, for the pets against the bare
// windows (issue 37's goal: a slope within 1.1x the bare windows'). Every
// window has its own GL context in Fyne, which the design keeps: one pet
// window a preset. Beside them, one and ten pets showing the built-in
// character with an idle motion of one frame (stillPack) measure what a
// pet costs a window when it does not breathe. With YUI_BENCH_OUT set it
// writes scale.json there.
func BenchmarkTenPetsVsTenBareWindows(b *testing.B) {
	dir := harness.BinDir(b)
	settle, window := 15*time.Second, benchWindow(40*time.Second)
	for i := 0; i < b.N; i++ {
		u := measureScale(b, dir, settle, window)
		pct := func(c time.Duration) float64 { return 100 * c.Seconds() / window.Seconds() }
		cs := func(x usage) float64 { return float64(x.ctxsw) / window.Seconds() }
		iu := func(x usage) idleUsage { return idleUsage{x.rss, pct(x.cpu), cs(x)} }
		rep := scaleReport{Windows: scaleWindows, WindowSeconds: window.Seconds(),
			Bare: iu(u[0]), Bares: iu(u[1]), Pet: iu(u[2]), Pets: iu(u[3]), StillPet: iu(u[4]), StillPets: iu(u[5])}
		per := float64(scaleWindows - 1)
		bareRSS, petRSS := mebi(u[1].rss-u[0].rss)/per, mebi(u[3].rss-u[2].rss)/per
		bareCPU, petCPU := (rep.Bares.CPUPercent-rep.Bare.CPUPercent)/per, (rep.Pets.CPUPercent-rep.Pet.CPUPercent)/per
		stillCPU := (rep.StillPets.CPUPercent - rep.StillPet.CPUPercent) / per
		b.ReportMetric(petRSS, "pet-MiB/window")
		b.ReportMetric(bareRSS, "bare-MiB/window")
		b.ReportMetric(petCPU, "pet-cpu%/window")
		b.ReportMetric(bareCPU, "bare-cpu%/window")
		b.ReportMetric(stillCPU, "still-pet-cpu%/window")
		b.Logf("over %s, per window past the first: pets %.1f MiB, %.2f%% CPU; still pets %.2f%% CPU; bare windows %.1f MiB, %.2f%% CPU",
			window, petRSS, petCPU, stillCPU, bareRSS, bareCPU)
		writePerfResult(b, "scale.json", rep)
	}
}

// measureScale returns the usage of one bare window, ten bare windows,
// one pet, ten pets, one still pet and ten still pets.
func measureScale(b *testing.B, dir string, settle, window time.Duration) []usage {
	var d *harness.Display
	cleanXvfbFiles(b, &d)
	d = harness.StartXvfb(b, 2560, 2*scaleTop)
	s := harness.StartSim(b, harness.FreePort(b), "scale-key", "echo")
	env := append(d.Env(), "YUI_KEY=", "HOME="+nullAudioHome(b))
	const layout = "2560x2400+0+0" // 2*scaleTop high
	// The pets stand apart on a grid right of the bare windows (which open
	// at the top left): no shaped window changes over another.
	// The still pets stand on the grid's lower half, 1200 px down: a
	// virtual screen tall enough for both grids.
	preset := func(n int, character string, top int) harness.Preset {
		p := harness.Preset{ID: fmt.Sprintf("p-5ca1%04d", n), Name: fmt.Sprintf("Pet %d", n), Enabled: true, ChatAPI: "push",
			ChatBaseURL: s.Url, Key: "scale-key", ChatID: fmt.Sprintf("yui-5ca1%04d%s", n, character), Character: character}
		col, row := n%6, n/6
		p.Positions = map[string]any{layout: map[string]int{"x": 760 + col*300, "y": top + 40 + row*560}}
		return p
	}
	start := func(character string, top int, ns ...int) (*harness.Proc, string) {
		cfg := b.TempDir()
		if character == stillCharacter {
			stillPack(b, cfg)
		}
		var presets []harness.Preset
		for _, n := range ns {
			presets = append(presets, preset(n, character, top))
		}
		harness.WriteSettings(b, cfg, presets...)
		return harness.Start(b, env, filepath.Join(dir, "yui"), "--config-dir", cfg), cfg
	}
	tenFrom1 := make([]int, scaleWindows)
	for i := range tenFrom1 {
		tenFrom1[i] = i + 1
	}
	// The pointer in the corner no pet stands near (BenchmarkIdlePetVsBareWindow).
	d.MoveTo(b, 0, 2*scaleTop-1)
	bare := harness.Start(b, env, filepath.Join(dir, "barewindow"))
	bares := harness.Start(b, env, filepath.Join(dir, "barewindow"), "-windows", fmt.Sprint(scaleWindows))
	pet, one := start("yui", 0, 0)
	pets, many := start("yui", 0, tenFrom1...)
	still, oneStill := start(stillCharacter, scaleTop, 0)
	stills, manyStill := start(stillCharacter, scaleTop, tenFrom1...)
	ready := func(cfg string, n int) func() bool {
		return func() bool {
			recs := harness.ReadLog(b, cfg)
			return harness.CountRecords(recs, "ws_ready", nil) >= n && harness.CountRecords(recs, "pet_window_shown", nil) >= n
		}
	}
	harness.WaitFor(b, 60*time.Second, "one pet ready and shown", ready(one, 1))
	harness.WaitFor(b, 120*time.Second, "ten pets ready and shown", ready(many, scaleWindows))
	harness.WaitFor(b, 60*time.Second, "one still pet ready and shown", ready(oneStill, 1))
	harness.WaitFor(b, 120*time.Second, "ten still pets ready and shown", ready(manyStill, scaleWindows))
	for _, cfg := range []string{oneStill, manyStill} {
		if harness.CountRecords(harness.ReadLog(b, cfg), "character_refused", nil) > 0 {
			b.Fatalf("the still character was refused (%s)", cfg)
		}
	}
	// The settling period is part of what is measured (idle after start-up,
	// as the idle benchmark's): no record marks its end without activity.
	settled := time.NewTimer(settle)
	<-settled.C
	return sampleUsage(b, []*harness.Proc{bare, bares, pet, pets, still, stills}, window)
}

// stillCharacter is the pack stillPack writes: the built-in Yui with an
// idle motion of one frame.
const stillCharacter = "still"

// scaleTop is where the still pets' grid begins on the virtual screen.
const scaleTop = 1200

// stillPack writes the still character into cfg's characters folder: the
// built-in pack's files, its manifest's id "still" and its idle motion
// cut to its first frame, so that an idle pet showing it never changes
// frame on its own.
func stillPack(b *testing.B, cfg string) {
	src := assets.BuiltinCharacter("yui")
	dst := character.Dir(cfg, stillCharacter)
	err := fs.WalkDir(src, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, path)
		if err != nil {
			return err
		}
		if path == character.ManifestName {
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				return err
			}
			m["id"] = stillCharacter
			idle := m["motions"].(map[string]any)["idle"].(map[string]any)
			idle["frames"] = idle["frames"].([]any)[:1]
			if data, err = json.Marshal(m); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, path)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, path), data, 0o644)
	})
	if err != nil {
		b.Fatalf("write the still character: %v", err)
	}
}
