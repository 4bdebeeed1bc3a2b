package settingswindow

import (
	"slices"
	"strings"
	"testing"

	"time"

	"fyne.io/fyne/v2/test"

	"yui/pet"
	"yui/pet/character"
	"yui/pet/settings"
	"yui/pet/speech"
	"yui/transport"
	"yui/transport/localserver"
	"yui/windows/i18n"
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
	h.sw.tabs.SelectIndex(3) // Speech: the last scan's servers, and a scan
	h.sw.jobs.Wait()
	if b.AudioScans != 1 {
		t.Fatalf("%d scans when the Speech tab showed, want 1", b.AudioScans)
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

// The Speech and Voice tabs ask the ports when they show, once for both
// in a row, again when shown after audioRescanAfter; Find local servers
// asks at once.
func TestTabsScanWhenTheyShow(t *testing.T) {
	b := newFakeBackend(t)
	b.AudioServers = foundAudio()
	h := openSettings(t, b, "")
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	h.sw.now = func() time.Time { return now }
	scans := func(want int, when string) {
		t.Helper()
		h.sw.jobs.Wait()
		b.Mu.Lock()
		got := b.AudioScans
		b.Mu.Unlock()
		if got != want {
			t.Fatalf("%s: %d scans, want %d", when, got, want)
		}
	}
	h.sw.tabs.SelectIndex(4) // Voice
	scans(1, "the Voice tab shown")
	if n := len(h.f().voiceServers.Objects); n != 1 {
		t.Fatalf("%d transcription rows after the scan, want 1", n)
	}
	h.sw.tabs.SelectIndex(3) // Speech, at once
	scans(1, "the Speech tab shown right after")
	now = now.Add(audioRescanAfter + time.Second)
	h.sw.tabs.SelectIndex(0)
	h.sw.tabs.SelectIndex(3)
	scans(2, "the Speech tab shown again later")
	h.ed().findAudioServers()
	scans(3, "Find local servers")
}

// A found server's row names it in the window's language, with a count
// that takes its plural.
func TestServerRowLabel(t *testing.T) {
	s := foundAudio()
	for _, c := range []struct {
		s    localserver.AudioServer
		want string
	}{
		{s[0], "Kokoro-FastAPI · 2 voices"},
		{s[1], "GPT-SoVITS"},
		{localserver.AudioServer{Service: localserver.ServiceTranscription, Kind: localserver.Speaches, URL: "http://127.0.0.1:8000/v1",
			Offers: []string{"Systran/faster-whisper-small"}}, "speaches · 1 model"},
	} {
		if got := audioServerLabel(c.s); got != c.want {
			t.Errorf("audioServerLabel = %q, want %q", got, c.want)
		}
	}
}

// Choosing another engine offers the character's voice for that engine.
func TestEngineChangeOffersTheCharactersVoice(t *testing.T) {
	h := openSettings(t, nil, "")
	f := h.f()
	h.sw.jobs.Wait()
	mint, _ := character.Builtin("mint")
	choose(h, "mint")
	want, ok := mint.Speech.Voices["kokoro"]
	if !ok {
		t.Fatalf("Mint names no Kokoro voice: %v", mint.Speech.Voices)
	}
	h.ed().edit(func(p *settings.Preset) { p.Speech.BaseURL, p.Speech.Model = "http://127.0.0.1:8880/v1", "kokoro" })
	f.speechEngine.SetValue("openai")
	f.speechEngine.changed("openai")
	h.sw.jobs.Wait()
	if f.suggested != want || !f.suggestVoice.Visible() {
		t.Errorf("after choosing openai with Kokoro: offered %q (shown %v), want Mint's Kokoro voice %q", f.suggested, f.suggestVoice.Visible(), want)
	}
}

// An OpenAI-compatible server that lists its voices (Kokoro-FastAPI)
// fills the picker with them, and the note counts them as its own.
func TestPickerListsTheServersVoices(t *testing.T) {
	b := newFakeBackend(t)
	b.ServerVoices = []speech.Voice{{ID: "af_bella", Language: "en-US", Name: "Bella"}, {ID: "jf_alpha", Language: "ja", Name: "Alpha"}}
	h := openSettings(t, b, "")
	f := h.f()
	h.sw.jobs.Wait()
	h.ed().edit(func(p *settings.Preset) { p.Speech.Engine, p.Speech.BaseURL = "openai", "http://127.0.0.1:8880/v1" })
	h.ed().loadVoices()
	h.sw.jobs.Wait()
	if len(f.speechVoices) != 2 || f.speechVoices[1].ID != "jf_alpha" {
		t.Fatalf("picker holds %v, want the server's two voices", f.speechVoices)
	}
	if note := f.speechVoiceNote.Text; !strings.HasPrefix(note, "2 voices: type to search") {
		t.Errorf("note %q, want the server's voices counted", note)
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

// The Connection tab words the pet's state as the pill does, in the
// language in use (windows/i18n/pill.go).
func TestConnectionStateTranslated(t *testing.T) {
	h := openSettings(t, nil, "")
	defer i18n.Use(settings.LanguageEnglish)
	i18n.Use(settings.LanguageJapanese)
	h.sw.conn.show(pet.View{Pill: pet.Pill{Conn: "reconnecting in 3 s", ConnState: transport.StateReconnecting, Voice: "listening"}})
	if got := h.sw.conn.state.Text; got != "再接続まで 3 秒" {
		t.Errorf("state %q, want the Japanese pill's", got)
	}
	if got := h.sw.conn.detail.Text; got == "listening" || got == "" {
		t.Errorf("detail %q, want it translated", got)
	}
}
