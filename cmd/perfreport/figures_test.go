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
