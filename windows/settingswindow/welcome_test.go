package settingswindow

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"yui/pet/settings"
	"yui/transport/localserver"
	"yui/windows"
)

// The welcome page: Find local servers lists what answered, Use points
// the preset at one; a cloud service is filled in, its key tested and
// saved only once the service answered; the demo starts in place.
func TestWelcomePage(t *testing.T) {
	b := newFakeBackend(t)
	b.Servers = []localserver.Server{
		{URL: "http://127.0.0.1:11434/v1", Port: 11434, Kind: localserver.Ollama},
		{URL: "http://127.0.0.1:1234/v1", Port: 1234, Kind: localserver.LMStudio, Models: []string{"qwen3-4b"}, Model: "qwen3-4b"},
	}
	h := openSettings(t, b, "")
	h.sw.jobs.Wait() // the window's own loads (speakers) touch widgets from their goroutine
	h.sw.ShowWelcome()
	p := h.sw.welcome
	if h.sw.win.Content() != p.page {
		t.Fatal("the window does not show the welcome page")
	}
	// Found at open (the first start's scan), and again from the button.
	if n := len(p.found.Objects); n != 3 { // two rows and Ollama's hint
		t.Fatalf("%d rows for two servers", n)
	}
	test.Tap(p.find)
	h.sw.jobs.Wait()
	if b.Scans != 1 || !strings.Contains(p.findState.Text, "Found 2 servers") {
		t.Fatalf("scans %d, state %q", b.Scans, p.findState.Text)
	}
	if !hasLabel(p.found, "run: ollama pull qwen3:4b") {
		t.Error("no pull hint for Ollama without a model")
	}
	test.Tap(findButton(p.found.Objects[2], "Use"))
	if got := h.stored(); got.ChatBaseURL != "http://127.0.0.1:1234/v1" || got.Model != "qwen3-4b" {
		t.Fatalf("preset after Use: %s %s", got.ChatBaseURL, got.Model)
	}

	// A cloud service: the key is tested before anything is saved.
	p.cloud.SetSelected("DeepSeek")
	if p.cloudURL.Text != "https://api.deepseek.com/v1" || p.cloudModel.Text != "deepseek-chat" {
		t.Fatalf("DeepSeek filled %q %q", p.cloudURL.Text, p.cloudModel.Text)
	}
	test.Tap(p.cloudTest)
	if !strings.Contains(p.cloudState.Text, "key") {
		t.Fatalf("no key: %q", p.cloudState.Text)
	}
	test.Type(p.cloudKey, "sk-test")
	b.ProbeResult = windows.Probe{Code: windows.ProbeKeyRejected, Text: "key rejected"}
	test.Tap(p.cloudTest)
	h.sw.jobs.Wait()
	if p.cloudState.Text != "key rejected" || h.stored().Key != "" {
		t.Fatalf("refused key: state %q, stored key %q", p.cloudState.Text, h.stored().Key)
	}
	b.ProbeResult = windows.Probe{OK: true, Code: windows.ProbeModels, Text: "connected: 2 models", Models: []string{"a", "b"}}
	test.Tap(p.cloudTest)
	h.sw.jobs.Wait()
	got := h.stored()
	if got.ChatBaseURL != "https://api.deepseek.com/v1" || got.Key != "sk-test" || got.Model != "deepseek-chat" || got.ChatAPI != settings.ChatAPIChatCompletions {
		t.Fatalf("saved %s %s %s", got.ChatAPI, got.ChatBaseURL, got.Model)
	}
	if probed := b.Probed[len(b.Probed)-1]; probed.Key != "sk-test" {
		t.Errorf("the probe did not carry the pasted key")
	}

	test.Tap(p.demo)
	if b.Demos != 1 || !p.demo.Disabled() {
		t.Errorf("demo started %d times", b.Demos)
	}
	if !strings.Contains(h.log.String(), `"page":"welcome"`) {
		t.Errorf("log: %s", h.log.String())
	}
	// The settings button leaves for the editor; Show does too.
	h.sw.showMain()
	if h.sw.win.Content() == p.page {
		t.Error("still on the welcome page")
	}
}

// hasLabel reports whether a label under root holds text.
func hasLabel(root fyne.CanvasObject, text string) bool {
	found := false
	walk(root, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, text) {
			found = true
		}
	})
	return found
}
