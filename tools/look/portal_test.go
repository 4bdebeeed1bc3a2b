//go:build (linux || freebsd || openbsd || netbsd) && !android

package look

import (
	"context"
	"errors"
	"image"
	"image/color"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"yui/tools/desktop"
	"yui/tools/desktop/desktoptest"
	"yui/tools/internal/dbustest"
)

// screenOf is a w x h screen of one colour with a white square at 10,10.
func screenOf(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 0xff
	}
	for y := 10; y < 20; y++ {
		for x := 10; x < 20; x++ {
			img.Set(x, y, color.White)
		}
	}
	return img
}

var magenta = color.RGBA{0xff, 0, 0xff, 0xff}

// The portal's Response codes as a screen look meets them, through the
// session's capturer of a Wayland session.
func TestPortalResponses(t *testing.T) {
	addr := dbustest.Start(t)
	p := dbustest.ServePortal(t, addr)
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 64, 48), 0, true))
	s := OpenSessionScreen(SessionOptions{Session: desktop.Session{Wayland: true, Desktops: []string{"gnome"}}, Desktop: d, Bus: addr})
	for _, tc := range []struct {
		name string
		code uint32
		img  image.Image
		want error
	}{
		{"ok", 0, screenOf(64, 48, magenta), nil},
		{"cancelled", 1, nil, ErrPortalCancelled},
		{"other", 2, nil, ErrPortalRefused},
		{"ok without uri", 0, nil, nil},
		{"black", 0, image.NewRGBA(image.Rect(0, 0, 64, 48)), ErrBlack},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.Set(tc.code, tc.img)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			img, err := s.CaptureContext(ctx, image.Rect(0, 0, 64, 48))
			switch {
			case tc.name == "ok without uri":
				if err == nil {
					t.Fatal("no uri, no error")
				}
			case tc.want != nil:
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				if st := s.Status(); st.Problem == "" || st.Way != WayPortal {
					t.Fatalf("status = %+v", st)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if img.Bounds().Size() != image.Pt(64, 48) || img.RGBAAt(30, 30) != magenta {
					t.Fatalf("picture %v, pixel %v", img.Bounds(), img.RGBAAt(30, 30))
				}
				if st := s.Status(); st.Problem != "" {
					t.Fatalf("status after a good shot = %+v", st)
				}
			}
		})
	}
	interactive, files := p.Calls()
	for _, i := range interactive {
		if i {
			t.Fatal("a call asked for an interactive screenshot")
		}
	}
	// The shots the portal wrote are gone: not the user's to keep.
	for _, f := range files {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Fatalf("%s left behind: %v", f, err)
		}
	}
}

// A part of the desktop is cut from the portal's whole picture, in desktop
// coordinates, and a picture at twice the size (a monitor scaled by 2) is
// cut in step.
func TestPortalCutsTheMonitor(t *testing.T) {
	addr := dbustest.Start(t)
	p := dbustest.ServePortal(t, addr)
	d := desktoptest.NewFake(desktoptest.FakeMonitor(image.Rect(0, 0, 32, 48), 0, true), desktoptest.FakeMonitor(image.Rect(32, 0, 64, 48), 0, false))
	pt := Portal{Address: addr, Bounds: desktopBounds(d)}
	p.Set(0, screenOf(64, 48, magenta))
	img, err := pt.Capture(image.Rect(0, 0, 32, 48))
	if err != nil || img.Bounds().Size() != image.Pt(32, 48) || img.RGBAAt(15, 15) != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Fatalf("left monitor %v %v", img, err)
	}
	p.Set(0, screenOf(128, 96, magenta))
	img, err = pt.Capture(image.Rect(32, 0, 64, 48))
	if err != nil || img.Bounds().Size() != image.Pt(64, 96) || img.RGBAAt(0, 0) != magenta {
		t.Fatalf("right monitor at scale 2: %v %v", img, err)
	}
}

