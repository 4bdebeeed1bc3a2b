package settingswindow

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"yui/pet/settings"
	"yui/windows"
)

func TestSettingsEditorRefusesInvalidFields(t *testing.T) {
	h := openSettings(t, nil, "")
	e, f := h.ed(), h.f()
	before := h.stored()

	// The default preset talks Chat Completions with no model: nothing is
	// red until the user touches it (a first start), then it is refused.
	if got := e.fieldError("model"); got != "" || e.status.Text != "" {
		t.Fatalf("an untouched preset shows %q, status %q", got, e.status.Text)
	}
	retype(f.name, "Yui")
	if got := e.fieldError("model"); !strings.Contains(got, "Model is needed for chat_completions") {
		t.Fatalf("model reason = %q", got)
	}
	test.Type(f.model, "llama3")
	if got := e.fieldError("model"); got != "" {
		t.Fatalf("model still refused: %q", got)
	}

	cases := []struct {
		name   string
		edit   func()
		field  string
		reason string
	}{
		{"empty name", func() { retype(f.name, "  ") }, "name", "Name is empty"},
		{"bad URL", func() { retype(f.baseURL, "http://[::1") }, "chat_base_url", "Base URL is not a valid URL"},
		{"not a URL scheme", func() { retype(f.baseURL, "ftp://example.com") }, "chat_base_url", "Base URL must start with one of http://"},
		{"ftp for push", func() {
			pickLabel(f.chatAPI, "Push (WebSocket)")
			retype(f.baseURL, "ftp://127.0.0.1:8646")
		}, "chat_base_url", "Base URL must start with one of http://, https://, ws://, wss://"},
		{"ws for chat_completions", func() {
			pickLabel(f.chatAPI, "Chat Completions")
			retype(f.baseURL, "ws://127.0.0.1:8646")
		}, "chat_base_url", "must start with one of http://, https:// for chat_completions"},
		{"no model for responses", func() {
			pickLabel(f.chatAPI, "Responses")
			retype(f.model, "")
		}, "model", "Model is needed for responses"},
		{"context window not a number", func() { retype(f.contextWindow, "lots") }, "context_window", "Context window must be a whole number"},
		{"negative check-in", func() { retype(f.checkIn, "-5") }, "check_in_minutes", "must be between 0 (off)"},
		{"command engine without a command", func() { pickLabel(f.speechEngine, "Command (a local program: Piper, espeak-ng, …)") }, "speech.command", "is empty"},
		{"command rate", func() { retype(f.speechCmd.rate, "22") }, "speech.command_rate", "must be 0 (the command writes a WAV) or 8,000 to 192,000"},
		{"voice threshold", func() {
			pickLabel(f.voiceMode, "Hands-free")
			pickLabel(f.voiceEngine, "Command")
			f.voiceThreshold.Slider.OnChanged(40) // beyond the slider's reach: a file edited by hand
		}, "voice.threshold", "Voice sensitivity must be between 3 and 24"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.Revert()
			test.Type(f.model, "llama3")
			c.edit()
			if got := e.fieldError(c.field); !strings.Contains(got, c.reason) {
				t.Fatalf("%s reason = %q, want it to hold %q", c.field, got, c.reason)
			}
			if !e.save.Disabled() {
				t.Fatal("Save is enabled with an invalid field")
			}
			e.Save()
			if got := h.stored(); !sameEdits(got, before) {
				t.Fatalf("an invalid preset was saved: %+v", got)
			}
			if !strings.HasPrefix(e.status.Text, "Fix before saving: ") || !strings.Contains(e.status.Text, e.fieldNames[c.field]) {
				t.Fatalf("status = %q", e.status.Text)
			}
		})
	}

	// Push with ws:// and no model is fine.
	e.Revert()
	pickLabel(f.chatAPI, "Push (WebSocket)")
	retype(f.baseURL, "wss://agent.example.com/yui")
	if len(e.fieldErrs) != 0 {
		t.Fatalf("push preset refused: %v", e.fieldErrs)
	}
	test.Tap(e.save)
	if got := h.stored(); got.ChatAPI != settings.ChatAPIPush || got.ChatBaseURL != "wss://agent.example.com/yui" {
		t.Fatalf("stored %s %s", got.ChatAPI, got.ChatBaseURL)
	}
	if e.status.Text != "Saved" {
		t.Fatalf("status = %q", e.status.Text)
	}
}

