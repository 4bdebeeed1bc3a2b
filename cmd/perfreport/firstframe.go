package main

import (
	"fmt"
	"math"
)

// firstFrameFile is BenchmarkFirstFrame's result.
const firstFrameFile = "firstframe.json"

// firstFrameGoal is how much later than a bare Fyne window the pet's
// first frame may come, in ms (issue 37).
const firstFrameGoal = 100

// FirstFrame is firstframe.json: process start to the window's first
// frame on the screen, each run, for the pet and a bare window.
type FirstFrame struct {
	PetMS  []float64 `json:"pet_ms"`
	BareMS []float64 `json:"bare_ms"`
}

func (f *FirstFrame) validate() error {
	if len(f.PetMS) == 0 || len(f.BareMS) == 0 {
		return fmt.Errorf("no runs")
	}
	for _, v := range append(append([]float64(nil), f.PetMS...), f.BareMS...) {
		if v <= 0 || v > 120_000 {
			return fmt.Errorf("a run of %g ms", v)
		}
	}
	return nil
}

func firstFrameFigure(in Input[FirstFrame]) Figure {
	f := Figure{Name: "first frame after bare", Unit: "ms", Goal: firstFrameGoal,
		What: "Start-up: process start to the pet's first frame on screen, less a bare Fyne window's, medians (BenchmarkFirstFrame; issue 37)"}
	if in.Value == nil {
		f.Missing = in.Status()
		return f
	}
	pet, bare := median(in.Value.PetMS), median(in.Value.BareMS)
	f.Measured = math.Round(pet - bare)
	f.Text = fmt.Sprintf("%s ms (pet %s ms, bare window %s ms)", num(f.Measured), num(math.Round(pet)), num(math.Round(bare)))
	return f
}
