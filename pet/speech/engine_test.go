package speech

import (
	"testing"

	"yui/pet/audio"
	"yui/pet/settings"
)

func TestEngineOfEachSetting(t *testing.T) {
	p := audio.NewMixer().NewPlayer()
	for _, tt := range []struct {
		engine string
		want   string
	}{
		{settings.SpeechEngineNone, "none"},
		{settings.SpeechEngineOpenAI, "openai"},
	} {
		e, name, err := New(settings.Speech{Engine: tt.engine, BaseURL: "http://127.0.0.1:1/v1"}, p, "en")
		if err != nil || name != tt.want {
			t.Errorf("%s: engine %q, err %v", tt.engine, name, err)
		}
		e.Close()
	}
	// The command engine: the line split as voice.command is, no shell.
	e, name, err := New(settings.Speech{Engine: settings.SpeechEngineCommand, Command: `/usr/bin/espeak-ng --stdout -v 'en-us'`}, p, "en")
	if err != nil || name != "command (espeak-ng)" {
		t.Errorf("command: engine %q, err %v", name, err)
	}
	if c, ok := e.(*Audio); !ok || c.Name() != "espeak-ng" {
		t.Errorf("command engine %T", e)
	}
	e.Close()
	for _, line := range []string{"", "  ", `piper --model 'en_US`} {
		e, name, err := New(settings.Speech{Engine: settings.SpeechEngineCommand, Command: line}, p, "en")
		if err == nil || name != settings.SpeechEngineNone {
			t.Errorf("command %q: engine %q, err %v", line, name, err)
		}
		e.Close()
	}
}

func TestLocalEngineNames(t *testing.T) {
	p := audio.NewMixer().NewPlayer()
	for _, c := range []struct {
		sp   settings.Speech
		name string
		err  bool
	}{
		{settings.Speech{Engine: "gpt-sovits", BaseURL: "http://127.0.0.1:9880"}, "gpt-sovits", false},
		{settings.Speech{Engine: "piper", BaseURL: "http://127.0.0.1:5000"}, "piper (server)", false},
		{settings.Speech{Engine: "piper", SpeechServer: settings.SpeechServer{PiperModel: "/no/such.onnx"}}, settings.SpeechEngineNone, true},
	} {
		e, name, err := New(c.sp, p, "en")
		if name != c.name || (err != nil) != c.err {
			t.Errorf("%+v: %s, %v", c.sp, name, err)
		}
		e.Close()
	}
}
