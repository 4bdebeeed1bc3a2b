package pet

import (
	"image"
	"testing"
)

func TestSleepyAndPat(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Pack.Emotions[SleepyEmotion] = image.NewRGBA(image.Rect(0, 0, 1, 1)) })
	if got := e.view().Emotion; got != "neutral" {
		t.Fatalf("start emotion %q", got)
	}
	e.c.SetSleepy(true)
	if got := e.view().Emotion; got != SleepyEmotion {
		t.Fatalf("sleepy: emotion %q", got)
	}
	e.c.Pat() // a pat wakes it for a moment
	if got := e.view().Emotion; got != PatEmotion {
		t.Fatalf("patted: emotion %q", got)
	}
	e.clock.Advance(PatTime)
	if got := e.view().Emotion; got != SleepyEmotion {
		t.Fatalf("after the pat: emotion %q, want sleepy again", got)
	}
	e.c.SetSleepy(false) // the user is back
	if got := e.view().Emotion; got != "neutral" {
		t.Fatalf("awake: emotion %q", got)
	}
	if e.tr.takeCalls() != nil {
		t.Fatal("a pat or sleepiness started a turn")
	}
}

func TestSleepyWithoutTheEmotionKeepsTheFace(t *testing.T) {
	e := newEnv(t, nil) // the test pack has no sleepy
	e.c.SetSleepy(true)
	if got := e.view().Emotion; got != "neutral" {
		t.Fatalf("emotion %q", got)
	}
	e.c.SetSleepy(false)
	if got := e.view().Emotion; got != "neutral" {
		t.Fatalf("emotion %q", got)
	}
}
