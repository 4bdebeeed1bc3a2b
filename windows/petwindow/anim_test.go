package petwindow

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestAnimatorPaceAndPause: a slowed cycle lasts pace times as long; a
// paused (hidden) animator registers nothing with Fyne's runner and
// resumes where it was asked to.
func TestAnimatorPaceAndPause(t *testing.T) {
	test.NewTempApp(t)
	var shown []int
	a := newAnimator(func(int) {}, func(i int) { shown = append(shown, i) })
	a.play(8, 4, true, nil)
	if a.anim == nil || a.anim.Duration != 2*time.Second {
		t.Fatalf("cycle %v, want 2 s", a.anim)
	}
	a.setPace(3)
	if a.anim == nil || a.anim.Duration != 6*time.Second {
		t.Fatalf("slowed cycle %v, want 6 s", a.anim.Duration)
	}
	a.setPaused(true)
	if a.anim != nil || a.running() {
		t.Fatal("a paused animator still runs")
	}
	a.play(4, 8, true, nil) // the motion changes while hidden
	if a.anim != nil {
		t.Fatal("a motion started while paused")
	}
	a.setPaused(false)
	if a.anim == nil || a.anim.Duration != 1500*time.Millisecond {
		t.Fatalf("resumed %v, want the new motion at pace 3 (1.5 s)", a.anim)
	}
	a.stop()
	a.setPaused(true)
	a.setPaused(false)
	if a.anim != nil {
		t.Fatal("a stopped animator restarted on resume")
	}
}
