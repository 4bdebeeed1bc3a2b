package look

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/tools/body"
	"yui/tools/desktop"
	"yui/tools/desktop/desktoptest"
	"yui/tools/imagefit"
	"yui/transport"
	"yui/transport/clock/clocktest"
)

type fakeBody struct {
	mu sync.Mutex
	st body.State
}

func (b *fakeBody) State() body.State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.st
}

func (b *fakeBody) MoveTo(to image.Point, _ time.Duration, m body.Motion) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.st.Rect = image.Rectangle{Min: to, Max: to.Add(b.st.Rect.Size())}
	b.st.Motion = string(m)
}

func (b *fakeBody) Play(m body.Motion) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.st.Motion = string(m)
}

func (b *fakeBody) SetVisible(v bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.st.Visible = v
}

type fakePermission struct {
	mu     sync.Mutex
	answer Answer
	asked  int
}

func (p *fakePermission) ScreenLook() Answer {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.answer
}

func (p *fakePermission) AskScreenLook() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked++
}

type fakeCapture struct {
	mu    sync.Mutex
	rects []image.Rectangle
	err   error
}

func (c *fakeCapture) Capture(r image.Rectangle) (*image.RGBA, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rects = append(c.rects, r)
	if c.err != nil {
		return nil, c.err
	}
	img := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	for i := 0; i < len(img.Pix); i += 4 {
		p := i / 4
		x, y := p%r.Dx(), p/r.Dx()
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x), uint8(y), uint8(x^y), 255
	}
	return img, nil
}

type rig struct {
	desk  *desktoptest.Fake
	body  *fakeBody
	actor *body.Actor
	perm  *fakePermission
	cap   *fakeCapture
	look  *Look
	clk   *clocktest.Fake
}

func newRig(t *testing.T) *rig {
	d := desktoptest.NewFake(
		desktoptest.FakeMonitor(image.Rect(0, 0, 1920, 1080), 40, true),
		desktoptest.FakeMonitor(image.Rect(1920, 0, 1920+1280, 1024), 0, false),
	)
	d.SetWindows(
		desktop.Window{ID: 0x3a00007, App: "Notes", Title: "Shopping", Frame: image.Rect(400, 210, 1040, 700), Normal: true, PID: 7},
		desktop.Window{ID: 0x3a00010, App: "Code", Title: "main.go - Visual Studio Code", Frame: image.Rect(0, 0, 1920, 1040), Normal: true, PID: 8},
	)
	d.SetActive(0x3a00010)
	r := &rig{desk: d, perm: &fakePermission{}, cap: &fakeCapture{}, clk: clocktest.NewFake(time.Unix(0, 0))}
	r.body = &fakeBody{st: body.State{Rect: image.Rect(1510, 784, 1702, 1040), Visible: true, Emotion: "happy", Motion: "idle"}}
	r.actor = body.New(body.Options{Desktop: d, Body: r.body, Clock: r.clk, PID: 1})
	t.Cleanup(r.actor.Close)
	r.look = New(Options{Actor: r.actor, Desktop: d, Capture: r.cap, Permission: r.perm})
	return r
}

func (r *rig) call(args string) transport.ToolResult {
	return r.look.Handle(context.Background(), transport.ToolCall{ID: "c", Name: Name, Arguments: json.RawMessage(args)})
}

func TestBody(t *testing.T) {
	r := newRig(t)
	want := `{"monitor":0,"x":1510,"y":784,"width":192,"height":256,"perch":null,"emotion_id":"happy","motion_id":"idle","visible":true}`
	if got := r.call(`{"at":"body"}`).Text; got != want {
		t.Fatalf("body\n got %s\nwant %s", got, want)
	}
	// Sitting on Notes (the fake body arrives at once; the clock ends the move).
	done := make(chan string, 1)
	go func() {
		done <- r.actor.Do(context.Background(), json.RawMessage(`{"action":"sit_on_window","app":"Notes"}`))
	}()
	if !r.clk.WaitPending(1, 5*time.Second) {
		t.Fatal("no move")
	}
	r.clk.Advance(body.MaxJump)
	<-done
	got := r.call(`{"at":"body"}`).Text
	if !strings.Contains(got, `"perch":{"kind":"window_top","app":"Notes","title":"Shopping"}`) || !strings.Contains(got, `"motion_id":"sit"`) {
		t.Fatalf("perched body %s", got)
	}
	// On the second display, in its own coordinates.
	r.body.MoveTo(image.Pt(2000, 100), 0, body.Idle)
	if got := r.call(`{"at":"body"}`).Text; !strings.HasPrefix(got, `{"monitor":1,"x":80,"y":100,`) {
		t.Fatalf("body on display 1: %s", got)
	}
}

