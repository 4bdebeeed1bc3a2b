package petwindow

import (
	"image"
	"image/color"
	"image/draw"
	"slices"
	"testing"
)

func TestMaskRectsCoversOpaquePixels(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 40))
	// A 2x image: an opaque 20x20 square at (10,10), a faint halo around it.
	for y := 8; y < 32; y++ {
		for x := 8; x < 32; x++ {
			a := uint8(40)
			if x >= 10 && x < 30 && y >= 10 && y < 30 {
				a = 255
			}
			img.SetNRGBA(x, y, color.NRGBA{200, 100, 100, a})
		}
	}
	rs := maskRects(img, 20, 20)
	if len(rs) != 1 || rs[0] != image.Rect(5, 5, 15, 15) {
		t.Fatalf("maskRects = %v, want one rect (5,5)-(15,15)", rs)
	}
}

func TestMaskRectsMergesRows(t *testing.T) {
	img := image.NewAlpha(image.Rect(0, 0, 10, 10))
	for y := 0; y < 10; y++ {
		for x := 0; x < 10; x++ {
			if (x-5)*(x-5)+(y-5)*(y-5) < 16 {
				img.SetAlpha(x, y, color.Alpha{255})
			}
		}
	}
	rs := maskRects(img, 10, 10)
	area := 0
	for _, r := range rs {
		area += r.Dx() * r.Dy()
	}
	want := 0
	for y := 0; y < 10; y++ {
		for x := 0; x < 10; x++ {
			if img.AlphaAt(x, y).A > 0 {
				want++
			}
		}
	}
	if area != want {
		t.Fatalf("area %d, want %d", area, want)
	}
	if len(rs) >= want/2 {
		t.Fatalf("%d rects: rows not merged", len(rs))
	}
}

func TestRoundedRectsInside(t *testing.T) {
	r := image.Rect(10, 10, 110, 40)
	rs := roundedRects(r, 8)
	for _, x := range rs {
		if !x.In(r) {
			t.Fatalf("%v outside %v", x, r)
		}
	}
	if rs[0].Min.X <= r.Min.X || rs[len(rs)-1].Min.X <= r.Min.X {
		t.Fatalf("corners not rounded: %v", rs)
	}
}

// A breathing pet works its shape out a few times a second: appended to
// a buffer with room, the rounded parts cost no allocation.
func TestAppendRoundedReusesItsBuffer(t *testing.T) {
	pill, tag := image.Rect(10, 10, 110, 40), image.Rect(0, 50, 80, 70)
	buf := make([]image.Rectangle, 0, 64)
	got := appendRounded(appendRounded(buf, pill, 8), tag, 10)
	if want := append(roundedRects(pill, 8), roundedRects(tag, 10)...); !slices.Equal(got, want) {
		t.Fatalf("appended %v, want %v", got, want)
	}
	if n := testing.AllocsPerRun(100, func() {
		buf = appendRounded(appendRounded(buf[:0], pill, 8), tag, 10)
	}); n != 0 {
		t.Errorf("%v allocations a shape, want none", n)
	}
	if got := appendRounded(buf[:1], image.Rectangle{}, 8); len(got) != 1 {
		t.Errorf("an empty rectangle appended %v", got[1:])
	}
}

func TestPlaceOnScreen(t *testing.T) {
	mons := []image.Rectangle{image.Rect(0, 0, 1280, 800)}
	body := image.Rect(84, 150, 276, 406)
	win := image.Pt(360, 526)
	if got := placeOnScreen(image.Pt(100, 100), body, win, mons); got != image.Pt(100, 100) {
		t.Errorf("on-screen position moved: %v", got)
	}
	if got := placeOnScreen(image.Pt(1100, 100), body, win, mons); got != image.Pt(1280-276, 100) {
		t.Errorf("partly off-screen: %v", got)
	}
	// A monitor that went away: home.
	if got := placeOnScreen(image.Pt(3000, 100), body, win, mons); got != homePosition(mons, win) {
		t.Errorf("removed monitor: %v, want home %v", got, homePosition(mons, win))
	}
	if k := layoutKey([]image.Rectangle{image.Rect(0, 0, 1920, 1080), image.Rect(1920, 0, 3200, 1024)}); k != "1920x1080+0+0,1280x1024+1920+0" {
		t.Errorf("layoutKey = %q", k)
	}
}

// TestAlphaOfMatchesDraw holds the byte copy to what image/draw gives, for
// each image type it copies from and for sub-images not at the origin.
func TestAlphaOfMatchesDraw(t *testing.T) {
	nrgba := image.NewNRGBA(image.Rect(0, 0, 9, 7))
	rgba := image.NewRGBA(image.Rect(0, 0, 9, 7))
	gray := image.NewGray(image.Rect(0, 0, 9, 7))
	for y := range 7 {
		for x := range 9 {
			a := uint8(x*29 + y*13)
			nrgba.SetNRGBA(x, y, color.NRGBA{uint8(x), 50, 200, a})
			rgba.SetRGBA(x, y, color.RGBA{a / 2, 0, a, a})
			gray.SetGray(x, y, color.Gray{a})
		}
	}
	for _, tc := range []struct {
		name string
		img  image.Image
	}{
		{"nrgba", nrgba},
		{"rgba", rgba},
		{"gray (through image/draw)", gray},
		{"nrgba sub-image", nrgba.SubImage(image.Rect(2, 3, 8, 6))},
		{"rgba sub-image", rgba.SubImage(image.Rect(1, 1, 4, 7))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.img.Bounds()
			want := image.NewAlpha(image.Rect(0, 0, b.Dx(), b.Dy()))
			draw.Draw(want, want.Bounds(), tc.img, b.Min, draw.Src)
			got := alphaOf(tc.img)
			if got.Rect != want.Rect || !slices.Equal(got.Pix, want.Pix) {
				t.Fatalf("alphaOf = %v %v, want %v %v", got.Rect, got.Pix, want.Rect, want.Pix)
			}
		})
	}
}
