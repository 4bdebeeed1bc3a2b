package petwindow

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// packedFrame returns a 4x4 packed frame of one colour, as ScaledPack
// makes them.
func packedFrame(t *testing.T, c color.Color) *packedImage {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return &packedImage{data: buf.Bytes(), rect: img.Rect, crop: img.Rect}
}

// The body draws one canvas image, whatever it shows: each pet window has
// its own GL context, and a texture per frame per window cost a pet about
// a megabyte. A frame change swaps that image's pixels.
func TestBodyDrawsOneImage(t *testing.T) {
	test.NewTempApp(t)
	c := newBody(nil)
	c.Resize(fyne.NewSize(8, 8))
	r := test.TempWidgetRenderer(t, c)
	a, b := packedFrame(t, color.White), packedFrame(t, color.Black)
	if !c.show(a) || !c.show(b) {
		t.Fatal("show reported no change for a new frame")
	}
	if c.show(b) {
		t.Error("show reported a change for the frame showing")
	}
	objs := r.Objects()
	if len(objs) != 1 {
		t.Fatalf("the body draws %d objects, want 1", len(objs))
	}
	pic := objs[0].(*canvas.Image)
	if pic.Hidden || pic.Image != b.shared {
		t.Error("the body's image does not show the frame's pixels")
	}
	if pic.ScaleMode != canvas.ImageScalePixels {
		t.Error("a packed frame is scaled by the driver")
	}
}

// Pets of one character share its decoded frames: two bodies showing the
// same packed frame hold one copy of its pixels, and the pixels go when
// the last body lets the frame go.
func TestBodiesShareDecodedFrames(t *testing.T) {
	test.NewTempApp(t)
	one, two := newBody(nil), newBody(nil)
	idle := []image.Image{packedFrame(t, color.White), packedFrame(t, color.Gray{Y: 128})}
	happy := packedFrame(t, color.RGBA{R: 255, A: 255})
	for _, c := range []*body{one, two} {
		for _, img := range idle {
			c.show(img)
		}
		c.show(happy)
	}
	if one.held[happy] != two.held[happy] || one.held[happy] == nil {
		t.Fatal("two bodies showing one frame hold two copies of its pixels")
	}
	if happy.users != 2 {
		t.Fatalf("the frame has %d users, want 2", happy.users)
	}
	// One pet goes back to idle and lets the happy frame go; the other
	// still shows it.
	one.show(idle[0])
	one.keep(idle)
	if _, ok := one.held[happy]; ok || happy.shared == nil || happy.users != 1 {
		t.Fatalf("after one body let go: held %v, users %d", ok, happy.users)
	}
	two.show(idle[0])
	two.keep(idle)
	if happy.shared != nil || happy.users != 0 {
		t.Errorf("no body holds the frame, yet its pixels are kept (users %d)", happy.users)
	}
	for _, img := range idle {
		if p := img.(*packedImage); p.shared == nil || p.users != 2 {
			t.Errorf("an idle frame kept by both bodies has %d users", p.users)
		}
	}
	// Many emotion changes later each body holds only what it needs.
	for i := range 100 {
		set := []image.Image{packedFrame(t, color.RGBA{G: uint8(i), A: 255}), packedFrame(t, color.RGBA{B: uint8(i), A: 255})}
		for _, img := range set {
			one.show(img)
		}
		one.keep(set, idle)
		if len(one.held) > 4 {
			t.Fatalf("change %d: the body holds %d frames", i, len(one.held))
		}
	}
	// A closed pet (Dispose) lets go of all it held; the pet still
	// running keeps the frames it shares.
	one.letGoAll()
	if len(one.held) != 0 {
		t.Fatalf("a closed body holds %d frames", len(one.held))
	}
	for _, img := range idle {
		if p := img.(*packedImage); p.shared == nil || p.users != 1 {
			t.Errorf("after one body closed, an idle frame the other holds has %d users", p.users)
		}
	}
	one.reset()
	two.reset()
	if len(one.held) != 0 || len(two.held) != 0 {
		t.Fatal("reset left frames held")
	}
	for _, img := range idle {
		if p := img.(*packedImage); p.shared != nil || p.users != 0 {
			t.Errorf("after both resets an idle frame has %d users", p.users)
		}
	}
}
