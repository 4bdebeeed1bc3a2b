package character

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// modelManifest is validManifest grown as a pack made from a model is:
// a talk loop for happy and the model's meta with a thumbnail.
func modelManifest() map[string]any {
	m := validManifest()
	m["motions"].(map[string]any)["talk_happy"] = map[string]any{"frames": []any{"img/b.png", "a.png"}, "fps": 8, "loop": true}
	m["talk_by_emotion"] = map[string]any{"happy": "talk_happy", "neutral": "talk", "angry": "talk"}
	m["emotions"].(map[string]any)["angry"] = "a.png"
	m["meta"] = map[string]any{"title": " Avatar ", "author": "Someone", "license": "CC0", "allowed_user": AllowEveryone, "redistribution": true, "thumbnail": "thumb.png"}
	m["source"] = "vrm"
	return m
}

func TestLoadTalkByEmotionAndMeta(t *testing.T) {
	fsys := packFS(t, modelManifest())
	fsys["thumb.png"] = &fstest.MapFile{Data: pngBytes(t, 20, 10)}
	p, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if p.TalkByEmotion["happy"] != "talk_happy" || p.Meta == nil || p.Meta.Title != "Avatar" || !p.Meta.Redistribution {
		t.Fatalf("talk_by_emotion %v meta %+v", p.TalkByEmotion, p.Meta)
	}
	// The per-emotion loop plays as talk, so the mouth follows the audio.
	set := p.Frames("talk", "happy")
	if set.Motion != "talk" || len(set.Frames) != 2 || set.Frames[0] != p.Motions["talk_happy"].Frames[0] {
		t.Errorf("Frames(talk, happy) = %s with %d frames", set.Motion, len(set.Frames))
	}
	if set := p.Frames("talk", ""); set.Frames[0] != p.Motions["talk"].Frames[0] {
		t.Error("neutral talk does not play talk")
	}
	// An emotion mapped to the plain loop talks rather than stands still.
	if set := p.Frames("talk", "angry"); set.Motion != "talk" || set.Frames[0] != p.Motions["talk"].Frames[0] {
		t.Errorf("Frames(talk, angry) = %q with %d frames", set.Motion, len(set.Frames))
	}
	// A mirrored pack talks with its mirrored loop.
	if got := p.Turned(true).Frames("talk", "happy"); len(got.Frames) != 2 {
		t.Errorf("turned: %d frames", len(got.Frames))
	}
	if v := p.Vocabulary(); slices.Contains(v.MotionIDs, "talk_happy") || !slices.Contains(v.MotionIDs, "talk") {
		t.Errorf("vocabulary motions %v: the talk loops are not cue motions", v.MotionIDs)
	}
	img, err := ReadThumbnail(fsys, p)
	if err != nil || img.Bounds().Dx() != 20 {
		t.Fatalf("thumbnail %v, %v", img, err)
	}
	if o := p.Outline(); o.TalkMotion("happy") != "talk_happy" {
		t.Error("the outline lost the talk loops")
	}
}

func TestLoadMetaRefusals(t *testing.T) {
	tests := []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"talk loop for an unknown emotion", func(m map[string]any) {
			m["talk_by_emotion"] = map[string]any{"furious": "talk"}
		}, `names emotion "furious"`},
		{"talk loop that is no motion", func(m map[string]any) {
			m["talk_by_emotion"] = map[string]any{"happy": "nope"}
		}, `names motion "nope"`},
		{"thumbnail outside the pack", func(m map[string]any) {
			m["meta"].(map[string]any)["thumbnail"] = "../x.png"
		}, "thumbnail"},
		{"meta text too long", func(m map[string]any) {
			m["meta"].(map[string]any)["author"] = strings.Repeat("a", MaxMetaLen+1)
		}, `"author"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := modelManifest()
			tt.edit(m)
			_, err := Load(packFS(t, m))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func TestReadThumbnailNone(t *testing.T) {
	p, err := Load(packFS(t, validManifest()))
	if err != nil {
		t.Fatal(err)
	}
	if img, err := ReadThumbnail(packFS(t, validManifest()), p); img != nil || err != nil {
		t.Fatalf("%v %v", img, err)
	}
}