// Without a portal on the bus the capture says so at once, and the look
// tool answers its one clear error instead of a picture.
func TestNoPortal(t *testing.T) {
	addr := dbustest.Start(t)
	r := newRig(t)
	r.perm.answer = Allowed
	s := OpenSessionScreen(SessionOptions{Session: desktop.Session{Wayland: true}, Desktop: r.desk, Bus: addr})
	r.look.o.Capture = s
	if got := r.call(`{"at":"screen"}`); got.Text != ErrCannotCapture || len(got.Images) != 0 {
		t.Fatalf("look screen = %q with %d images", got.Text, len(got.Images))
	}
	if _, err := r.look.Screenshot(context.Background(), -1); !errors.Is(err, ErrNoWay) || !errors.Is(err, ErrNoPortal) {
		t.Fatalf("turn screenshot err = %v", err)
	}
	if st := s.Status(); st.Problem == "" {
		t.Fatal("the App tab is not told")
	}
}

func TestAllBlack(t *testing.T) {
	if !allBlack(image.NewRGBA(image.Rect(0, 0, 3, 3))) || !allBlack(nil) {
		t.Fatal("black not seen")
	}
	img := image.NewRGBA(image.Rect(0, 0, 3, 3))
	img.Set(2, 2, color.RGBA{0, 0, 1, 0xff})
	if allBlack(img) {
		t.Fatal("one blue pixel is no black picture")
	}
}

// The portal path goes through the private-window rule too: with a
// private window in front the portal is never asked.
func TestPrivateWindowStopsThePortal(t *testing.T) {
	addr := dbustest.Start(t)
	p := dbustest.ServePortal(t, addr)
	p.Set(0, screenOf(64, 48, magenta))
	r := newRig(t)
	r.perm.answer = Allowed
	r.look.o.Capture = OpenSessionScreen(SessionOptions{Session: desktop.Session{Wayland: true}, Desktop: r.desk, Bus: addr})
	r.look.o.Private = func(title string) bool { return title == "Passwords - KeePassXC" }
	r.desk.SetWindows(desktop.Window{ID: 0x9, App: "org.keepassxc.KeePassXC", Title: "Passwords - KeePassXC", Frame: image.Rect(0, 0, 300, 200), Normal: true, PID: 9})
	r.desk.SetActive(0x9)
	if got := r.call(`{"at":"screen"}`).Text; got != ErrPrivateWindow {
		t.Fatalf("look screen = %q", got)
	}
	if _, err := r.look.Screenshot(context.Background(), -1); !errors.Is(err, ErrPrivate) {
		t.Fatalf("turn screenshot err = %v", err)
	}
	if calls, _ := p.Calls(); len(calls) != 0 {
		t.Fatalf("the portal was asked %d times", len(calls))
	}
	r.desk.SetActive(0)
	if got := r.call(`{"at":"screen"}`); len(got.Images) != 1 {
		t.Fatalf("no private window: %q", got.Text)
	}
}

// Another program on the bus answering in the portal's place is not
// heard: the file it names is neither read nor removed.
func TestPortalIgnoresAnotherSender(t *testing.T) {
	addr := dbustest.Start(t)
	p := dbustest.ServePortal(t, addr)
	victim := filepath.Join(t.TempDir(), "precious.png")
	if err := os.WriteFile(victim, []byte("not a screenshot"), 0o600); err != nil {
		t.Fatal(err)
	}
	spoofer := dbustest.Connect(t, addr)
	p.SetBefore(func(handle dbus.ObjectPath) {
		uri := (&url.URL{Scheme: "file", Path: victim}).String()
		_ = spoofer.Emit(handle, "org.freedesktop.portal.Request.Response", uint32(0),
			map[string]dbus.Variant{"uri": dbus.MakeVariant(uri)})
	})
	p.Set(0, screenOf(64, 48, magenta))
	img, err := Portal{Address: addr}.Capture(image.Rect(0, 0, 64, 48))
	if err != nil || img.RGBAAt(30, 30) != magenta {
		t.Fatalf("capture = %v", err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("the other sender's file: %v", err)
	}
}
