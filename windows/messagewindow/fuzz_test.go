package messagewindow

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"yui/pet/transcript"
	"yui/transport"
)

// FuzzMessageRowLayout lays out entries with any text, cue and width: a
// transcript holds what backends and users sent, and no entry may crash
// or hang the window or draw past its row.
func FuzzMessageRowLayout(f *testing.F) {
	test.NewTempApp(f)
	f.Add("reply", "Hello there.", "happy", "a caption", float32(520), false)
	f.Add("user", "", "", "", float32(0), false)
	f.Add("reasoning", "\n\n\nfirst\n\n\nsecond", "", "", float32(-40), true)
	f.Add("error", "\xff\xfe broken utf-8 \x00 and controls \t\r", "", "", float32(3), false)
	f.Add("tool", "", "", "", float32(1e9), false)
	f.Add("reply", "ThisIsOneVeryLongWordWithNoSpacesThatMustBeBrokenAcrossManyLinesOfTheBubble", "", "", float32(210), false)
	f.Add("mystery", "عربي 日本語 🙂🙂🙂", "😀", "≧▽≦", float32(300), true)
	f.Fuzz(func(t *testing.T, kind, text, emotion, caption string, width float32, streaming bool) {
		if len(text) > 4000 {
			text = text[:4000] // wrapping cost grows with the text; bounded elsewhere
		}
		e := transcript.Entry{Seq: 1, Kind: transcript.Kind(kind), Trigger: caption, Text: text, Tool: emotion, State: caption,
			Streaming: streaming, Cues: []transport.Cue{{EmotionID: emotion, MotionID: caption, EmotionText: emotion, Caption: caption}}}
		for _, exp := range []bool{false, true} {
			var wc wrapCache
			l := layoutEntry(e, width, exp, &wc)
			if l.height <= 0 || l.height != l.height {
				t.Fatalf("height %v", l.height)
			}
			for _, p := range l.parts {
				if p.pos.Y < 0 || p.pos.Y+p.size.Height > l.height+1 {
					t.Fatalf("a part at %v %v leaves the row of height %v", p.pos, p.size, l.height)
				}
			}
		}
	})
}
