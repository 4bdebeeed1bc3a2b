package i18n

import (
	"regexp"
	"strings"

	"fyne.io/fyne/v2/lang"

	"yui/pet"
	"yui/pet/voice"
)

// The pill's texts come from pet and transport in English (pet/events.go,
// transport.ConnState.String, pet/voice): pet imports no Fyne, so the
// windows translate them here (the pet's pill and plate, the Connection
// tab, the message window's status line), a segment (between " · ") at a
// time. A
// segment the table does not know (a server's error text, a model's name)
// shows as it is.
const (
	pillReady        = "ready"
	pillConnecting   = "connecting"
	pillReconnecting = "reconnecting"
	pillKeyRejected  = "key rejected"
	pillOffline      = "offline"
	pillInvalid      = "invalid settings"
	pillClosed       = "closed"
	pillRateLimited  = "rate limited"
	pillRetrying     = "rate limited: retrying"
	pillRetry        = "retrying"
	pillThinking     = "thinking"
	// A server with no chat model, and how to get one
	// (transport.NoModelError, localserver.NoModelHint).
	pillNoModel      = "the server has no model"
	pillOllamaPull   = "run: ollama pull qwen3:4b"
	pillLMStudioLoad = "load a model in LM Studio (or run: lms load qwen3-4b)"
	pillLoadModel    = "load a chat model in the server"
	pillTextGenLoad  = "load one in text-generation-webui's Model tab"
	// A local server that wants its API key, and where it is
	// (transport.KeyNeededError, localserver.APIKeyHint).
	pillJanKey = "paste Jan's API key (Jan → Settings → Local API Server) into the preset's key"
)

// The pill's notices when speech cannot be heard; the app sets them
// (app/speech.go) and the pill shows them once.
const (
	NoAudioText     = "no audio device: speech shows in the bubble only"
	NoAudioFileText = "no audio device: speech is written to the --audio-out file only"
)

// pillWord translates a known segment; ok is false for any other.
func pillWord(s string) (string, bool) {
	switch s {
	case pillReady:
		return lang.L(pillReady), true
	case pillConnecting:
		return lang.L(pillConnecting), true
	case pillReconnecting:
		return lang.L(pillReconnecting), true
	case pillKeyRejected:
		return lang.L(pillKeyRejected), true
	case pillOffline:
		return lang.L(pillOffline), true
	case pillInvalid:
		return lang.L(pillInvalid), true
	case pillClosed:
		return lang.L(pillClosed), true
	case pillRateLimited:
		return lang.L(pillRateLimited), true
	case pillRetrying:
		return lang.L(pillRetrying), true
	case pillRetry:
		return lang.L(pillRetry), true
	case pillThinking:
		return lang.L(pillThinking), true
	case pet.OfflineText:
		return lang.L(pet.OfflineText), true
	case pet.TakenOverText:
		return lang.L(pet.TakenOverText), true
	case NoAudioText:
		return lang.L(NoAudioText), true
	case NoAudioFileText:
		return lang.L(NoAudioFileText), true
	case voice.StatusListening:
		return lang.L(voice.StatusListening), true
	case voice.StatusTranscribing:
		return lang.L(voice.StatusTranscribing), true
	case pillNoModel:
		return lang.L(pillNoModel), true
	case pillOllamaPull:
		return lang.L(pillOllamaPull), true
	case pillLMStudioLoad:
		return lang.L(pillLMStudioLoad), true
	case pillLoadModel:
		return lang.L(pillLoadModel), true
	case pillTextGenLoad:
		return lang.L(pillTextGenLoad), true
	case pillJanKey:
		return lang.L(pillJanKey), true
	}
	return s, false
}

var (
	countdown = regexp.MustCompile(`^(.+) in (\d+) s$`)
	toolState = regexp.MustCompile(`^(\S+) (running|done|failed)$`)
	modelName = regexp.MustCompile(`^model (.+)$`)
	// A server with no chat model, and how to get one
	// (transport.NoModelError, localserver.NoModelHint).
	noModel       = regexp.MustCompile(`^(.+) has no model$`)
	noModelLoaded = regexp.MustCompile(`^(.+) has no model loaded$`)
	loadIn        = regexp.MustCompile(`^load a chat model in (.+)$`)
	// A local server that wants its API key, and where it is
	// (transport.KeyNeededError, localserver.APIKeyHint).
	needsKey = regexp.MustCompile(`^(.+) needs its API key$`)
	pasteKey = regexp.MustCompile(`^paste (.+)'s API key into the preset's key$`)
)

// Pill translates the pill's or the plate's English text.
func Pill(s string) string {
	if s == "" {
		return ""
	}
	parts := strings.Split(s, " · ")
	for i, p := range parts {
		parts[i] = translateSegment(p)
	}
	return strings.Join(parts, " · ")
}

func translateSegment(p string) string {
	if t, ok := pillWord(p); ok {
		return t
	}
	if m := countdown.FindStringSubmatch(p); m != nil {
		if what, ok := pillWord(m[1]); ok {
			return lang.L("{{.What}} in {{.N}} s", map[string]any{"What": what, "N": m[2]})
		}
	}
	if m := toolState.FindStringSubmatch(p); m != nil {
		switch m[2] {
		case "running":
			return lang.L("{{.Tool}} running", map[string]any{"Tool": m[1]})
		case "done":
			return lang.L("{{.Tool}} done", map[string]any{"Tool": m[1]})
		case "failed":
			return lang.L("{{.Tool}} failed", map[string]any{"Tool": m[1]})
		}
	}
	if m := needsKey.FindStringSubmatch(p); m != nil {
		return lang.L("{{.Name}} needs its API key", map[string]any{"Name": m[1]})
	}
	if m := pasteKey.FindStringSubmatch(p); m != nil {
		return lang.L("paste {{.Name}}'s API key into the preset's key", map[string]any{"Name": m[1]})
	}
	if m := noModel.FindStringSubmatch(p); m != nil {
		return lang.L("{{.Name}} has no model", map[string]any{"Name": m[1]})
	}
	if m := noModelLoaded.FindStringSubmatch(p); m != nil {
		return lang.L("{{.Name}} has no model loaded", map[string]any{"Name": m[1]})
	}
	if m := loadIn.FindStringSubmatch(p); m != nil {
		return lang.L("load a chat model in {{.Kind}}", map[string]any{"Kind": m[1]})
	}
	if m := modelName.FindStringSubmatch(p); m != nil {
		return lang.L("model {{.Name}}", map[string]any{"Name": m[1]})
	}
	return p
}
