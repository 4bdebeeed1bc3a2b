package desktoptest_test

import (
	"image"
	"testing"

	"yui/tools/desktop"
	"yui/tools/desktop/desktoptest"
)

func TestMonitorAt(t *testing.T) {
	ms := []desktop.Monitor{
		desktoptest.FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true),
		desktoptest.FakeMonitor(image.Rect(1920, 0, 3840, 1080), 0, false),
	}
	for p, want := range map[image.Point]int{
		{10, 10}: 0, {1919, 1079}: 0, {1920, 0}: 1, {5000, 500}: 1, {-50, 2000}: 0,
	} {
		if got := desktop.MonitorAt(ms, p); got != want {
			t.Errorf("MonitorAt(%v) = %d, want %d", p, got, want)
		}
	}
	if desktop.MonitorAt(nil, image.Pt(0, 0)) != -1 {
		t.Error("no monitors must give -1")
	}
}

func TestFakeWatch(t *testing.T) {
	f := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 100, 100), 10, true))
	f.SetWindows(desktop.Window{ID: 1, Frame: image.Rect(0, 0, 10, 10)}, desktop.Window{ID: 2})
	if _, err := f.Watch(9, func(desktop.Change) {}); err == nil {
		t.Fatal("watched a missing window")
	}
	var got []desktop.Change
	stop, err := f.Watch(1, func(c desktop.Change) { got = append(got, c) })
	if err != nil {
		t.Fatal(err)
	}
	f.Move(1, image.Rect(5, 5, 15, 15))
	f.Move(2, image.Rect(5, 5, 15, 15)) // not watched
	f.Minimize(1)
	f.CloseWindow(1)
	f.Move(1, image.Rect(0, 0, 1, 1)) // gone: nothing
	if len(got) != 3 || got[0].Kind != desktop.Moved || got[0].Window.Frame != image.Rect(5, 5, 15, 15) ||
		got[1].Kind != desktop.Minimized || got[2].Kind != desktop.Closed || got[2].Window.ID != 1 {
		t.Fatalf("changes %+v", got)
	}
	stop()
	stop()
	if ws, _ := f.Windows(); len(ws) != 1 || f.Watching(1) != 0 {
		t.Fatalf("windows %+v", ws)
	}
	stop2, _ := f.Watch(2, func(desktop.Change) { t.Fatal("change after stop") })
	stop2()
	f.Move(2, image.Rect(0, 0, 3, 3))
	if desktop.Closed.String() != "closed" || desktop.ID(0x3a00007).String() != "3a00007" {
		t.Fatal("names")
	}
	f.Close()
	if _, err := f.Monitors(); err == nil {
		t.Fatal("Monitors after Close")
	}
}
