package settingswindow

import (
	"fyne.io/fyne/v2/lang"

	"yui/transport/localserver"
)

// The names of found servers as the window shows them, in the user's
// language; localserver's own Label and NoModelHint stay English for the
// log (docs/product.md §1: the transports know no translations).

// serverLabel names a model server: "Ollama · qwen3:4b", or that it has
// no chat model yet.
func serverLabel(s localserver.Server) string {
	if s.Model == "" {
		return lang.L("{{.Kind}} · no chat model", map[string]any{"Kind": string(s.Kind)})
	}
	return string(s.Kind) + " · " + s.Model
}

// audioServerLabel names a speech or transcription server with how many
// voices or models it offers.
func audioServerLabel(s localserver.AudioServer) string {
	n := len(s.Offers)
	switch {
	case n == 0:
		return s.Name()
	case s.Service == localserver.ServiceSpeech:
		return lang.N("{{.Kind}} · {{.Count}} voices", n, map[string]any{"Kind": s.Name(), "Count": n})
	default:
		return lang.N("{{.Kind}} · {{.Count}} models", n, map[string]any{"Kind": s.Name(), "Count": n})
	}
}

// noModelHint says how to get a chat model onto a server of kind k.
func noModelHint(k localserver.Kind) string {
	switch localserver.NoModelFix(k) {
	case localserver.FixOllamaPull:
		return lang.L("run: ollama pull qwen3:4b")
	case localserver.FixLMStudioLoad:
		return lang.L("load a model in LM Studio (or run: lms load qwen3-4b)")
	}
	if k == "" {
		return lang.L("load a chat model in the server")
	}
	return lang.L("load a chat model in {{.Kind}}", map[string]any{"Kind": string(k)})
}
