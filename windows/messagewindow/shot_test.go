package messagewindow

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"yui/pet/settings"
	"yui/pet/transcript"
	"yui/transport"
)

// TestMessageWindowScreenshot renders the message window with a turn
// (cues, reasoning, a tool status), an error and usage, and writes
// docs/screenshots/messages.png. It runs only with YUI_UPDATE_DOCS=1.
func TestMessageWindowScreenshot(t *testing.T) {
	if os.Getenv("YUI_UPDATE_DOCS") != "1" {
		t.Skip("set YUI_UPDATE_DOCS=1 to render docs/screenshots/messages.png")
	}
	b := newFakeBackend(t)
	id := firstPreset(t, b)
	editPreset(t, b, id, func(p *settings.Preset) { p.ContextWindow = 8192; p.Relation = 64 })
	c := b.Run(id)
	log := c.Transcript()
	at := time.Date(2026, 11, 30, 21, 4, 0, 0, time.Local)
	log.Add(transcript.Entry{Kind: transcript.KindUser, Time: at, Trigger: "greeting"})
	log.Add(transcript.Entry{Kind: transcript.KindReply, Time: at, TurnID: "t0", Text: "Good evening! I kept your seat warm.",
		Cues: []transport.Cue{{EmotionID: "happy", MotionID: "wave", EmotionText: "(^_^)/"}}})
	log.Add(transcript.Entry{Kind: transcript.KindUser, Time: at.Add(time.Minute), Trigger: "user message", Text: "Can you check what's in my notes file?"})
	log.Add(transcript.Entry{Kind: transcript.KindReasoning, TurnID: "t1", Text: "The user wants the notes file. " +
		"I should read it with the read_file tool, then sum up the shopping list in a sentence or two and offer to add items."})
	log.Add(transcript.Entry{Kind: transcript.KindTool, TurnID: "t1", Tool: "read_file", State: "done"})
	log.Add(transcript.Entry{Kind: transcript.KindReply, Time: at.Add(time.Minute), TurnID: "t1",
		Text: "Your notes have a shopping list: milk, eggs, and the good coffee. Want me to add anything?",
		Cues: []transport.Cue{{EmotionID: "thinking", MotionID: "nod", Caption: "reading your notes"}}})
	log.Add(transcript.Entry{Kind: transcript.KindUser, Time: at.Add(2 * time.Minute), Trigger: "user voice", Text: "Add bread, please."})
	log.Add(transcript.Entry{Kind: transcript.KindTool, TurnID: "t2", Tool: "write_file", State: "failed"})
	log.Add(transcript.Entry{Kind: transcript.KindError, TurnID: "t2", Text: "The request failed: the notes file is read-only."})
	log.Add(transcript.Entry{Kind: transcript.KindReset})
	log.Add(transcript.Entry{Kind: transcript.KindUser, Time: at.Add(3 * time.Minute), Trigger: "poke"})
	log.Add(transcript.Entry{Kind: transcript.KindReasoning, TurnID: "t3", Streaming: true,
		Text: "A poke. Something light and friendly, maybe a question about their day."})

	v := c.View()
	v.Usage = &transport.Usage{InputTokens: 1180, OutputTokens: 54, TotalTokens: 1234}
	c.Publish(v)

	w, _, _ := openMessages(t, b)
	w.win.Resize(fyne.NewSize(messagesWidth, messagesHeight))
	img := w.win.Canvas().Capture()
	path := filepath.Join("..", "..", "docs", "screenshots", "messages.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