func TestSettingsSaveKeyReachesStoreAndRevert(t *testing.T) {
	h := openSettings(t, nil, "")
	e, f := h.ed(), h.f()
	test.Type(f.model, "llama3")
	if !f.key.Password {
		t.Fatal("the key entry is not a password entry")
	}
	test.Type(f.key, "sk-new-key")
	if !e.dirty() || e.save.Disabled() {
		t.Fatal("an edit did not enable Save")
	}
	test.Tap(e.save)
	got := h.stored()
	if got.Key != "sk-new-key" || got.Model != "llama3" {
		t.Fatalf("stored key %q model %q", got.Key, got.Model)
	}
	if e.dirty() || !e.save.Disabled() {
		t.Fatal("still dirty after Save")
	}

	// Revert drops an edit and shows the stored preset.
	retype(f.name, "Someone else")
	test.Tap(e.revert)
	if f.name.Text != got.Name || e.dirty() {
		t.Fatalf("after Revert name = %q dirty = %v", f.name.Text, e.dirty())
	}
}

func TestSettingsEveryFieldSaves(t *testing.T) {
	h := openSettings(t, nil, "")
	e, f := h.ed(), h.f()
	retype(f.name, "Mochi")
	test.Tap(f.greeting)
	test.Tap(f.poke)
	test.Tap(f.gravity)
	test.Tap(f.gaze)
	test.Type(f.card, "A calm spirit.")
	pickLabel(f.chatAPI, "Responses")
	retype(f.baseURL, "https://api.example.com/v1")
	test.Type(f.model, "gpt-x")
	pickLabel(f.effort, "high")
	retype(f.contextWindow, "128000")
	pickLabel(f.screenOnTurn, "Always")
	retype(f.checkIn, "30")
	pickLabel(f.speechEngine, "OpenAI-compatible server")
	retype(f.speechURL, "https://tts.example.com/v1")
	test.Type(f.speechKey, "sk-tts")
	test.Type(f.speechVoice, "alloy")
	test.Type(f.speechModel, "tts-1")
	f.speechRate.SetValue(1.5)
	f.speechVolume.SetValue(0.5)
	test.Type(f.speechCmd.line, "piper --model en_US-lessac-medium.onnx --output-raw")
	retype(f.speechCmd.rate, "22050")
	pickLabel(f.voiceMode, "Hands-free")
	pickLabel(f.voiceEngine, "Command")
	test.Type(f.voiceCommand, "whisper-cli")
	test.Tap(f.enabled)
	if len(e.fieldErrs) != 0 {
		t.Fatalf("refused: %v", e.fieldErrs)
	}
	test.Tap(e.save)
	p := h.stored()
	want := settings.Preset{Name: "Mochi", Enabled: false, Character: "yui", ChatAPI: "responses",
		ChatBaseURL: "https://api.example.com/v1", Model: "gpt-x", ReasoningEffort: "high",
		Card: "A calm spirit.", ContextWindow: 128000, ScreenOnTurn: "always", Greeting: true, Poke: false, Gravity: false,
		CheckInMinutes: 30, Life: settings.DefaultLife(),
		Speech: settings.Speech{Engine: "openai", Voice: "alloy", BaseURL: "https://tts.example.com/v1", Key: "sk-tts", Model: "tts-1", Rate: 1.5, Volume: 0.5,
			Command: "piper --model en_US-lessac-medium.onnx --output-raw", CommandRate: 22050},
		Voice: settings.Voice{Mode: "hands_free", Engine: "command", Command: "whisper-cli"}}
	if !sameEdits(p, want) {
		t.Fatalf("stored\n%+v\nwant\n%+v", editable(p), editable(want))
	}
	if f.chatID.Text != p.ChatID || !strings.HasPrefix(p.ChatID, "yui-") {
		t.Fatalf("chat id shown %q, stored %q", f.chatID.Text, p.ChatID)
	}
}

func TestSettingsClearTextKeyWarning(t *testing.T) {
	h := openSettings(t, nil, "")
	f := h.f()
	if f.keyWarning.Visible() {
		t.Fatal("warning with no key")
	}
	test.Type(f.key, "sk-secret")
	if f.keyWarning.Visible() {
		t.Fatal("warning for a loopback endpoint")
	}
	retype(f.baseURL, "http://192.168.1.20:11434/v1")
	if !f.keyWarning.Visible() {
		t.Fatal("no warning for a key sent over http:// to another machine")
	}
	retype(f.baseURL, "https://192.168.1.20/v1")
	if f.keyWarning.Visible() {
		t.Fatal("warning for https://")
	}
	pickLabel(f.chatAPI, "Push (WebSocket)")
	retype(f.baseURL, "ws://agent.lan:8646")
	if !f.keyWarning.Visible() {
		t.Fatal("no warning for ws:// to another machine")
	}
}

