package settingswindow

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"yui/pet/character"
	"yui/transport/localserver"
)

func foundAudio() []localserver.AudioServer {
	return []localserver.AudioServer{
		{Service: localserver.ServiceSpeech, Kind: localserver.Kokoro, Port: 8880, URL: "http://127.0.0.1:8880/v1",
			Engine: localserver.EngineOpenAI, Model: "kokoro", Offers: []string{"af_bella", "af_sky"}},
		{Service: localserver.ServiceSpeech, Kind: localserver.GPTSoVITS, Port: 9880, URL: "http://127.0.0.1:9880",
			Engine: localserver.EngineGPTSoVITS},
		{Service: localserver.ServiceTranscription, Kind: localserver.WhisperCpp, Port: 8080, URL: "http://127.0.0.1:8080",
			Engine: localserver.EngineWhisperCpp},
	}
}

// The Speech and Voice tabs list the servers found when they show, and
// Use fills the engine's fields in one click.
func TestTabsListLocalServersAndUseOne(t *testing.T) {
	b := newFakeBackend(t)
	b.AudioServers = foundAudio()
	h := openSettings(t, b, "")
	f := h.f()
	h.sw.tabs.SelectIndex(3) // Speech: the last scan's servers
	h.sw.jobs.Wait()
	h.ed().findAudioServers() // Find local servers
	h.sw.jobs.Wait()
	if b.AudioScans != 1 {
		t.Fatalf("%d scans, want 1", b.AudioScans)
	}
	if n := len(f.speechServers.Objects); n != 2 {
		t.Fatalf("%d speech rows, want 2", n)
	}
	if n := len(f.voiceServers.Objects); n != 1 {
		t.Fatalf("%d transcription rows, want 1", n)
	}
	h.ed().useAudioServer(b.AudioServers[0])
	h.sw.jobs.Wait() // the character\'s voice for the new engine
	d := h.ed().draft
	if d.Speech.Engine != "openai" || d.Speech.BaseURL != "http://127.0.0.1:8880/v1" || d.Speech.Model != "kokoro" {
		t.Errorf("kokoro: speech %+v", d.Speech)
	}
	if !slices.Equal(f.voiceOptions, []string{"af_bella", "af_sky"}) {
		t.Errorf("voices offered %v, want the server's", f.voiceOptions)
	}
	h.ed().useAudioServer(b.AudioServers[1])
	h.sw.jobs.Wait() // the character\'s voice for the new engine
	if d := h.ed().draft; d.Speech.Engine != "gpt-sovits" || d.Speech.BaseURL != "http://127.0.0.1:9880" {
		t.Errorf("gpt-sovits: speech %+v", d.Speech)
	}
	for _, fl := range []string{"speech.ref_audio", "speech.ref_text", "speech.ref_lang", "speech.base_url"} {
		if !h.shown(fl) {
			t.Errorf("gpt-sovits: %s is hidden", fl)
		}
	}
	if h.shown("speech.piper_model") || h.shown("speech.command") {
		t.Error("gpt-sovits shows another engine's fields")
	}
	test.Type(f.refAudio, "/clips/yui.wav")
	test.Type(f.refLang, "en")
	if d := h.ed().draft; d.Speech.RefAudio != "/clips/yui.wav" || d.Speech.RefLang != "en" {
		t.Errorf("reference clip %+v", d.Speech.SpeechServer)
	}
	h.ed().useAudioServer(b.AudioServers[2])
	h.sw.jobs.Wait() // the character\'s voice for the new engine
	if d := h.ed().draft; d.Voice.Engine != "whisper.cpp" || d.Voice.BaseURL != "http://127.0.0.1:8080" {
		t.Errorf("whisper.cpp: voice %+v", d.Voice)
	}
	if !h.shown("voice.base_url") || h.shown("voice.key") {
		t.Error("whisper.cpp's fields")
	}
}

// Choosing a character offers its voice for the engine; a voice the
// user chose is kept.
func TestCharacterOffersItsVoice(t *testing.T) {
	h := openSettings(t, nil, "")
	f := h.f()
	h.sw.jobs.Wait()
	mint, _ := character.Builtin("mint")
	yui := character.Default()
	sys := character.SystemKey()
	choose(h, "mint")
	if !strings.HasSuffix(f.speechVoice.PlaceHolder, mint.Speech.Voices[sys]) {
		t.Errorf("placeholder %q, want Mint's %s voice", f.speechVoice.PlaceHolder, sys)
	}
	if f.suggested != mint.Speech.Voices[sys] || !f.suggestVoice.Visible() {
		t.Fatalf("mint's voice not offered: %q, button shown %v", f.suggested, f.suggestVoice.Visible())
	}
	test.Tap(f.suggestVoice)
	if h.ed().draft.Speech.Voice != mint.Speech.Voices[sys] || f.suggestVoice.Visible() {
		t.Errorf("voice %q after Use", h.ed().draft.Speech.Voice)
	}
	retype(f.speechVoice, "de")
	choose(h, "yui")
	if h.ed().draft.Speech.Voice != "de" {
		t.Errorf("the user's voice was replaced by %q", h.ed().draft.Speech.Voice)
	}
	if !f.suggestVoice.Visible() || f.suggested != yui.Speech.Voices[sys] {
		t.Errorf("yui's voice not offered beside the user's")
	}
}

// choose picks a character as the Character field does (the choice's
// callback), then waits for the pack to be read.
func choose(h *settingsHarness, id string) {
	h.f().character.SetValue(id)
	h.f().character.changed(id)
	h.sw.jobs.Wait()
}
