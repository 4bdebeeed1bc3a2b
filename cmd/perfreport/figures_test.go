package main

import "testing"

// A floor (ERLE) passes at or above its goal, a ceiling at or below it.
func TestFigureResult(t *testing.T) {
	for _, tc := range []struct {
		f    Figure
		want Result
		goal string
	}{
		{Figure{Measured: 26, Goal: 25, Unit: "dB", AtLeast: true}, Pass, "≥ 25 dB"},
		{Figure{Measured: 25, Goal: 25, Unit: "dB", AtLeast: true}, Pass, "≥ 25 dB"},
		{Figure{Measured: 24.9, Goal: 25, Unit: "dB", AtLeast: true}, Fail, "≥ 25 dB"},
		{Figure{Measured: 600, Goal: 600, Unit: "ms"}, Pass, "≤ 600 ms"},
		{Figure{Measured: 600, Goal: 600, Unit: "ms", Strict: true}, Fail, "< 600 ms"},
		{Figure{Measured: 30, Unit: "dB"}, Reported, "—"},
		{Figure{Goal: 25, AtLeast: true, Missing: "no run"}, NotMeasured, "≥ 25"},
	} {
		if got := tc.f.Result(); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.f, got, tc.want)
		}
		if got := tc.f.GoalText(); got != tc.goal {
			t.Errorf("%+v: goal %q, want %q", tc.f, got, tc.goal)
		}
	}
}

// The ten-pet figures: the two slope goals, and the still pets' slope
// reported beside them when the run measured it.
func TestScaleFigures(t *testing.T) {
	u := func(mib, cpu float64) *Usage { return &Usage{RSSBytes: int64(mib * (1 << 20)), CPUPercent: cpu} }
	s := Scale{Windows: 10, WindowSeconds: 40, Bare: u(150, 1.5), Bares: u(222, 1.86),
		Pet: u(150, 2.5), Pets: u(216, 5.38)}
	fs := scaleFigures(Input[Scale]{Value: &s})
	if len(fs) != 3 {
		t.Fatalf("%d figures, want 3", len(fs))
	}
	// 72/9 = 8 MiB a bare window, 66/9 ≈ 7.33 a pet; CPU 0.04% and 0.32%.
	if fs[0].Measured != 0.92 || fs[0].Result() != Pass {
		t.Errorf("RSS slope %v %s", fs[0].Measured, fs[0].Result())
	}
	if fs[1].Measured != 8 || fs[1].Result() != Fail {
		t.Errorf("CPU slope %v %s", fs[1].Measured, fs[1].Result())
	}
	if fs[2].Missing == "" || fs[2].Result() != NotMeasured {
		t.Errorf("still slope without still pets: %+v", fs[2])
	}
	s.StillPet, s.StillPets = u(150, 2), u(215, 2.72)
	if err := s.validate(); err != nil {
		t.Fatal(err)
	}
	fs = scaleFigures(Input[Scale]{Value: &s})
	if fs[2].Measured != 2 || fs[2].Result() != Reported {
		t.Errorf("still slope %v %s, want 2x reported", fs[2].Measured, fs[2].Result())
	}
	s.StillPets = nil
	if s.validate() == nil {
		t.Error("a still pet without its ten was taken")
	}
}