func TestSettingsProbeFillsModels(t *testing.T) {
	h := openSettings(t, nil, "")
	f := h.f()
	h.b.ProbeResult = windows.Probe{OK: true, Code: windows.ProbeModels, Text: "connected: 2 models", Models: []string{"llama3", "qwen2"}}
	retype(f.baseURL, "http://127.0.0.1:9999/v1")
	test.Tap(f.testConn)
	h.sw.jobs.Wait()
	if f.probeText.Text != "connected: 2 models" {
		t.Fatalf("probe text = %q", f.probeText.Text)
	}
	if !slices.Equal(f.models, []string{"llama3", "qwen2"}) {
		t.Fatalf("model options = %v", f.models)
	}
	if len(h.b.Probed) != 1 || h.b.Probed[0].ChatBaseURL != "http://127.0.0.1:9999/v1" {
		t.Fatalf("probed %v, want the edited preset", h.b.Probed)
	}

	h.b.ProbeResult = windows.Probe{Code: windows.ProbeKeyRejected, Text: "key rejected"}
	test.Tap(f.refreshModels)
	h.sw.jobs.Wait()
	if f.probeText.Text != "key rejected" {
		t.Fatalf("probe text = %q", f.probeText.Text)
	}
	if f.testConn.Disabled() {
		t.Fatal("test button left disabled")
	}

	// An unusable URL is not probed.
	retype(f.baseURL, "nope")
	test.Tap(f.testConn)
	h.sw.jobs.Wait()
	if len(h.b.Probed) != 2 || !strings.HasPrefix(f.probeText.Text, "Fix the base URL first") {
		t.Fatalf("probed %d times, text %q", len(h.b.Probed), f.probeText.Text)
	}
}

func TestSettingsSpeechAndVoiceTests(t *testing.T) {
	h := openSettings(t, nil, "")
	f := h.f()
	test.Type(f.speechVoice, "en-gb")
	test.Tap(f.speechTest)
	h.sw.jobs.Wait()
	if len(h.b.Spoken) != 1 || h.b.Spoken[0].Speech.Voice != "en-gb" {
		t.Fatalf("spoken %v, want the edited speech settings", h.b.Spoken)
	}
	if f.speechResult.Text != "Spoke the sample sentence." {
		t.Fatalf("speech result = %q", f.speechResult.Text)
	}
	h.b.HeardVoice = "hello there"
	test.Tap(f.voiceTest)
	h.sw.jobs.Wait()
	if f.voiceResult.Text != "Heard: hello there" {
		t.Fatalf("voice result = %q", f.voiceResult.Text)
	}
}

func TestSettingsLiveRefreshFromStore(t *testing.T) {
	h := openSettings(t, nil, "")
	e, f := h.ed(), h.f()
	id := h.sw.selected

	// Saved elsewhere with no edits here: the editor follows.
	if err := h.b.Settings.UpdatePreset(id, func(p *settings.Preset) error { p.Name = "Renamed"; p.Relation = 70; return nil }); err != nil {
		t.Fatal(err)
	}
	if f.name.Text != "Renamed" || f.relation.Value != 70 {
		t.Fatalf("editor shows %q relation %v", f.name.Text, f.relation.Value)
	}
	if !strings.Contains(h.sw.list.detail(h.sw.list.presets[0]), "active") || h.sw.list.presets[0].Name != "Renamed" {
		t.Fatalf("list shows %+v", h.sw.list.presets)
	}

	// A relation change while the user edits: theirs stays, no note.
	retype(f.name, "Mine")
	if err := h.b.Settings.UpdatePreset(id, func(p *settings.Preset) error { p.Relation = 72; return nil }); err != nil {
		t.Fatal(err)
	}
	if f.name.Text != "Mine" || e.elsewhere.Visible() || f.relation.Value != 72 {
		t.Fatalf("name %q note %v relation %v", f.name.Text, e.elsewhere.Visible(), f.relation.Value)
	}

	// An edited field changed elsewhere: theirs stays, with the note.
	if err := h.b.Settings.UpdatePreset(id, func(p *settings.Preset) error { p.Card = "from elsewhere"; return nil }); err != nil {
		t.Fatal(err)
	}
	if f.name.Text != "Mine" || !e.elsewhere.Visible() {
		t.Fatalf("name %q note %v", f.name.Text, e.elsewhere.Visible())
	}
	test.Tap(e.revert)
	if f.name.Text != "Renamed" || f.card.Text != "from elsewhere" || e.elsewhere.Visible() {
		t.Fatalf("after revert name %q card %q", f.name.Text, f.card.Text)
	}
}

func TestKeyWarningTextNamesTheKeys(t *testing.T) {
	if got := KeyWarningText([]string{"key"}); !strings.HasPrefix(got, "The key crosses the network unencrypted") {
		t.Errorf("chat key: %q", got)
	}
	if got := KeyWarningText([]string{"key", "speech.key"}); !strings.HasPrefix(got, "These keys cross the network unencrypted (key, speech.key;") {
		t.Errorf("two keys: %q", got)
	}
	if got := KeyWarningText([]string{"voice.key"}); !strings.Contains(got, "(voice.key;") {
		t.Errorf("voice key: %q", got)
	}
}
