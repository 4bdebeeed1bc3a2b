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
	switch {
	case s.NeedsKey:
		return lang.L("{{.Kind}} · needs its API key", map[string]any{"Kind": string(s.Kind)})
	case s.Model == "" && s.NoneLoaded:
		return lang.L("{{.Kind}} · no model loaded", map[string]any{"Kind": string(s.Kind)})
	case s.Model == "":
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
	case localserver.FixTextGenLoad:
		return lang.L("load one in text-generation-webui's Model tab")
	}
	if k == "" {
		return lang.L("load a chat model in the server")
	}
	return lang.L("load a chat model in {{.Kind}}", map[string]any{"Kind": string(k)})
}

// serverHint is what the welcome page says under a found server that
// cannot talk yet: that it wants its API key (a keyed Jan, llama.cpp or
// vLLM), or how to get a model onto it; "" for one ready to use.
func serverHint(s localserver.Server) string {
	switch {
	case s.NeedsKey && s.Kind == localserver.Jan:
		return lang.L("Jan needs its API key: press Use, then paste the key (Jan → Settings → Local API Server) into the preset's Key field.")
	case s.NeedsKey:
		return lang.L("{{.Kind}} needs its API key: press Use, then paste the key into the preset's Key field.", map[string]any{"Kind": string(s.Kind)})
	case s.Model != "":
		return ""
	case s.NoneLoaded:
		return lang.L("{{.Kind}} has no model loaded: {{.Hint}}. Yui picks it up once it is there.", map[string]any{"Kind": string(s.Kind), "Hint": noModelHint(s.Kind)})
	}
	return lang.L("{{.Kind}} has no chat model yet: {{.Hint}}. Yui picks it up once it is there.", map[string]any{"Kind": string(s.Kind), "Hint": noModelHint(s.Kind)})
}
