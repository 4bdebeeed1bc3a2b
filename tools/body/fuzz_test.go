package body

import (
	"context"
	"encoding/json"
	"image"
	"strings"
	"testing"
	"time"

	"yui/tools/desktop"
	"yui/tools/desktop/desktoptest"
	"yui/transport/clock"
)

// instantClock ends every movement at once, on a goroutine of its own.
type instantClock struct{}

func (instantClock) Now() time.Time { return time.Unix(0, 0) }

func (instantClock) AfterFunc(_ time.Duration, f func()) clock.Timer {
	go f()
	return instantTimer{}
}

type instantTimer struct{}

func (instantTimer) Stop() bool { return false }

// FuzzDo: any arguments give an "ok: " or "error: " result, never a panic
// or a hang.
func FuzzDo(f *testing.F) {
	for _, s := range []string{
		`{"action":"sit_on_window","app":"notes"}`, `{"action":"perch","target_id":"m0-bottom"}`,
		`{"action":"walk_to","x":-2147483648}`, `{"action":"move_to","x":1e3,"y":2}`, `{"action":"show","monitor":0}`,
		`{"action":"hide","app":null}`, `[1]`, `{"action":"go_home","x":"1"}`,
	} {
		f.Add(s)
	}
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true))
	d.SetWindows(desktop.Window{ID: 7, App: "Notes", Title: "Shopping", Frame: image.Rect(400, 500, 1040, 900), Normal: true})
	f.Fuzz(func(t *testing.T, args string) {
		a := New(Options{Desktop: d, Body: newFakeBody(image.Pt(1500, 784)), Clock: instantClock{}})
		defer a.Close()
		res := a.Do(context.Background(), json.RawMessage(args))
		if !strings.HasPrefix(res, "ok: ") && !strings.HasPrefix(res, "error: ") {
			t.Fatalf("%s: result %q", args, res)
		}
	})
}
