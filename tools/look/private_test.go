package look

import (
	"context"
	"errors"
	"image"
	"strings"
	"testing"

	"yui/tools/desktop"
)

// While the active window's title holds a private word, no screenshot is
// taken: look at screen answers its error, a turn's screenshot is refused.
func TestPrivateWindowStopsEveryScreenshot(t *testing.T) {
	r := newRig(t)
	r.perm.answer = Allowed
	r.look.o.Private = func(title string) bool { return strings.Contains(strings.ToLower(title), "keepass") }
	r.desk.SetWindows(desktop.Window{ID: 0x5, App: "KeePassXC", Title: "Passwords.kdbx - KeePassXC", Frame: image.Rect(0, 0, 800, 600), Normal: true, PID: 9})
	r.desk.SetActive(0x5)
	before := len(r.cap.rects)
	if got := r.call(`{"at":"screen"}`).Text; got != ErrPrivateWindow {
		t.Fatalf("look screen = %q", got)
	}
	if _, err := r.look.Screenshot(context.Background(), -1); !errors.Is(err, ErrPrivate) {
		t.Fatalf("turn screenshot err = %v", err)
	}
	if len(r.cap.rects) != before {
		t.Fatal("the screen was captured")
	}
	r.desk.SetActive(0)
	if got := r.call(`{"at":"screen"}`); len(got.Images) != 1 {
		t.Fatalf("no private window: %q", got.Text)
	}
}

// Where the active window cannot be known (a Wayland compositor that tells
// nothing), no screenshot is taken unless the user allowed screen looks:
// a turn's screenshot either.
func TestActiveUnknownNeedsScreenLook(t *testing.T) {
	r := newRig(t)
	r.look.o.ActiveUnknown = func() bool { return true }
	r.look.o.Private = func(title string) bool { return strings.Contains(title, "KeePassXC") }
	before := len(r.cap.rects)
	for _, a := range []Answer{Unanswered, Refused} {
		r.perm.answer = a
		if _, err := r.look.Screenshot(context.Background(), -1); !errors.Is(err, ErrUnknownActive) {
			t.Fatalf("answer %d: turn screenshot err = %v", a, err)
		}
	}
	if len(r.cap.rects) != before {
		t.Fatal("the screen was captured")
	}
	r.perm.answer = Allowed
	if _, err := r.look.Screenshot(context.Background(), -1); err != nil {
		t.Fatalf("allowed: %v", err)
	}
}
