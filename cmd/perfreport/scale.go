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
	// StillPet and StillPets show a character whose idle motion has one
	// frame: a pet's cost a window less its breathing. Absent from runs
	// before they were measured.
	StillPet  *Usage `json:"one_still_pet,omitempty"`
	StillPets *Usage `json:"still_pets,omitempty"`
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
	if (s.StillPet == nil) != (s.StillPets == nil) {
		return fmt.Errorf("one_still_pet and still_pets: one without the other")
	}
	for name, u := range map[string]*Usage{"one_still_pet": s.StillPet, "still_pets": s.StillPets} {
		if u != nil && (u.RSSBytes <= 0 || u.CPUPercent < 0) {
			return fmt.Errorf("%s not positive", name)
		}
	}
	return nil
}

// stillSlope is the CPU each still pet past the first adds, in %; ok is
// false when the run did not measure still pets.
func (s *Scale) stillSlope() (cpu float64, ok bool) {
	if s.StillPet == nil || s.StillPets == nil {
		return 0, false
	}
	return (s.StillPets.CPUPercent - s.StillPet.CPUPercent) / float64(s.Windows-1), true
}

// slopes are what each window past the first adds: RSS in MiB, CPU in %.
func (s *Scale) slopes() (petRSS, bareRSS, petCPU, bareCPU float64) {
	per := float64(s.Windows - 1)
	return mib(s.Pets.RSSBytes-s.Pet.RSSBytes) / per, mib(s.Bares.RSSBytes-s.Bare.RSSBytes) / per,
		(s.Pets.CPUPercent - s.Pet.CPUPercent) / per, (s.Bares.CPUPercent - s.Bare.CPUPercent) / per
}

// scaleFigures are the two slope goals, and the still pets' CPU slope,
// reported beside them.
func scaleFigures(in Input[Scale]) []Figure {
	fs := []Figure{
		{Name: "RSS per window, pets ÷ bare", Unit: "x", Goal: slopeRatioGoal,
			What: "Resident set each window past the first adds, 10 pets ÷ 10 bare Fyne windows (BenchmarkTenPetsVsTenBareWindows; issue 37)"},
		{Name: "CPU per window, pets ÷ bare", Unit: "x", Goal: slopeRatioGoal,
			What: "Idle CPU each window past the first adds, 10 pets ÷ 10 bare Fyne windows (BenchmarkTenPetsVsTenBareWindows; issue 37)"},
		{Name: "CPU per window, still pets ÷ bare", Unit: "x",
			What: "The same for 10 pets that do not breathe (their character's idle motion cut to one frame): what a pet costs a window besides its breathing"},
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
	if stillCPU, ok := s.stillSlope(); ok {
		fs[2].Measured = math.Round(math.Max(stillCPU, cpuFloor)/math.Max(bareCPU, cpuFloor)*100) / 100
		fs[2].Text = fmt.Sprintf("%sx (%s%% of a core a window)", num(fs[2].Measured), num(stillCPU))
	} else {
		fs[2].Missing = "not measured in this run"
	}
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
	if _, ok := s.stillSlope(); ok {
		p("(and one and %d pets that do not breathe: the built-in character with its idle motion cut to one frame)\n", s.Windows)
	}
	p("side by side under one Xvfb over %s s. What each window past the first adds:\n\n", num(s.WindowSeconds))
	p("| | RSS a window | CPU a window |\n|---|---|---|\n")
	p("| pets | %s MiB | %s%% |\n", num(petRSS), num(petCPU))
	if stillCPU, ok := s.stillSlope(); ok {
		stillRSS := mib(s.StillPets.RSSBytes-s.StillPet.RSSBytes) / float64(s.Windows-1)
		p("| pets that do not breathe | %s MiB | %s%% |\n", num(stillRSS), num(stillCPU))
	}
	p("| bare windows | %s MiB | %s%% |\n\n", num(bareRSS), num(bareCPU))
	p("%s", scaleDesign)
}

const scaleDesign = `Memory grows as the bare windows' does: each window's GL context and buffers are the floor, and a
pet adds little over it. CPU does not: a bare window that never changes is not drawn again, while an
idle pet breathes and blinks, so every pet past the first redraws its window twice a second (on Xvfb
the GL driver draws on the CPU, the whole window each time, as Fyne has no partial repaint). The
pets that do not breathe measure that share: the rest of a pet's cost a window (its look at the
active window each second, its eyes' glances) is a fraction of a millisecond of CPU a second. The
redraw is the floor of the CPU a window, and this figure misses its goal by design: a pet that did
not move would not be alive on the desktop. It is already cut to what the eye needs (the design
above: at most two frame changes a second, fewer while the user is away, none while hidden).

`