func TestPerchTargets(t *testing.T) {
	r := newRig(t)
	r.desk.SetWindows(desktop.Window{ID: 0x3a00007, App: "Notes", Title: "Shopping", Frame: image.Rect(400, 210, 1040, 700), Normal: true, PID: 7})
	want := `{"targets":[{"id":"w-3a00007","kind":"window_top","app":"Notes","title":"Shopping","monitor":0,"x":400,"y":210,"width":640},` +
		`{"id":"m0-bottom","kind":"screen_bottom","monitor":0,"x":0,"y":1040,"width":1920},` +
		`{"id":"m1-bottom","kind":"screen_bottom","monitor":1,"x":0,"y":1024,"width":1280}]}`
	if got := r.call(`{"at":"perch_targets"}`).Text; got != want {
		t.Fatalf("perch_targets\n got %s\nwant %s", got, want)
	}
	var ws []desktop.Window
	for i := range 45 {
		ws = append(ws, desktop.Window{ID: desktop.ID(i + 1), App: "A", Title: fmt.Sprint(i), Frame: image.Rect(10*i, 20*i+10, 10*i+300, 20*i+400), Normal: true})
	}
	r.desk.SetWindows(ws...)
	var got struct{ Targets []body.Target }
	if err := json.Unmarshal([]byte(r.call(`{"at":"perch_targets"}`).Text), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Targets) != body.MaxWindowTargets+2 {
		t.Fatalf("%d targets, want 30 windows and 2 bottoms", len(got.Targets))
	}
}

func TestScreenPermission(t *testing.T) {
	r := newRig(t)
	if got := r.call(`{"at":"screen"}`); got.Text != ErrWaitingPermission || len(got.Images) != 0 {
		t.Fatalf("unanswered: %+v", got)
	}
	if got := r.call(`{"at":"screen","monitor":1}`).Text; got != ErrWaitingPermission {
		t.Fatalf("unanswered again: %q", got)
	}
	if r.perm.asked != 2 || len(r.cap.rects) != 0 {
		t.Fatalf("asked %d times, captured %d", r.perm.asked, len(r.cap.rects))
	}
	r.perm.answer = Refused
	if got := r.call(`{"at":"screen"}`).Text; got != ErrNotAllowed {
		t.Fatalf("refused: %q", got)
	}
	if r.perm.asked != 2 || len(r.cap.rects) != 0 {
		t.Fatal("a refused permission asked or captured")
	}
	if got := r.call(`{"at":"screen","monitor":2}`).Text; got != "error: invalid field monitor" {
		t.Fatalf("monitor 2: %q", got)
	}
}

