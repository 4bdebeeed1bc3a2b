package main

import (
	"fmt"
	"math"
)

// scaleFile is BenchmarkTenPetsVsTenBareWindows's result.
const scaleFile = "scale.json"

// slopeRatioGoal bounds how much faster pets grow than bare windows, per
// window (issue 37).
const slopeRatioGoal = 1.1

// Scale is scale.json: one and N bare windows, one and N pets, idle.
type Scale struct {
	Windows       int     `json:"windows"`
	WindowSeconds float64 `json:"window_seconds"`
	Bare          *Usage  `json:"bare_window"`
	Bares         *Usage  `json:"bare_windows"`
	Pet           *Usage  `json:"one_pet"`
	Pets          *Usage  `json:"pets"`
}

func (s *Scale) validate() error {
	if s.Windows < 2 {
		return fmt.Errorf("windows %d: want at least 2", s.Windows)
	}
	for name, u := range map[string]*Usage{"bare_window": s.Bare, "bare_windows": s.Bares, "one_pet": s.Pet, "pets": s.Pets} {
		if u == nil || u.RSSBytes <= 0 || u.CPUPercent < 0 {
			return fmt.Errorf("%s missing or not positive", name)
		}
	}
	return nil
}

// slopes are what each window past the first adds: RSS in MiB, CPU in %.
func (s *Scale) slopes() (petRSS, bareRSS, petCPU, bareCPU float64) {
	per := float64(s.Windows - 1)
	return mib(s.Pets.RSSBytes-s.Pet.RSSBytes) / per, mib(s.Bares.RSSBytes-s.Bare.RSSBytes) / per,
		(s.Pets.CPUPercent - s.Pet.CPUPercent) / per, (s.Bares.CPUPercent - s.Bare.CPUPercent) / per
}

// scaleFigures are the two slope goals.
func scaleFigures(in Input[Scale]) []Figure {
	fs := []Figure{
		{Name: "RSS per window, pets ÷ bare", Unit: "x", Goal: slopeRatioGoal,
			What: "Resident set each window past the first adds, 10 pets ÷ 10 bare Fyne windows (BenchmarkTenPetsVsTenBareWindows; issue 37)"},
		{Name: "CPU per window, pets ÷ bare", Unit: "x", Goal: slopeRatioGoal,
			What: "Idle CPU each window past the first adds, 10 pets ÷ 10 bare Fyne windows (BenchmarkTenPetsVsTenBareWindows; issue 37)"},
	}
	s := in.Value
	if s == nil {
		for k := range fs {
			fs[k].Missing = in.Status()
		}
		return fs
	}
	petRSS, bareRSS, petCPU, bareCPU := s.slopes()
	fs[0].Measured = math.Round(petRSS/bareRSS*100) / 100
	fs[0].Text = fmt.Sprintf("%sx (%s vs %s MiB a window)", num(fs[0].Measured), num(petRSS), num(bareRSS))
	// A bare window past the first costs next to no CPU the clock sees:
	// the floor keeps the ratio finite.
	fs[1].Measured = math.Round(math.Max(petCPU, cpuFloor)/math.Max(bareCPU, cpuFloor)*100) / 100
	fs[1].Text = fmt.Sprintf("%sx (%s%% vs %s%% of a core a window)", num(fs[1].Measured), num(petCPU), num(bareCPU))
	return fs
}

// writeScale is the report's section on many windows.
func writeScale(p func(string, ...any), in Input[Scale]) {
	p("## Ten pets beside ten bare windows\n\n")
	s := in.Value
	if s == nil {
		p("Not measured: %s (BenchmarkTenPetsVsTenBareWindows writes it).\n\n", in.Status())
		return
	}
	petRSS, bareRSS, petCPU, bareCPU := s.slopes()
	p("One bare Fyne window, %d bare windows in one process, `yui` with one pet and `yui` with %d pets, idle\n", s.Windows, s.Windows)
	p("side by side under one Xvfb over %s s. What each window past the first adds:\n\n", num(s.WindowSeconds))
	p("| | RSS a window | CPU a window |\n|---|---|---|\n")
	p("| pets | %s MiB | %s%% |\n| bare windows | %s MiB | %s%% |\n\n", num(petRSS), num(petCPU), num(bareRSS), num(bareCPU))
	p("%s", scaleDesign)
}

const scaleDesign = `Memory grows as the bare windows' does: each window's GL context and buffers are the floor, and a
pet adds little over it. CPU does not: a bare window that never changes is not drawn again, while an
idle pet breathes and blinks, so every pet past the first redraws its window a few times a second (on
Xvfb the GL driver draws on the CPU). That redraw is the floor of the CPU a window: a pet that did not
move would not be alive on the desktop.

`
