package app

import (
	"log/slog"
	"slices"
	"testing"

	"yui/pet/settings"
	"yui/pet/voice"
)

func TestNewTranscriberFromSettings(t *testing.T) {
	tr, err := newTranscriber(settings.Voice{Engine: "openai", BaseURL: "http://127.0.0.1:9000/v1", Key: "k", Model: "m", Language: "en"})
	if o, ok := tr.(*voice.OpenAI); err != nil || !ok || *o != (voice.OpenAI{BaseURL: "http://127.0.0.1:9000/v1", Key: "k", Model: "m", Language: "en"}) {
		t.Fatalf("openai: %#v, %v", tr, err)
	}
	tr, err = newTranscriber(settings.Voice{Engine: "command", Command: `pocketsphinx_continuous -logfn /dev/null -infile`})
	if c, ok := tr.(*voice.Command); err != nil || !ok || !slices.Equal(c.Args, []string{"pocketsphinx_continuous", "-logfn", "/dev/null", "-infile"}) {
		t.Fatalf("command: %#v, %v", tr, err)
	}
	for _, v := range []settings.Voice{{Engine: "command", Command: `whisper 'unterminated`}, {Engine: "command"}, {Engine: "vosk"}} {
		if tr, err := newTranscriber(v); err == nil || tr != nil {
			t.Errorf("%+v: %#v, %v", v, tr, err)
		}
	}
	if _, err := newCapture("/nonexistent/voice.wav", "", slog.New(slog.DiscardHandler), nil); err == nil {
		t.Error("a missing --voice-in file opened")
	}
}
