package settingswindow

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// shown reports whether a field's row shows.
func (h *settingsHarness) shown(field string) bool {
	objs, ok := h.ed().rowObjs[field]
	if !ok {
		h.t.Fatalf("no row for %s", field)
	}
	return objs[0].Visible() && objs[1].Visible()
}

// shoot captures the window on tab i to a PNG in the test's folder (and
// into docs/screenshots with YUI_UPDATE_DOCS=1) and returns its path.
func (h *settingsHarness) shoot(tab int, name string) string {
	h.t.Helper()
	h.sw.win.Resize(fyne.NewSize(settingsWidth, settingsHeight))
	h.sw.tabs.SelectIndex(tab)
	h.sw.jobs.Wait() // what the tab lists when it shows
	relayout(h.sw.win.Content())
	img := h.sw.win.Canvas().Capture()
	dir := h.t.TempDir()
	if os.Getenv("YUI_UPDATE_DOCS") != "" {
		dir = filepath.Join("..", "..", "docs", "screenshots")
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		h.t.Fatal(err)
	}
	return path
}

// TestAudioTabsShowTheirEngineFieldsOnly: the Speech tab shows Voice, Rate
// and Volume for the system voice, adds Base URL, Key and Model for an
// OpenAI-compatible server, and shows none of them for None; the Voice tab
// shows the server's fields or the command's, never both. Each state is
// captured as a screenshot.
func TestAudioTabsShowTheirEngineFieldsOnly(t *testing.T) {
	h := openSettings(t, nil, "")
	f := h.f()
	speech, voice := 3, 4
	cases := []struct {
		pick  func()
		tab   int
		shot  string
		shown []string
		gone  []string
	}{
		{func() { pickLabel(f.speechEngine, "System voice") }, speech, "settings-speech-system.png",
			[]string{"speech.voice", "speech.rate", "speech.volume"}, []string{"speech.base_url", "speech.key", "speech.model",
				"speech.command", "speech.command_rate"}},
		{func() { pickLabel(f.speechEngine, "Command (a local program: Piper, espeak-ng, …)") }, speech, "settings-speech-command.png",
			[]string{"speech.command", "speech.command_rate", "speech.volume"},
			[]string{"speech.voice", "speech.base_url", "speech.key", "speech.model", "speech.rate"}},
		{func() { pickLabel(f.speechEngine, "OpenAI-compatible server") }, speech, "settings-speech-openai.png",
			[]string{"speech.voice", "speech.base_url", "speech.key", "speech.model", "speech.rate", "speech.volume"}, nil},
		{func() { pickLabel(f.speechEngine, "None (bubble only)") }, speech, "settings-speech-none.png",
			nil, []string{"speech.voice", "speech.base_url", "speech.key", "speech.model", "speech.rate", "speech.volume"}},
		{func() { pickLabel(f.voiceEngine, "OpenAI-compatible server") }, voice, "settings-voice-openai.png",
			[]string{"voice.base_url", "voice.key", "voice.model", "voice.language", "voice.device", "voice.threshold"}, []string{"voice.command"}},
		{func() { pickLabel(f.voiceEngine, "Command") }, voice, "settings-voice-command.png",
			[]string{"voice.command", "voice.device", "voice.threshold"}, []string{"voice.base_url", "voice.key", "voice.model", "voice.language"}},
	}
	for _, c := range cases {
		c.pick()
		h.sw.jobs.Wait() // the engine's voices, listed
		for _, fl := range c.shown {
			if !h.shown(fl) {
				t.Errorf("%s: %s is hidden", c.shot, fl)
			}
		}
		for _, fl := range c.gone {
			if h.shown(fl) {
				t.Errorf("%s: %s shows", c.shot, fl)
			}
		}
		t.Logf("wrote %s", h.shoot(c.tab, c.shot))
	}
	if !f.speechTest.Disabled() {
		t.Error("Speak a sample is enabled for the None engine")
	}
}

// TestVoicePickerListsAndSearches: the Speech tab lists the engine's voices
// and narrows them as the user types.
func TestVoicePickerListsAndSearches(t *testing.T) {
	h := openSettings(t, nil, "")
	f := h.f()
	pickLabel(f.speechEngine, "System voice")
	h.sw.jobs.Wait()
	if got := f.voiceOptions; !slices.Equal(got, []string{"en-us", "de"}) {
		t.Fatalf("voices offered %v", got)
	}
	if f.speechVoiceNote.Text == "" {
		t.Error("no note under the voice picker")
	}
	test.Type(f.speechVoice, "germ")
	if got := f.voiceOptions; !slices.Equal(got, []string{"de"}) {
		t.Fatalf("voices for \"germ\": %v", got)
	}
	pickLabel(f.speechEngine, "OpenAI-compatible server")
	h.sw.jobs.Wait()
	f.speechVoice.SetText("")
	if len(f.voiceOptions) < 6 || f.voiceOptions[0] != "alloy" {
		t.Fatalf("openai voices %v", f.voiceOptions)
	}
}

// TestVoiceTabMetersTheMicrophone: while the Voice tab shows, its level
// meter reads the preset's microphone and the picker lists the inputs;
// picking another microphone meters that one; leaving the tab stops it.
func TestVoiceTabMetersTheMicrophone(t *testing.T) {
	b := newFakeBackend(t)
	b.MeterCh = make(chan string, 4)
	h := openSettings(t, b, "")
	f := h.f()
	h.sw.tabs.SelectIndex(4)
	if dev := <-b.MeterCh; dev != "" {
		t.Fatalf("metered %q, want the default device", dev)
	}
	if got := f.voiceMeter.Text(); got != "-30 dBFS · voice from -52 dBFS" {
		t.Fatalf("meter says %q", got)
	}
	h.sw.jobs.Wait() // the device list
	pickLabel(f.voiceDevice, "USB Headset")
	if dev := <-b.MeterCh; dev != "USB Headset" {
		t.Fatalf("metered %q after picking the headset", dev)
	}
	h.sw.jobs.Wait()
	if len(f.voiceDevice.Select.Options) != 3 {
		t.Fatalf("microphones offered %v", f.voiceDevice.Select.Options)
	}
	f.voiceThreshold.SetValue(16)
	if h.ed().draft.Voice.Threshold != 16 {
		t.Fatalf("threshold in the draft %v", h.ed().draft.Voice.Threshold)
	}
	h.sw.tabs.SelectIndex(0)
	if got := f.voiceMeter.Text(); got != "Not listening" {
		t.Fatalf("meter after leaving the tab says %q", got)
	}
}
