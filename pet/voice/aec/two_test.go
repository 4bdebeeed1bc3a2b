package aec

import "testing"

// decide's examples: equal filters decide nothing; a background that
// leaves half the foreground's error for a few blocks is taken; one whose
// error is suddenly ten times the foreground's is taken back.
func TestTwoPathDecide(t *testing.T) {
	const e = 1e-3
	var tp twoPath
	for range 5 {
		if up, back := tp.decide(e, e, 1e-9); up || back {
			t.Fatalf("equal filters: update %v, reset %v", up, back)
		}
	}
	tp = twoPath{}
	updated := false
	for range 4 {
		if up, _ := tp.decide(e, e/2, e/4); up {
			updated = true
			break
		}
	}
	if !updated {
		t.Fatal("a background with half the error was never taken")
	}
	tp = twoPath{}
	if up, back := tp.decide(e, 10*e, 9*e); up || !back {
		t.Fatalf("a background ten times worse: update %v, reset %v", up, back)
	}
	if tp != (twoPath{}) {
		t.Fatal("the statistics were not cleared after a decision")
	}
}
