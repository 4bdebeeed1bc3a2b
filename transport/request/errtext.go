package request

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"unicode/utf8"

	"yui/transport"
)

// MaxErrorText is the longest error text shown for a failed turn, in
// characters (push-transport.md: one line cut at 200 characters).
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
	// Cut as push cuts an error frame's message (push-transport.md: "one
	// line cut at 200 characters"), so both read the same.
	return transport.OneLine(s, MaxErrorText)
}

// Cut cuts s to at most max characters, ending in "…" when it was longer.
func Cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// ServerText extracts the server's message from an error body: the
// OpenAI shape {"error":{"message":...}}, {"error":"..."}, {"message":...},
// {"detail":...}, or the body itself when it is not JSON. It also returns a
// numeric status found in the error object ("code" or "status"), 0 if none.
func ServerText(body []byte) (text string, status int) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
		Code    json.RawMessage `json:"code"`
		Status  json.RawMessage `json:"status"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return transport.OneLine(string(body), 0), 0
	}
	if len(v.Error) > 0 && v.Error[0] == '{' {
		var inner struct {
			Message json.RawMessage `json:"message"`
			Code    json.RawMessage `json:"code"`
			Status  json.RawMessage `json:"status"`
		}
		if json.Unmarshal(v.Error, &inner) == nil {
			return stringOf(inner.Message), statusOf(inner.Code, inner.Status)
		}
	}
	for _, raw := range []json.RawMessage{v.Error, v.Message, v.Detail} {
		if t := stringOf(raw); t != "" {
			return t, statusOf(v.Code, v.Status)
		}
	}
	return "", statusOf(v.Code, v.Status)
}

// stringOf reads a JSON string, or gives compact JSON for other values.
func stringOf(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return transport.OneLine(s, 0)
	}
	return transport.OneLine(string(raw), 0)
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
