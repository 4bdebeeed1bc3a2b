//go:build (linux || freebsd || openbsd || netbsd) && !android

package look

import (
	"image"
	"testing"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/tools/internal/xvfbtest"
)

func TestScreenCaptureUnderXvfb(t *testing.T) {
	xvfbtest.Start(t, "1024x768x24")
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := xproto.Setup(conn).DefaultScreen(conn)
	id, _ := xproto.NewWindowId(conn)
	if err := xproto.CreateWindowChecked(conn, s.RootDepth, id, s.Root, 100, 200, 300, 100, 0,
		xproto.WindowClassInputOutput, s.RootVisual, xproto.CwBackPixel, []uint32{0xff0000}).Check(); err != nil {
		t.Fatal(err)
	}
	xproto.MapWindow(conn, id)
	xproto.GetInputFocus(conn).Reply() // a round trip: the map is done

	// The server paints a window's background when it maps it, before it
	// answers the round trip above.
	img, err := (Screen{}).Capture(image.Rect(0, 0, 1024, 768))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Size() != image.Pt(1024, 768) {
		t.Fatalf("captured %v", img.Bounds())
	}
	if r, g, b, _ := img.At(250, 250).RGBA(); r>>8 != 0xff || g != 0 || b != 0 {
		t.Fatalf("pixel inside the red window is %x,%x,%x", r>>8, g>>8, b>>8)
	}
	part, err := (Screen{}).Capture(image.Rect(100, 200, 400, 300))
	if err != nil || part.Bounds().Size() != image.Pt(300, 100) {
		t.Fatalf("part %v %v", part.Bounds(), err)
	}
	if r, _, _, _ := part.At(0, 0).RGBA(); r>>8 != 0xff {
		t.Fatal("the part does not start at the window's corner")
	}
}
