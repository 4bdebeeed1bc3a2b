package app

import (
	"errors"
	"strings"
	"testing"
)

func TestEventReachesTheRunningYui(t *testing.T) {
	dir := t.TempDir()
	if err := SendEvent(dir, "", "build", "done"); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("no Yui: %v, want ErrNotRunning", err)
	}
	in, err := claimInstance(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan [3]string, 1)
	in.onEvent = func(preset, source, text string) error {
		if text == "refuse" {
			return errors.New("no running preset \"x\"")
		}
		got <- [3]string{preset, source, text}
		return nil
	}
	in.serve(func() {})
	if err := SendEvent(dir, "p-1", "build", "line one\nline two"); err != nil {
		t.Fatal(err)
	}
	if e := <-got; e != [3]string{"p-1", "build", "line one\nline two"} {
		t.Fatalf("event = %q", e)
	}
	if err := SendEvent(dir, "", "", "refuse"); err == nil || !strings.Contains(err.Error(), "no running preset") {
		t.Fatalf("refused event: %v", err)
	}
	in.Close()
	// The file of a Yui that is gone: nothing listens.
	if err := SendEvent(dir, "", "", "late"); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("after close: %v", err)
	}
}