func TestScreenGranted(t *testing.T) {
	r := newRig(t)
	r.perm.answer = Allowed
	got := r.call(`{"at":"screen"}`)
	if want := `screenshot of display 0 (1920x1080), active window "main.go - Visual Studio Code"`; got.Text != want {
		t.Fatalf("text %q, want %q", got.Text, want)
	}
	if len(got.Images) != 1 || got.Images[0].MIME != "image/jpeg" {
		t.Fatalf("images %d", len(got.Images))
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(got.Images[0].Data))
	if err != nil || cfg.Width != 1920 || cfg.Height != 1080 {
		t.Fatalf("image %+v %v", cfg, err)
	}
	// The transport fits it into the frame budget with the JPEG fitter.
	if urls, ok := imagefit.Fit(got.Images, 256<<10); !ok || len(urls) != 1 {
		t.Fatal("the screenshot does not fit 256 KiB")
	}

	r.desk.SetActive(0)
	got = r.call(`{"at":"screen","monitor":1}`)
	if got.Text != "screenshot of display 1 (1280x1024)" {
		t.Fatalf("display 1: %q", got.Text)
	}
	if last := r.cap.rects[len(r.cap.rects)-1]; last != image.Rect(1920, 0, 3200, 1024) {
		t.Fatalf("captured %v", last)
	}

	r.cap.err = errors.New("no X")
	if got := r.call(`{"at":"screen"}`).Text; got != "error: the screen could not be captured" {
		t.Fatalf("capture failure: %q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.cap.err = nil
	if got := r.look.Handle(ctx, transport.ToolCall{Arguments: json.RawMessage(`{"at":"screen"}`)}).Text; got != "error: turn stopped" {
		t.Fatalf("stopped: %q", got)
	}
}

func TestScreenshotForTurn(t *testing.T) {
	r := newRig(t)
	shot, err := r.look.Screenshot(context.Background(), -1)
	if err != nil {
		t.Fatal(err)
	}
	if shot.Display != 1 || shot.Displays != 2 || shot.Width != 1920 || shot.Height != 1080 || shot.ActiveWindow != "main.go - Visual Studio Code" {
		t.Fatalf("shot %+v", shot)
	}
	if _, err := r.look.Screenshot(context.Background(), 2); err == nil {
		t.Fatal("display 2 captured")
	}
}

func TestArgumentErrors(t *testing.T) {
	r := newRig(t)
	for args, want := range map[string]string{
		`{}`:                            "error: missing field at",
		`{"at":"sky"}`:                  "error: invalid field at",
		`{"at":3}`:                      "error: invalid field at",
		`{"at":"screen","monitor":-1}`:  "error: invalid field monitor",
		`{"at":"screen","monitor":0.5}`: "error: invalid field monitor",
		`{"at":"body","zoom":2}`:        "error: invalid field zoom",
		`null`:                          "error: invalid field arguments",
	} {
		if got := r.call(args).Text; got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
}

func TestDesktopFailure(t *testing.T) {
	r := newRig(t)
	r.desk.SetError(errors.New("gone"))
	for _, at := range []string{"perch_targets", "screen"} {
		if got := r.call(`{"at":"` + at + `"}`).Text; got != "error: the desktop cannot be read" {
			t.Errorf("%s: %q", at, got)
		}
	}
}

func BenchmarkPerchTargets50(b *testing.B) {
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 3840, 2160), 48, true))
	var ws []desktop.Window
	for i := range 50 {
		ws = append(ws, desktop.Window{ID: desktop.ID(0x3a00000 + i), App: "Notes", Title: fmt.Sprint("Shopping list ", i),
			Frame: image.Rect(37*i, 20*i+40, 37*i+900, 20*i+700), Normal: true})
	}
	d.SetWindows(ws...)
	fb := &fakeBody{st: body.State{Rect: image.Rect(1800, 1856, 1992, 2112), Visible: true}}
	a := body.New(body.Options{Desktop: d, Body: fb})
	defer a.Close()
	l := New(Options{Actor: a, Desktop: d, Capture: &fakeCapture{}, Permission: &fakePermission{}})
	call := transport.ToolCall{Name: Name, Arguments: json.RawMessage(`{"at":"perch_targets"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if res := l.Handle(context.Background(), call); !strings.HasPrefix(res.Text, `{"targets":[`) {
			b.Fatal(res.Text)
		}
	}
}

// BenchmarkLookScreen4K is one look screen end to end on a 4K monitor:
// the capture (a fake that fills the pixels, as a real one does), the
// JPEG the result carries, and the fitter the transport then runs on it
// for a 256 KiB frame.
func BenchmarkLookScreen4K(b *testing.B) {
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 3840, 2160), 48, true))
	fb := &fakeBody{st: body.State{Rect: image.Rect(1800, 1856, 1992, 2112), Visible: true}}
	a := body.New(body.Options{Desktop: d, Body: fb})
	defer a.Close()
	l := New(Options{Actor: a, Desktop: d, Capture: &fakeCapture{}, Permission: &fakePermission{answer: Allowed}})
	call := transport.ToolCall{Name: Name, Arguments: json.RawMessage(`{"at":"screen"}`)}
	b.ReportAllocs()
	for b.Loop() {
		res := l.Handle(context.Background(), call)
		if len(res.Images) != 1 {
			b.Fatal(res.Text)
		}
		if _, ok := imagefit.Fit(res.Images, 256<<10); !ok {
			b.Fatal("the screenshot does not fit a frame")
		}
	}
}

// FuzzHandle: any arguments give a JSON answer, an image result or an
// "error: " text, never a panic.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{`{"at":"body"}`, `{"at":"perch_targets","monitor":1}`, `{"at":"screen","monitor":9}`, `{"at":null}`, `7`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		r := newRig(t)
		res := r.call(args)
		if !strings.HasPrefix(res.Text, "{") && !strings.HasPrefix(res.Text, "error: ") && !strings.HasPrefix(res.Text, "screenshot of display ") {
			t.Fatalf("%s: result %q", args, res.Text)
		}
	})
}
