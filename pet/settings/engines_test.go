package settings

import (
	"encoding/json"
	"strings"
	"testing"
)

func enginePreset() Preset {
	p := defaultPreset()
	p.ID, p.Name, p.ChatID = "p-1", "Yui", "yui-1"
	return p
}

func TestValidateServerEngines(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*Preset)
		field string // "" is valid
	}{
		{"gpt-sovits", func(p *Preset) {
			p.Speech.Engine, p.Speech.BaseURL = "gpt-sovits", "http://127.0.0.1:9880"
			p.Speech.RefAudio, p.Speech.RefText, p.Speech.RefLang = "/clips/yui.wav", "Hello there.", "en"
		}, ""},
		{"gpt-sovits without a clip", func(p *Preset) { p.Speech.Engine, p.Speech.BaseURL = "gpt-sovits", "http://127.0.0.1:9880" }, "speech.ref_audio"},
		{"gpt-sovits without a server", func(p *Preset) { p.Speech.Engine, p.Speech.RefAudio = "gpt-sovits", "a.wav" }, "speech.base_url"},
		{"a language api_v2 does not take", func(p *Preset) { p.Speech.RefLang = "klingon" }, "speech.ref_lang"},
		{"a clip path of two lines", func(p *Preset) { p.Speech.RefAudio = "a\nb" }, "speech.ref_audio"},
		{"piper server", func(p *Preset) { p.Speech.Engine, p.Speech.BaseURL = "piper", "http://127.0.0.1:5000" }, ""},
		{"piper program", func(p *Preset) { p.Speech.Engine, p.Speech.PiperModel = "piper", "/voices/en.onnx" }, ""},
		{"piper with neither", func(p *Preset) { p.Speech.Engine = "piper" }, "speech.piper_model"},
		{"an unknown speech engine", func(p *Preset) { p.Speech.Engine = "coqui" }, "speech.engine"},
		{"whisper.cpp", func(p *Preset) {
			p.Voice.Mode, p.Voice.Engine, p.Voice.BaseURL = "hands_free", "whisper.cpp", "http://127.0.0.1:8080"
		}, ""},
		{"whisper.cpp without a server", func(p *Preset) { p.Voice.Mode, p.Voice.Engine = "hands_free", "whisper.cpp" }, "voice.base_url"},
		{"an unknown voice engine", func(p *Preset) { p.Voice.Engine = "vosk" }, "voice.engine"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := enginePreset()
			c.edit(&p)
			errs := p.Validate()
			if c.field == "" {
				if len(errs) > 0 {
					t.Fatalf("errors %v", errs)
				}
				return
			}
			if len(errs) != 1 || errs[0].Field != c.field {
				t.Fatalf("errors %v, want one at %s", errs, c.field)
			}
		})
	}
}

// The new fields sit inline in "speech" and are left out when empty, so
// a file without them reads and writes as before.
func TestSpeechServerFieldsInline(t *testing.T) {
	p := enginePreset()
	b, _ := json.Marshal(p.Speech)
	if strings.Contains(string(b), "ref_audio") {
		t.Errorf("empty fields written: %s", b)
	}
	p.Speech.RefAudio, p.Speech.RefLang, p.Speech.PiperModel = "/c.wav", "ja", "/m.onnx"
	b, _ = json.Marshal(p.Speech)
	for _, k := range []string{`"ref_audio":"/c.wav"`, `"ref_lang":"ja"`, `"piper_model":"/m.onnx"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("%s not in %s", k, b)
		}
	}
	var back Speech
	if json.Unmarshal(b, &back) != nil || back != p.Speech {
		t.Errorf("read back %+v", back)
	}
}
