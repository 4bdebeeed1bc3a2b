package push

import (
	"strings"
	"testing"
	"unicode/utf8"

	"yui/transport"
)

// TestCueTextIsCutToTheCueLimits: a backend's cue caption and
// emotion_text reach the pet cut to generate_express's limits, however
// long they were sent.
func TestCueTextIsCutToTheCueLimits(t *testing.T) {
	h := newHarness(t, setup{})
	id := h.sendTurn("x")
	long := strings.Repeat("長", 30000) // two of them fit a frame
	h.send(map[string]any{"type": "render", "turn_id": id, "source": "b", "segments": []any{
		map[string]any{"cues": []any{map[string]any{"emotion_id": "happy", "caption": long, "emotion_text": long}}, "speech": "Hi."},
		map[string]any{"cues": []any{map[string]any{"caption": "short", "emotion_text": "😆"}}, "speech": ""},
	}})
	re := expect[*transport.RenderEvent](h)
	c := re.Segments[0].Cues[0]
	if n := utf8.RuneCountInString(c.Caption); n != MaxCaption || !strings.HasSuffix(c.Caption, "…") {
		t.Errorf("caption: %d code points", n)
	}
	if n := utf8.RuneCountInString(c.EmotionText); n != MaxEmotionText {
		t.Errorf("emotion_text: %d code points", n)
	}
	if c.EmotionID != "happy" || re.Segments[0].Speech != "Hi." {
		t.Errorf("cue %+v, speech %q", c, re.Segments[0].Speech)
	}
	if c := re.Segments[1].Cues[0]; c.Caption != "short" || c.EmotionText != "😆" {
		t.Errorf("short cue changed: %+v", c)
	}
}
