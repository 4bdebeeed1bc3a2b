package petwindow

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// Frames the body drops are handed to free, so the driver lets go of their
// textures and pixels at once rather than a minute after their last use
// (the 10,000-turn benchmark found a pet changing emotion on every turn
// holding hundreds of MB that way). Frames it keeps, and the one showing,
// are not freed.
func TestBodyFreesDroppedFrames(t *testing.T) {
	test.NewTempApp(t)
	c := newBody()
	freed := map[fyne.CanvasObject]int{}
	c.free = func(o fyne.CanvasObject) { freed[o]++ }
	frame := func() image.Image { return image.NewRGBA(image.Rect(0, 0, 4, 4)) }
	idle := []image.Image{frame(), frame()}
	happy := []image.Image{frame(), frame(), frame()}
	sad := []image.Image{frame(), frame(), frame()}

	for _, img := range append(append([]image.Image{}, idle...), happy...) {
		c.show(img)
	}
	showing := c.images[happy[2]]
	kept := map[fyne.CanvasObject]bool{showing: true}
	for _, img := range idle {
		kept[c.images[img]] = true
	}
	var happyImgs []fyne.CanvasObject
	for _, img := range happy[:2] {
		happyImgs = append(happyImgs, c.images[img])
	}
	// The emotion changes: the happy frames go, but the one showing.
	c.keep(sad, idle)
	for _, o := range happyImgs {
		if freed[o] != 1 {
			t.Errorf("a dropped frame was freed %d times, want once", freed[o])
		}
		if o.(*canvas.Image).Image != nil {
			t.Error("a dropped frame still holds its pixels")
		}
	}
	for o := range kept {
		if freed[o] != 0 || o.(*canvas.Image).Image == nil {
			t.Error("a frame kept (idle, or the one showing) was freed")
		}
	}
	if len(c.images) != 3 || len(c.order) != 3 {
		t.Fatalf("the body holds %d images (%d objects), want the idle pair and the frame showing", len(c.images), len(c.order))
	}

	// Many emotion changes later the body still holds only what it needs,
	// and everything else went to free.
	for i := range 100 {
		set := []image.Image{frame(), frame()}
		for _, img := range set {
			c.show(img)
		}
		c.keep(set, idle)
		if len(c.images) > 4 {
			t.Fatalf("change %d: the body holds %d images", i, len(c.images))
		}
	}
	if n := len(freed); n < 200 {
		t.Errorf("%d frames freed over 100 changes of two frames each", n)
	}
	c.reset()
	if len(c.images) != 0 || len(c.order) != 0 {
		t.Fatalf("reset left %d images", len(c.images))
	}
}
