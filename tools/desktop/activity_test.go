package desktop_test

import (
	"image"
	"sync"
	"testing"
	"time"

	"yui/tools/desktop"
	"yui/tools/desktop/desktoptest"
	"yui/transport/clock/clocktest"
)

type idleFake struct {
	*desktoptest.Fake
	idle time.Duration
}

func (f idleFake) UserIdle() (time.Duration, error) { return f.idle, nil }

func TestActivitySamplesOnceASecond(t *testing.T) {
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 800, 600), 0, true))
	d.SetWindows(desktop.Window{ID: 7, App: "xterm", Title: "bash", Frame: image.Rect(0, 0, 100, 100), Normal: true})
	d.SetActive(7)
	clk := clocktest.NewFake(time.Unix(0, 0))
	var mu sync.Mutex
	var got []desktop.ActivitySample
	a := desktop.NewActivity(d, idleFake{d, 3 * time.Second}, clk, func(s desktop.ActivitySample) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	})
	clk.Advance(999 * time.Millisecond)
	if len(got) != 0 {
		t.Fatal("sampled before a second passed")
	}
	clk.Advance(2 * time.Second)
	if len(got) != 2 || !got[0].IdleKnown || got[0].Idle != 3*time.Second || !got[0].HasWindow || got[0].Window.App != "xterm" {
		t.Fatalf("samples = %+v", got)
	}
	a.Close()
	clk.Advance(5 * time.Second)
	if len(got) != 2 {
		t.Fatal("sampled after Close")
	}
	// A layer with no idle time and no active window: both unknown.
	d.SetActive(0)
	b := desktop.NewActivity(d, nil, clk, func(s desktop.ActivitySample) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	})
	defer b.Close()
	clk.Advance(time.Second)
	if s := got[len(got)-1]; s.IdleKnown || s.HasWindow {
		t.Fatalf("sample = %+v", s)
	}
}
