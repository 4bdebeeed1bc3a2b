// Package apierror reads the errors of OpenAI-style servers into one form:
// a StatusError carrying the HTTP status, the server's own message and its
// error code, read out of the error bodies providers send (ServerError),
// and ErrorText, the one line, cut at MaxErrorText characters, a failed
// turn shows the user (docs/protocol/push-transport.md).
//
// Its users are the request transports (transport/request,
// transport/chatcompletions, transport/responses), the speech servers
// (pet/speech/servers.go) and the transcription engines
// (pet/voice/openai.go, pet/voice/whispercpp.go), so that each one's
// failures read the same in the pet's error line and in the log. It
// imports no other layer, so every layer may use it.
package apierror

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"yui/transport/textcut"
)

// MaxErrorText is the longest error text shown for a failed turn, in
// characters (docs/protocol/push-transport.md: one line cut at 200 characters).
const MaxErrorText = 200

// StatusError is a failure the server reported: an HTTP error status on the
// request (HTTP true), or an error raised while reading the stream.
// Status is 0 when the error carries none.
type StatusError struct {
	Status int
	// Text is the server's own message, "" when it gave none.
	Text string
	// HTTP is true for an error status on the request itself.
	HTTP bool
	// Kind names a stream error event for the log ("error",
	// "response.failed", ...), "" otherwise.
	Kind string
	// Code is the server's error code or type ("rate_limit_exceeded",
	// "invalid_request_error"), for the log only.
	Code string
	// Context is the context size the error names in a field of its own
	// (llama.cpp's n_ctx), 0 when none.
	Context int
}

func (e *StatusError) Error() string {
	switch {
	case e.Kind != "" && e.Status == 0:
		return fmt.Sprintf("server sent %s: %s", e.Kind, e.Text)
	case e.Status == 0:
		return "server error: " + e.Text
	}
	return FormatStatus(e.Status, e.Text)
}

// ErrorText is the text shown for a failed turn (the table "What each chat
// transport carries"): status and server text of an HTTP error, except 401
// and 403; status and server text of a stream error that carries a status;
// "" (the generic text) for everything else, error events included.
func ErrorText(err error) string {
	var se *StatusError
	if !errors.As(err, &se) || se.Status == 0 || se.Kind != "" {
		return ""
	}
	if se.HTTP && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden) {
		return ""
	}
	return FormatStatus(se.Status, se.Text)
}

// FormatStatus formats a status and server text as one line of at most
// MaxErrorText characters: "429 Too Many Requests: rate limit reached".
func FormatStatus(status int, text string) string {
	s := fmt.Sprint(status)
	if st := http.StatusText(status); st != "" {
		s += " " + st
	}
	if text != "" {
		s += ": " + text
	}
	// Cut as push cuts an error frame's message (docs/protocol/push-transport.md: "one
	// line cut at 200 characters"), so both read the same.
	return textcut.OneLine(s, MaxErrorText)
}

// ServerError reads the server's error out of a body: an HTTP error body,
// the data of a stream event that carries an error, or a Responses object
// with its "error". It knows the shapes providers send:
// {"error":{"message","code","type"}} (OpenAI, Azure, DeepSeek, Groq, xAI,
// llama.cpp, OpenRouter), {"error":"..."} (Ollama), a top-level
// {"message","code","type"} (Mistral, vLLM, a Responses error event),
// {"detail":...} (FastAPI servers), a list holding one of these, or a body
// that is not JSON, taken as its text. Status is a numeric HTTP status found
// in "code" or "status", 0 if none; Code is the server's error code or type
// for the log.
func ServerError(body []byte) *StatusError {
	var list []json.RawMessage
	if json.Unmarshal(body, &list) == nil && len(list) > 0 {
		body = list[0]
	}
	var v errorObject
	if err := json.Unmarshal(body, &v); err != nil {
		return &StatusError{Text: textcut.Fold(string(body))}
	}
	if len(v.Error) > 0 && v.Error[0] == '{' {
		var inner errorObject
		if json.Unmarshal(v.Error, &inner) == nil {
			return inner.statusError(true)
		}
	}
	return v.statusError(false)
}

// errorObject is an error body or the error object inside one.
type errorObject struct {
	Error   json.RawMessage `json:"error"`
	Message json.RawMessage `json:"message"`
	Detail  json.RawMessage `json:"detail"`
	Code    json.RawMessage `json:"code"`
	Status  json.RawMessage `json:"status"`
	Type    json.RawMessage `json:"type"`
	NCtx    json.RawMessage `json:"n_ctx"`
}

// statusError reads the object. Its "type" names the error only inside an
// error object: at the top level it may be an event's type.
func (o *errorObject) statusError(inner bool) *StatusError {
	se := &StatusError{Status: statusOf(o.Code, o.Status), Code: stringOf(o.Code)}
	var n int
	if json.Unmarshal(o.NCtx, &n) == nil && n > 0 {
		se.Context = n
	}
	if se.Code == "" && inner {
		se.Code = stringOf(o.Type)
	}
	for _, raw := range []json.RawMessage{o.Message, o.Error, o.Detail} {
		if t := stringOf(raw); t != "" {
			se.Text = t
			break
		}
	}
	return se
}

// stringOf reads a JSON string, or gives compact JSON for other values.
func stringOf(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return textcut.Fold(s)
	}
	return textcut.Fold(string(raw))
}

// statusOf returns the first value that is an HTTP status number (100-599),
// as a number or a numeric string.
func statusOf(raws ...json.RawMessage) int {
	for _, raw := range raws {
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				continue
			}
			n = json.Number(s)
		}
		if i, err := n.Int64(); err == nil && i >= 100 && i <= 599 {
			return int(i)
		}
	}
	return 0
}
