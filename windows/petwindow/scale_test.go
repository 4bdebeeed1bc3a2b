package petwindow

import (
	"image"
	"image/color"
	"slices"
	"testing"

	"yui/pet"
	"yui/pet/character"
	"yui/transport"
	"yui/windows/widgets"
)

// blob is a w×h image, transparent but for an opaque square at r.
func blob(w, h int, r image.Rectangle, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func TestScaledPackPacksCropsAndDedupes(t *testing.T) {
	red := color.NRGBA{0xff, 0, 0, 0xff}
	a := blob(40, 60, image.Rect(10, 20, 30, 50), red)
	same := blob(40, 60, image.Rect(10, 20, 30, 50), red) // another image, same pixels
	b := blob(40, 60, image.Rect(0, 0, 20, 20), color.NRGBA{0, 0, 0xff, 0xff})
	p := &character.Pack{
		Size:     [2]int{20, 30},
		Emotions: map[string]image.Image{"neutral": a, "happy": b},
		Motions:  map[string]character.Motion{"talk": {Frames: []image.Image{same, b}, FPS: 2, Loop: true}},
	}
	q := ScaledPack(p, 20, 30)
	na, ok := q.Emotions["neutral"].(*packedImage)
	if !ok {
		t.Fatalf("neutral is %T, want *packedImage", q.Emotions["neutral"])
	}
	if q.Motions["talk"].Frames[0] != q.Emotions["neutral"] {
		t.Error("pixel-identical images are not stored once")
	}
	if q.Motions["talk"].Frames[1] != q.Emotions["happy"] {
		t.Error("the same image is not stored once")
	}
	if na.Bounds() != image.Rect(0, 0, 20, 30) {
		t.Errorf("bounds %v, want 20x30", na.Bounds())
	}
	if want := image.Rect(5, 10, 15, 25); na.crop != want {
		t.Errorf("crop %v, want %v", na.crop, want)
	}
	if !slices.Equal(na.mask, maskRects(na.decode(), 20, 30)) {
		t.Errorf("mask %v differs from the decoded image's", na.mask)
	}
	if _, _, _, al := na.At(2, 2).RGBA(); al != 0 {
		t.Error("a pixel outside the drawing is not transparent")
	}
	if r, _, _, al := na.At(10, 15).RGBA(); r>>8 != 0xff || al>>8 != 0xff {
		t.Errorf("a pixel of the drawing is %v", na.At(10, 15))
	}
	crop := na.decodeCrop(widgets.ColBackdrop)
	if crop.Bounds() != image.Rect(0, 0, 10, 15) {
		t.Errorf("decodeCrop bounds %v", crop.Bounds())
	}
	if got := crop.RGBAAt(5, 7); got.A != 0xff || got.R != 0xff || got.G != 0 {
		t.Errorf("decodeCrop pixel %v, want opaque red", got)
	}
	if p.Emotions["neutral"] != a {
		t.Error("ScaledPack changed its argument")
	}
}

// The scaled copy answers Frames as its original does, with its own images.
func TestScaledPackFrames(t *testing.T) {
	img := func(x int) *image.NRGBA { return blob(40, 60, image.Rect(x, 0, x+4, 4), color.NRGBA{0, 0, 0, 0xff}) }
	p := &character.Pack{
		Size:     [2]int{20, 30},
		Emotions: map[string]image.Image{"neutral": img(0), "happy": img(8)},
		Motions: map[string]character.Motion{
			"idle": {Frames: []image.Image{img(16), img(24)}, FPS: 2, Loop: true},
			"talk": {Frames: []image.Image{img(32)}, FPS: 8},
		},
	}
	q := ScaledPack(p, 20, 30)
	for _, c := range []struct{ motion, emotion string }{
		{"idle", ""}, {"idle", "happy"}, {"talk", "neutral"}, {"talk", "happy"}, {"walk", "furious"},
	} {
		want, got := p.Frames(c.motion, c.emotion), q.Frames(c.motion, c.emotion)
		if len(got.Frames) != len(want.Frames) || got.FPS != want.FPS || got.Loop != want.Loop {
			t.Errorf("Frames(%q, %q): scaled %d frames at %v fps, original %d at %v",
				c.motion, c.emotion, len(got.Frames), got.FPS, len(want.Frames), want.FPS)
			continue
		}
		for i, f := range got.Frames {
			if _, ok := f.(*packedImage); !ok {
				t.Errorf("Frames(%q, %q) frame %d is %T, want the scaled *packedImage", c.motion, c.emotion, i, f)
			}
			if f.Bounds() != image.Rect(0, 0, 20, 30) {
				t.Errorf("Frames(%q, %q) frame %d is %v", c.motion, c.emotion, i, f.Bounds())
			}
		}
	}
}

func TestPillTextOnly(t *testing.T) {
	cur := pet.View{Motion: "idle", Pill: pet.Pill{Conn: "reconnecting in 3 s", ConnState: transport.StateReconnecting}}
	next := cur
	next.Pill.Conn = "reconnecting in 2 s"
	if !pillTextOnly(cur, next) {
		t.Error("a countdown tick is not a pill-text-only change")
	}
	for _, f := range []func(v *pet.View){
		func(v *pet.View) { v.Pill.ConnState = transport.StateConnecting },
		func(v *pet.View) { v.Bubble = "hi" },
		func(v *pet.View) { v.Pill.Tool = "read_file running" },
		func(v *pet.View) { v.Running = true },
	} {
		n := next
		f(&n)
		if pillTextOnly(cur, n) {
			t.Errorf("%+v counted as a pill-text-only change", n)
		}
	}
	if pillTextOnly(cur, cur) {
		t.Error("no change counted as a pill-text-only change")
	}
}
