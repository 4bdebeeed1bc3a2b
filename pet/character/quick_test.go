package character

import (
	"image"
	"slices"
	"testing"
	"testing/fstest"

	"yui/assets"
)

// The quick load's first pack draws its idle motion's first frame and its
// neutral face from their own images and stands the idle motion's first
// frame in for the rest; Rest is Load's pack, image for image.
func TestLoadQuickFirstThenRest(t *testing.T) {
	q, err := LoadQuick(assets.DefaultCharacter())
	if err != nil {
		t.Fatal(err)
	}
	full, err := Load(assets.DefaultCharacter())
	if err != nil {
		t.Fatal(err)
	}
	first := q.First
	if first.ID != full.ID || first.Size != full.Size || first.ImageSize != full.ImageSize || first.Name != full.Name {
		t.Fatalf("first pack %s %v %v, full %s %v %v", first.ID, first.Size, first.ImageSize, full.ID, full.Size, full.ImageSize)
	}
	stand := first.Motions["idle"].Frames[0]
	if !samePixels(stand, full.Motions["idle"].Frames[0]) {
		t.Error("the idle motion's first frame is not the pack's")
	}
	if !samePixels(first.Emotions["neutral"], full.Emotions["neutral"]) {
		t.Error("the neutral face is not the pack's")
	}
	stood := 0
	for id, mo := range first.Motions {
		if len(mo.Frames) != len(full.Motions[id].Frames) {
			t.Fatalf("motion %s has %d frames, the pack %d", id, len(mo.Frames), len(full.Motions[id].Frames))
		}
		for i, f := range mo.Frames {
			if (id != "idle" || i > 0) && f == stand {
				stood++
			}
		}
	}
	if stood == 0 {
		t.Error("no frame stands in: the first pack decoded everything")
	}
	if len(first.Gaze) != len(full.Gaze) || (first.Mirror == nil) != (full.Mirror == nil) {
		t.Errorf("first pack gaze %d mirror %v, full %d %v", len(first.Gaze), first.Mirror != nil, len(full.Gaze), full.Mirror != nil)
	}

	rest, err := q.Rest()
	if err != nil {
		t.Fatal(err)
	}
	for id, mo := range full.Motions {
		for i, f := range mo.Frames {
			if !samePixels(rest.Motions[id].Frames[i], f) {
				t.Errorf("rest: motion %s frame %d differs from Load's", id, i)
			}
			if full.Mirror != nil && !samePixels(rest.Mirror.Motions[id].Frames[i], full.Mirror.Motions[id].Frames[i]) {
				t.Errorf("rest: mirrored motion %s frame %d differs from Load's", id, i)
			}
		}
	}
	for id, img := range full.Emotions {
		if !samePixels(rest.Emotions[id], img) {
			t.Errorf("rest: emotion %s differs from Load's", id)
		}
	}
	for id, img := range full.Gaze {
		if !samePixels(rest.Gaze[id], img) {
			t.Errorf("rest: gaze %s differs from Load's", id)
		}
	}
	if again, _ := q.Rest(); again != rest {
		t.Error("a second Rest decoded again")
	}
	if first.Motions["talk"].Frames[0] == rest.Motions["talk"].Frames[0] {
		t.Error("the first pack's stand-in leaked into the rest")
	}
}

// An image whose data breaks past a valid header, outside the first
// frame, is found by Rest, with Load's error.
func TestLoadQuickCorruptRest(t *testing.T) {
	m := validManifest()
	m["emotions"].(map[string]any)["happy"] = "c.png"
	fsys := packFS(t, m)
	b := pngBytes(t, 8, 8)
	fsys["c.png"] = &fstest.MapFile{Data: b[:len(b)/2]}
	_, lerr := Load(fsys)
	if lerr == nil {
		t.Fatal("Load took a corrupt image")
	}
	q, err := LoadQuick(fsys)
	if err != nil {
		t.Fatalf("LoadQuick: %v (the corrupt image is not in the first frame)", err)
	}
	if q.First.Emotions["happy"] != q.First.Motions["idle"].Frames[0] {
		t.Error("the corrupt image's place does not show the stand-in")
	}
	if _, err := q.Rest(); err == nil || err.Error() != lerr.Error() {
		t.Fatalf("Rest error %v, Load's %q", err, lerr)
	}
}

// SelectQuick keeps Select's rule: same pack, same reason.
func TestSelectQuickAgreesWithSelect(t *testing.T) {
	cfg := t.TempDir()
	writePack(t, Dir(cfg, "mochi"), validManifest())
	writePack(t, Dir(cfg, "other"), validManifest()) // says its id is mochi
	for _, id := range []string{"", "yui", "mochi", "missing", "other", "../x", "mint"} {
		p, err := Select(cfg, id)
		q, qerr := SelectQuick(cfg, id)
		if q == nil || q.First.ID != p.ID {
			t.Fatalf("SelectQuick(%q) = %v, Select %s", id, q, p.ID)
		}
		if (err == nil) != (qerr == nil) || (err != nil && err.Error() != qerr.Error()) {
			t.Errorf("SelectQuick(%q) error %v, Select's %v", id, qerr, err)
		}
	}
	if slices.Contains(BuiltinIDs(), "mint") {
		if q, _ := SelectQuick("", "mint"); q.First.ID != "mint" {
			t.Errorf("built-in mint: got %s", q.First.ID)
		}
	}
}

func samePixels(a, b image.Image) bool {
	x, ok1 := a.(*image.NRGBA)
	y, ok2 := b.(*image.NRGBA)
	return ok1 && ok2 && x.Rect == y.Rect && string(x.Pix) == string(y.Pix)
}

func BenchmarkLoadQuickDefault(b *testing.B) {
	for b.Loop() {
		if _, err := LoadQuick(assets.DefaultCharacter()); err != nil {
			b.Fatal(err)
		}
	}
}
