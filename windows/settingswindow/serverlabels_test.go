package settingswindow

import (
	"strings"
	"testing"

	"yui/transport/localserver"
)

// A found server that wants its key, or has no model loaded, says so on
// the welcome page, not "ollama pull" nor nothing.
func TestServerHints(t *testing.T) {
	for _, c := range []struct {
		s           localserver.Server
		label, hint string
	}{
		{localserver.Server{Kind: localserver.Jan, NeedsKey: true}, "Jan · needs its API key", "Local API Server"},
		{localserver.Server{Kind: localserver.LlamaCpp, NeedsKey: true, Model: "m"}, "llama.cpp · needs its API key", "llama.cpp needs its API key"},
		{localserver.Server{Kind: localserver.TextGen, NoneLoaded: true}, "text-generation-webui · no model loaded", "Model tab"},
		{localserver.Server{Kind: localserver.KoboldCpp, NoneLoaded: true}, "KoboldCpp · no model loaded", "load a chat model in KoboldCpp"},
		{localserver.Server{Kind: localserver.LlamaCpp}, "llama.cpp · no chat model", "load a chat model in llama.cpp"},
		{localserver.Server{Kind: localserver.Ollama, Model: "qwen3:8b"}, "Ollama · qwen3:8b", ""},
	} {
		if got := serverLabel(c.s); got != c.label {
			t.Errorf("label %q, want %q", got, c.label)
		}
		h := serverHint(c.s)
		if (c.hint == "") != (h == "") || !strings.Contains(h, c.hint) || (c.s.Kind != localserver.Ollama && strings.Contains(h, "ollama pull")) {
			t.Errorf("%s: hint %q, want one with %q", c.s.Kind, h, c.hint)
		}
	}
}
