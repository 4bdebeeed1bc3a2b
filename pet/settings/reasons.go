package settings

import (
	"errors"
	"strings"
	"text/template"
)

// Code names why a value is refused. The settings window says it in the
// user's language (windows/i18n.Reason); this package has no translations
// (docs/product.md §1), only the English of each code for the log.
type Code string

// The codes of refused values. Each has an English template below whose
// {{.Names}} are the keys of the error's Args.
const (
	CodeEmpty          Code = "empty"
	CodeNotURL         Code = "not_url"
	CodeScheme         Code = "scheme"     // Schemes
	CodeSchemeFor      Code = "scheme_for" // Schemes, API
	CodeNoHost         Code = "no_host"
	CodeOneOf          Code = "one_of"  // Values
	CodeBetween        Code = "between" // Min, Max
	CodeZeroOrBetween  Code = "zero_or_between"
	CodeUpTo           Code = "up_to" // Max: 0 (off) to Max
	CodeNegative       Code = "negative"
	CodeVersion        Code = "version" // Version
	CodeNoPresets      Code = "no_presets"
	CodeNoSuchPreset   Code = "no_such_preset"
	CodeIDUsed         Code = "id_used"
	CodeModelNeeded    Code = "model_needed" // API
	CodeCommandRate    Code = "command_rate" // Min, Max
	CodeThreshold      Code = "threshold"    // Min, Max
	CodeDevice         Code = "device"
	CodeOneLine        Code = "one_line"
	CodeRefAudio       Code = "ref_audio"
	CodePiperModel     Code = "piper_model"
	CodeTooManyWords   Code = "too_many_words" // Max
	CodeEmptyWord      Code = "empty_word"
	CodeLongWord       Code = "long_word" // Max
	CodeWordLineBreak  Code = "word_line_break"
	CodeTooMany        Code = "too_many" // Max
	CodeClock          Code = "clock"    // Value
	CodeQuietHours     Code = "quiet_hours"
	CodeSameStartEnd   Code = "same_start_end"
	CodeNoteLength     Code = "note_length" // Max
	CodeServerName     Code = "server_name"
	CodeServerNeeds    Code = "server_needs"
	CodeServerBoth     Code = "server_both"
	CodeHTTPURL        Code = "http_url"
	CodeMCPTimeout     Code = "mcp_timeout" // Max
	CodeNoSuchServer   Code = "no_such_server"
	CodeWrongType      Code = "wrong_type" // Detail
	CodeNotList        Code = "not_list"
	CodeNotWholeNumber Code = "not_whole_number"
	CodeNotNumber      Code = "not_number"
	CodeNotMCPFile     Code = "not_mcp_file" // Detail
	CodeNoMCPServers   Code = "no_mcp_servers"
)

// english is the text of each code, a text/template over its Args.
var english = map[Code]string{
	CodeEmpty:          "is empty",
	CodeNotURL:         "is not a valid URL",
	CodeScheme:         "must start with one of {{.Schemes}}",
	CodeSchemeFor:      "must start with one of {{.Schemes}} for {{.API}}",
	CodeNoHost:         "has no host",
	CodeOneOf:          "must be one of {{.Values}}",
	CodeBetween:        "must be between {{.Min}} and {{.Max}}",
	CodeZeroOrBetween:  "must be 0 (off) or {{.Min}} to {{.Max}}",
	CodeUpTo:           "must be between 0 (off) and {{.Max}}",
	CodeNegative:       "must not be negative",
	CodeVersion:        "must be {{.Version}}",
	CodeNoPresets:      "at least one preset is needed",
	CodeNoSuchPreset:   "names no preset",
	CodeIDUsed:         "is used by another preset",
	CodeModelNeeded:    "is needed for {{.API}}: pick one from the server's list",
	CodeCommandRate:    "must be 0 (the command writes a WAV) or {{.Min}} to {{.Max}}",
	CodeThreshold:      "must be between {{.Min}} and {{.Max}} dB (or 0, the default)",
	CodeDevice:         "is not a device name",
	CodeOneLine:        "must be one line",
	CodeRefAudio:       "is needed for gpt-sovits: the clip whose voice it speaks in",
	CodePiperModel:     "is needed for piper without a server: the voice model (.onnx), or a base URL of Piper's HTTP server",
	CodeTooManyWords:   "must have at most {{.Max}} words",
	CodeEmptyWord:      "has an empty word",
	CodeLongWord:       "has a word longer than {{.Max}} characters",
	CodeWordLineBreak:  "has a word with a line break",
	CodeTooMany:        "must have at most {{.Max}}",
	CodeClock:          "must be a time HH:MM, not {{.Value}}",
	CodeQuietHours:     "must be HH:MM-HH:MM or empty, not {{.Value}}",
	CodeSameStartEnd:   "must not start and end at the same time",
	CodeNoteLength:     "must be 1 to {{.Max}} characters",
	CodeServerName:     "a server's name must not be empty or hold __",
	CodeServerNeeds:    "a server needs a command or a URL",
	CodeServerBoth:     "a server has either a command or a URL, not both",
	CodeHTTPURL:        "must be an http or https URL",
	CodeMCPTimeout:     "must be 0 (60 s) to {{.Max}}",
	CodeNoSuchServer:   "names no server {{.Name}}",
	CodeWrongType:      "has a field of the wrong type ({{.Detail}})",
	CodeNotList:        "is not a list of the kind it should be",
	CodeNotWholeNumber: "must be a whole number",
	CodeNotNumber:      "must be a number such as 1 or 1.25",
	CodeNotMCPFile:     "not an MCP servers file: {{.Detail}}",
	CodeNoMCPServers:   "the file names no mcpServers",
}

// Codes lists every code, for the windows' test that each is translated.
func Codes() []Code {
	out := make([]Code, 0, len(english))
	for c := range english {
		out = append(out, c)
	}
	return out
}

// Invalid is why a value is refused: a code and the named arguments of
// its text. Error is the English, for the log.
type Invalid struct {
	Code Code
	Args map[string]any
}

func (e *Invalid) Error() string { return English(e.Code, e.Args) }

// English is the English text of code with args.
func English(code Code, args map[string]any) string {
	t, ok := english[code]
	if !ok {
		return string(code)
	}
	tmpl, err := template.New("").Option("missingkey=zero").Parse(t)
	if err != nil {
		return t
	}
	var b strings.Builder
	if err := tmpl.Execute(&b, args); err != nil {
		return t
	}
	return b.String()
}

// invalid is an *Invalid of code with its arguments as name, value pairs.
func invalid(code Code, kv ...any) *Invalid {
	var args map[string]any
	if len(kv) > 0 {
		args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			args[kv[i].(string)] = kv[i+1]
		}
	}
	return &Invalid{Code: code, Args: args}
}

// oneOf is CodeOneOf for values, listed quoted.
func oneOf[S ~string](values ...S) *Invalid {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = `"` + string(v) + `"`
	}
	return invalid(CodeOneOf, "Values", strings.Join(q, ", "))
}

// between is CodeBetween from lo to hi.
func between(lo, hi any) *Invalid { return invalid(CodeBetween, "Min", lo, "Max", hi) }

// asInvalid is err's *Invalid; an error of another kind keeps its text.
func asInvalid(err error) *Invalid {
	var inv *Invalid
	if errors.As(err, &inv) {
		return inv
	}
	return invalid(CodeWrongType, "Detail", err.Error())
}

// fieldErr is the FieldError of a field of preset id ("" for a global one).
func fieldErr(id, field string, why *Invalid) FieldError {
	return FieldError{PresetID: id, Field: field, Code: why.Code, Args: why.Args}
}
