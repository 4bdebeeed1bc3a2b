package messagewindow

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"yui/pet/transcript"
	"yui/transport"
)

// fullMessageWindow is a message window showing a full history
// (transcript.DefaultMax entries of user turns and replies).
func fullMessageWindow(b *testing.B) (*MessageWindow, *transcript.Log) {
	b.Helper()
	be := newFakeBackend(b)
	id := firstPreset(b, be)
	c := be.Run(id)
	log := c.Transcript()
	for i := range transcript.DefaultMax / 2 {
		log.Add(transcript.Entry{Kind: transcript.KindUser, Trigger: "user message", Text: "question " + strings.Repeat("word ", i%25)})
		log.Add(transcript.Entry{Kind: transcript.KindReply, Text: "answer " + strings.Repeat("words ", i%40),
			Cues: []transport.Cue{{EmotionID: "happy", MotionID: "nod"}}})
	}
	a := test.NewTempApp(b)
	w := NewMessageWindow(a, be, id, nil)
	w.Show()
	b.Cleanup(w.Close)
	w.win.Resize(fyne.NewSize(messagesWidth, messagesHeight))
	return w, log
}

// BenchmarkMessageWindowAdd is one new entry at the end of a full
// history: one row made, the oldest dropped, the view kept at the bottom.
func BenchmarkMessageWindowAdd(b *testing.B) {
	_, log := fullMessageWindow(b)
	b.ReportAllocs()
	for b.Loop() {
		log.Add(transcript.Entry{Kind: transcript.KindReply, Text: "A new reply of a sentence or two, wrapped in its bubble."})
	}
}

// BenchmarkMessageWindowGrowReasoning is one growth of streaming
// reasoning (about 1,500 characters) at the end of a full history.
func BenchmarkMessageWindowGrowReasoning(b *testing.B) {
	_, log := fullMessageWindow(b)
	e := log.Add(transcript.Entry{Kind: transcript.KindReasoning, Streaming: true,
		Text: strings.Repeat("The user asks about the weather; I should check the forecast. ", 24)})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		log.Grow(e.Seq, func(e *transcript.Entry) { e.Text += string(rune('a' + i%26)) })
	}
}
