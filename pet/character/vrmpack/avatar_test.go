package vrmpack

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"yui/pet/character"
	"yui/pet/character/vrm/vrmtest"
)

// avatarPack is the generated avatar imported once for the tests that
// look at its pictures.
var avatarPack = sync.OnceValues(func() (*character.Pack, error) {
	dir, err := os.MkdirTemp("", "vrmpack-avatar-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "avatar.vrm")
	if err := os.WriteFile(file, vrmtest.Avatar(vrmtest.Options{}), 0o600); err != nil {
		return nil, err
	}
	return importAt(file, filepath.Join(dir, "characters"))
})

func avatar(t *testing.T) *character.Pack {
	t.Helper()
	p, err := avatarPack()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// headOf is the region of the head in a standing picture: the top sixth
// of the figure.
func headOf(p *character.Pack) image.Rectangle {
	box := opaqueBox(p.Emotions["neutral"])
	return image.Rect(box.Min.X, box.Min.Y, box.Max.X, box.Min.Y+box.Dy()/6)
}

func TestAvatarFillsTheFrame(t *testing.T) {
	p := avatar(t)
	box := opaqueBox(p.Emotions["neutral"])
	if h := p.ImageSize.Y; box.Dy()*100 < 60*h {
		t.Errorf("the figure is %d of %d pixels tall, want 60%% or more", box.Dy(), h)
	}
	// The feet stand on the ground line, and the figure is in the middle.
	if feet := p.Feet.Y * 2; box.Max.Y < feet-4 || box.Max.Y > feet+6 {
		t.Errorf("the figure ends at %d, the feet line is at %d", box.Max.Y, feet)
	}
	if mid := (box.Min.X + box.Max.X) / 2; mid < p.ImageSize.X*2/5 || mid > p.ImageSize.X*3/5 {
		t.Errorf("the figure's middle is at x %d of %d", mid, p.ImageSize.X)
	}
}

func TestAvatarColours(t *testing.T) {
	img := avatar(t).Emotions["neutral"]
	for name, c := range map[string]color.NRGBA{
		"dress blue": {120, 140, 220, 255},
		"hair brown": {137, 97, 80, 255},
		"skin":       {250, 225, 210, 255},
	} {
		if !hasColour(img, c, 45, 15) {
			t.Errorf("no %s in the picture", name)
		}
	}
}

func TestAvatarEmotionsDifferInTheFace(t *testing.T) {
	p := avatar(t)
	head := headOf(p)
	for _, e := range []string{"happy", "angry", "sad", "relaxed", "surprised"} {
		if n := changed(p.Emotions["neutral"], p.Emotions[e], head); n < 8 {
			t.Errorf("%s differs from neutral in %d pixels of the face", e, n)
		}
	}
	if len(p.Emotions) <= 6 {
		t.Errorf("the model's own expressions are not emotions: %d emotions", len(p.Emotions))
	}
}

func TestAvatarTalksInEveryEmotion(t *testing.T) {
	p := avatar(t)
	head := headOf(p)
	for e := range p.Emotions {
		set := p.Frames("talk", e)
		if set.Motion != "talk" || len(set.Frames) < 4 {
			t.Errorf("%s: talk plays %q with %d frames", e, set.Motion, len(set.Frames))
			continue
		}
		closed, most := set.Frames[0], 0
		for _, f := range set.Frames[1:] {
			most = max(most, changed(closed, f, head))
		}
		if most < 6 {
			t.Errorf("%s: the mouth does not move (%d pixels)", e, most)
		}
		if e != "neutral" && changed(closed, p.Emotions[e], head) > 0 {
			t.Errorf("%s: the talk loop's closed mouth is not the emotion's face", e)
		}
	}
}

func TestAvatarIdleBreathesOrBlinks(t *testing.T) {
	idle := avatar(t).Motions["idle"].Frames
	full := idle[0].Bounds()
	moved := false
	for _, f := range idle[1:] {
		if diff(idle[0], f, full) > 0.02 {
			moved = true
		}
	}
	if len(idle) < 4 || !moved {
		t.Errorf("idle: %d frames, moving %v", len(idle), moved)
	}
}

func TestAvatarWalkMovesTheLegs(t *testing.T) {
	p := avatar(t)
	walk := p.Motions["walk"].Frames
	box := opaqueBox(p.Emotions["neutral"])
	legs := image.Rect(0, box.Min.Y+box.Dy()/2, p.ImageSize.X, box.Max.Y)
	if len(walk) < 8 {
		t.Fatalf("walk has %d frames", len(walk))
	}
	if d := diff(walk[0], walk[len(walk)/2], legs); d < 1 {
		t.Errorf("the legs barely move in the walk (%.2f)", d)
	}
	if p.Faces == character.FacingFront {
		t.Error("the walk does not say the side it faces")
	}
}

func TestAvatarSitsShorter(t *testing.T) {
	p := avatar(t)
	stand := opaqueBox(p.Emotions["neutral"]).Dy()
	for _, m := range []string{"sit", character.MotionSitEdge} {
		if sit := opaqueBox(p.Motions[m].Frames[0]); sit.Dy() >= stand*9/10 {
			t.Errorf("%s is %d pixels tall, the stand %d", m, sit.Dy(), stand)
		}
	}
	// Legs over the edge hang below the feet line.
	if edge := opaqueBox(p.Motions[character.MotionSitEdge].Frames[0]); edge.Max.Y <= p.Feet.Y*2+4 {
		t.Errorf("sit_edge ends at %d, above the feet line %d", edge.Max.Y, p.Feet.Y*2)
	}
}

func TestAvatarGaze(t *testing.T) {
	p := avatar(t)
	head := headOf(p)
	l, r := p.Gaze[character.GazeLeft], p.Gaze[character.GazeRight]
	if l == nil || r == nil {
		t.Fatal("no gaze pictures")
	}
	if n := changed(l, r, head); n < 4 {
		t.Errorf("gaze left and right differ in %d pixels", n)
	}
}

func TestAvatarGolden(t *testing.T) { checkGolden(t, "avatar", avatar(t)) }

func TestAvatarMotions(t *testing.T) {
	p := avatar(t)
	for _, m := range []string{"idle", "thinking", "talk", "walk", "sit", "fall", "sit_edge", "land", "drag"} {
		if !p.Has(m) {
			t.Errorf("no %s", m)
		}
	}
	if p.Meta == nil || p.Meta.Thumbnail == "" || p.Meta.AllowedUser == "" {
		t.Errorf("meta %+v", p.Meta)
	}
}

// The same avatar written as VRM 0.x (facing -Z, blend shape groups,
// MToon's material properties) imports into the same-looking pack: the
// figure faces the camera, in its colours, with faces that differ.
func TestAvatarVRM0(t *testing.T) {
	file := filepath.Join(t.TempDir(), "avatar0.vrm")
	if err := os.WriteFile(file, vrmtest.Avatar(vrmtest.Options{VRM0: true}), 0o600); err != nil {
		t.Fatal(err)
	}
	p := importFile(t, file)
	q := avatar(t)
	box, want := opaqueBox(p.Emotions["neutral"]), opaqueBox(q.Emotions["neutral"])
	if d := box.Dy() - want.Dy(); d < -4 || d > 4 {
		t.Errorf("the 0.x figure is %v, the 1.0 one %v", box, want)
	}
	if !hasColour(p.Emotions["neutral"], color.NRGBA{120, 140, 220, 255}, 45, 15) {
		t.Error("no dress blue in the 0.x picture")
	}
	head := headOf(p)
	for _, e := range []string{"happy", "angry", "sad", "surprised"} {
		if n := changed(p.Emotions["neutral"], p.Emotions[e], head); n < 8 {
			t.Errorf("0.x %s differs from neutral in %d pixels of the face", e, n)
		}
	}
	// Facing the camera: the face's pixels (eyes) are where the 1.0
	// avatar's are, not the back of the head.
	if d := diff(p.Emotions["neutral"], q.Emotions["neutral"], headOf(q)); d > 6 {
		t.Errorf("the 0.x head differs from the 1.0 head by %.1f: turned away?", d)
	}
}
