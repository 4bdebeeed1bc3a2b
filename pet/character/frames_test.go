package character

import (
	"image"
	"slices"
	"testing"
)

// still is a distinct 1x1 image, told apart by identity.
func still() image.Image { return image.NewNRGBA(image.Rect(0, 0, 1, 1)) }

func TestFrames(t *testing.T) {
	neutral, happy := still(), still()
	idle1, idle2, talk1, talk2, think := still(), still(), still(), still(), still()
	full := &Pack{
		Emotions: map[string]image.Image{"neutral": neutral, "happy": happy},
		Motions: map[string]Motion{
			"idle":     {Frames: []image.Image{idle1, idle2}, FPS: 2, Loop: true},
			"talk":     {Frames: []image.Image{talk1, talk2}, FPS: 8, Loop: true},
			"thinking": {Frames: []image.Image{think}, FPS: 1},
			"empty":    {FPS: 5, Loop: true},
		},
	}
	idleSet := FrameSet{Frames: []image.Image{idle1, idle2}, FPS: 2, Loop: true}
	talkSet := FrameSet{Frames: []image.Image{talk1, talk2}, FPS: 8, Loop: true}
	stillOf := func(img image.Image) FrameSet { return FrameSet{Frames: []image.Image{img}} }

	noIdle := &Pack{
		Emotions: map[string]image.Image{"neutral": neutral, "happy": happy},
		Motions:  map[string]Motion{"talk": full.Motions["talk"], "idle": {FPS: 2}},
	}
	noNeutral := &Pack{
		Emotions: map[string]image.Image{"happy": happy},
		Motions:  map[string]Motion{"idle": full.Motions["idle"]},
	}
	nothing := &Pack{Emotions: map[string]image.Image{}, Motions: map[string]Motion{}}

	tests := []struct {
		name            string
		pack            *Pack
		motion, emotion string
		want            FrameSet
	}{
		{"idle and neutral play idle", full, "idle", "neutral", idleSet},
		{"no emotion is neutral", full, "idle", "", idleSet},
		{"no motion is idle", full, "", "", idleSet},
		{"idle with a feeling shows the feeling", full, "idle", "happy", stillOf(happy)},
		{"idle with an unknown emotion shows neutral", full, "idle", "furious", stillOf(neutral)},
		{"talk plays its frames", full, "talk", "neutral", talkSet},
		{"talk with a feeling shows the feeling", full, "talk", "happy", stillOf(happy)},
		{"talk with an unknown emotion plays talk", full, "talk", "furious", talkSet},
		{"another motion plays over a feeling", full, "thinking", "happy", FrameSet{Frames: []image.Image{think}, FPS: 1}},
		{"an unknown motion stands as idle", full, "dance", "neutral", idleSet},
		{"an unknown motion with a feeling shows the feeling", full, "dance", "happy", stillOf(happy)},
		{"a motion with no frames stands as idle", full, "empty", "neutral", idleSet},
		{"a motion with no frames and a feeling shows the feeling", full, "empty", "happy", stillOf(happy)},
		{"no idle frames: neutral still", noIdle, "idle", "neutral", stillOf(neutral)},
		{"no idle frames: talk still plays", noIdle, "talk", "neutral", talkSet},
		{"no neutral image: an unknown emotion plays idle", noNeutral, "idle", "furious", idleSet},
		{"no neutral image: a known feeling shows", noNeutral, "idle", "happy", stillOf(happy)},
		{"nothing to show", nothing, "idle", "neutral", FrameSet{}},
		{"nil pack", nil, "talk", "happy", FrameSet{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.pack.Frames(tt.motion, tt.emotion)
			if !slices.Equal(got.Frames, tt.want.Frames) || got.FPS != tt.want.FPS || got.Loop != tt.want.Loop {
				t.Errorf("Frames(%q, %q) = %d frames at %v fps (loop %v), want %d images at %v (loop %v)",
					tt.motion, tt.emotion, len(got.Frames), got.FPS, got.Loop,
					len(tt.want.Frames), tt.want.FPS, tt.want.Loop)
			}
		})
	}
}

// Every motion and emotion of the default pack has something to show.
func TestFramesDefault(t *testing.T) {
	p := Default()
	for id, m := range p.Motions {
		for _, e := range append(sortedKeys(p.Emotions), "") {
			got := p.Frames(id, e)
			if len(got.Frames) == 0 {
				t.Errorf("Frames(%q, %q) is empty", id, e)
			}
			if id != "idle" && (e == "" || e == "neutral") && !slices.Equal(got.Frames, m.Frames) {
				t.Errorf("Frames(%q, %q) does not play the motion", id, e)
			}
		}
	}
}
