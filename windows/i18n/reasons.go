package i18n

import (
	"fyne.io/fyne/v2/lang"

	"yui/pet/settings"
)

// reason is code's text in the language in use, the English being the
// key as everywhere (pet/settings/reasons.go has the same English);
// ok is false for a code not listed here. Each group of codes has its own
// switch, every text a literal lang.L call, as windows/i18n/keys_test.go
// finds the keys to translate.
func reason(code settings.Code, args map[string]any) (s string, ok bool) {
	for _, group := range []func(settings.Code, map[string]any) (string, bool){
		valueReason, presetReason, voiceReason, scheduleReason, serverReason, fileReason,
	} {
		if s, ok := group(code, args); ok {
			return s, true
		}
	}
	return "", false
}

// valueReason is the reason for a value of the wrong form or out of range.
func valueReason(code settings.Code, args map[string]any) (string, bool) {
	switch code {
	case settings.CodeEmpty:
		return lang.L("is empty", args), true
	case settings.CodeNotURL:
		return lang.L("is not a valid URL", args), true
	case settings.CodeScheme:
		return lang.L("must start with one of {{.Schemes}}", args), true
	case settings.CodeSchemeFor:
		return lang.L("must start with one of {{.Schemes}} for {{.API}}", args), true
	case settings.CodeNoHost:
		return lang.L("has no host", args), true
	case settings.CodeHTTPURL:
		return lang.L("must be an http or https URL", args), true
	case settings.CodeOneOf:
		return lang.L("must be one of {{.Values}}", args), true
	case settings.CodeBetween:
		return lang.L("must be between {{.Min}} and {{.Max}}", args), true
	case settings.CodeZeroOrBetween:
		return lang.L("must be 0 (off) or {{.Min}} to {{.Max}}", args), true
	case settings.CodeUpTo:
		return lang.L("must be between 0 (off) and {{.Max}}", args), true
	case settings.CodeNegative:
		return lang.L("must not be negative", args), true
	case settings.CodeNotWholeNumber:
		return lang.L("must be a whole number", args), true
	case settings.CodeNotNumber:
		return lang.L("must be a number such as 1 or 1.25", args), true
	case settings.CodeOneLine:
		return lang.L("must be one line", args), true
	case settings.CodeTooMany:
		return lang.L("must have at most {{.Max}}", args), true
	case settings.CodeNoteLength:
		return lang.L("must be 1 to {{.Max}} characters", args), true
	case settings.CodeVersion:
		return lang.L("must be {{.Version}}", args), true
	}
	return "", false
}

// presetReason is the reason for a preset list or a preset's model refused.
func presetReason(code settings.Code, args map[string]any) (string, bool) {
	switch code {
	case settings.CodeNoPresets:
		return lang.L("at least one preset is needed", args), true
	case settings.CodeNoSuchPreset:
		return lang.L("names no preset", args), true
	case settings.CodeIDUsed:
		return lang.L("is used by another preset", args), true
	case settings.CodeModelNeeded:
		return lang.L("is needed for {{.API}}: pick one from the server's list", args), true
	}
	return "", false
}

// voiceReason is the reason for a speech or listening setting refused:
// an engine's, a device's, the wake words'.
func voiceReason(code settings.Code, args map[string]any) (string, bool) {
	switch code {
	case settings.CodeCommandRate:
		return lang.L("must be 0 (the command writes a WAV) or {{.Min}} to {{.Max}}", args), true
	case settings.CodeThreshold:
		return lang.L("must be between {{.Min}} and {{.Max}} dB (or 0, the default)", args), true
	case settings.CodeDevice:
		return lang.L("is not a device name", args), true
	case settings.CodeRefAudio:
		return lang.L("is needed for gpt-sovits: the clip whose voice it speaks in", args), true
	case settings.CodePiperModel:
		return lang.L("is needed for piper without a server: the voice model (.onnx), or a base URL of Piper's HTTP server", args), true
	case settings.CodeTooManyWords:
		return lang.L("must have at most {{.Max}} words", args), true
	case settings.CodeEmptyWord:
		return lang.L("has an empty word", args), true
	case settings.CodeLongWord:
		return lang.L("has a word longer than {{.Max}} characters", args), true
	case settings.CodeWordLineBreak:
		return lang.L("has a word with a line break", args), true
	}
	return "", false
}

// scheduleReason is the reason for a time of day or quiet hours refused.
func scheduleReason(code settings.Code, args map[string]any) (string, bool) {
	switch code {
	case settings.CodeClock:
		return lang.L("must be a time HH:MM, not {{.Value}}", args), true
	case settings.CodeQuietHours:
		return lang.L("must be HH:MM-HH:MM or empty, not {{.Value}}", args), true
	case settings.CodeSameStartEnd:
		return lang.L("must not start and end at the same time", args), true
	}
	return "", false
}

// serverReason is the reason for an MCP server or servers file refused.
func serverReason(code settings.Code, args map[string]any) (string, bool) {
	switch code {
	case settings.CodeServerName:
		return lang.L("a server's name must not be empty or hold __", args), true
	case settings.CodeServerNeeds:
		return lang.L("a server needs a command or a URL", args), true
	case settings.CodeServerBoth:
		return lang.L("a server has either a command or a URL, not both", args), true
	case settings.CodeMCPTimeout:
		return lang.L("must be 0 (60 s) to {{.Max}}", args), true
	case settings.CodeNoSuchServer:
		return lang.L("names no server {{.Name}}", args), true
	case settings.CodeNotMCPFile:
		return lang.L("not an MCP servers file: {{.Detail}}", args), true
	case settings.CodeNoMCPServers:
		return lang.L("the file names no mcpServers", args), true
	}
	return "", false
}

// fileReason is the reason for a settings file whose fields are of the
// wrong shape.
func fileReason(code settings.Code, args map[string]any) (string, bool) {
	switch code {
	case settings.CodeWrongType:
		return lang.L("has a field of the wrong type ({{.Detail}})", args), true
	case settings.CodeNotList:
		return lang.L("is not a list of the kind it should be", args), true
	}
	return "", false
}
