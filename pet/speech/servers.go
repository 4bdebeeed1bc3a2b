package speech

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"yui/transport/apierror"
	"yui/transport/redact"
)

// The engines of the local speech servers people run (docs/voices.md):
// GPT-SoVITS (gptsovits.go) and Piper (piper.go). Each engine keeps one
// http.Client for its server, with keep-alive, so the next sentence's
// request reuses the connection the last one opened.

// Engine names of the local servers' engines (pet/settings/engines.go
// validates the same names).
const (
	EngineGPTSoVITS = "gpt-sovits"
	EnginePiper     = "piper"
)

// serverHeaderWait bounds the wait for a local server's answer to begin:
// a GPT-SoVITS on a CPU takes seconds before its first chunk.
const serverHeaderWait = 60 * time.Second

// NewServerClient is the client an engine keeps for its server: keep-alive,
// a bound on the wait for an answer to begin and none on the answer
// itself, which streams for as long as the sentence lasts.
func NewServerClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		ResponseHeaderTimeout: serverHeaderWait,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   2,
	}}
}

// serverURL is base (an http(s) URL) with path in place of its own.
func serverURL(base, path string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("speech base URL %q is not an http(s) URL", base)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	return u, nil
}

// send runs req on c and returns the body of a 200 answer; any other
// status fails with the server's own message.
func send(c *http.Client, req *http.Request, what string) (io.ReadCloser, error) {
	if c == nil {
		c = defaultTTSClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, redact.URLError(err))
	}
	if resp.StatusCode == http.StatusOK {
		return resp.Body, nil
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return nil, &statusError{what: what, status: resp.StatusCode, text: serverMessage(msg)}
}

// statusError is a server's refusal.
type statusError struct {
	what   string
	status int
	text   string
}

func (e *statusError) Error() string {
	text := e.text
	if text == http.StatusText(e.status) {
		text = "" // a bare "Internal Server Error" says nothing the status does not
	}
	return e.what + ": " + apierror.FormatStatus(e.status, text)
}

// serverMessage is an error answer's text: the OpenAI shapes and
// FastAPI's detail (apierror), with GPT-SoVITS's "Exception" after its
// "message" ({"message":"tts failed","Exception":"…"}).
func serverMessage(body []byte) string {
	if h, ok := htmlHeading(body); ok {
		return h // a framework's error page (Flask's): its heading
	}
	var detail struct {
		Detail struct {
			Message string `json:"message"`
		} `json:"detail"`
	}
	if decodeJSON(body, &detail) == nil && detail.Detail.Message != "" {
		// Kokoro-FastAPI's HTTPException detail, an object
		// (api/src/routers/openai_compatible.py's create_speech).
		return detail.Detail.Message
	}
	text := apierror.ServerError(body).Text
	var v struct {
		Exception string `json:"Exception"`
	}
	if decodeJSON(body, &v) == nil && v.Exception != "" && !strings.Contains(text, v.Exception) {
		text = strings.TrimSpace(text + ": " + v.Exception)
	}
	return text
}

func isStatus(err error, status int) bool {
	var se *statusError
	return errors.As(err, &se) && se.status == status
}

// decodeJSON is json.Unmarshal for the error answers.
func decodeJSON(b []byte, v any) error { return json.Unmarshal(b, v) }

// htmlHeading is the heading of an HTML page (its h1, else its title);
// false when body is not HTML.
func htmlHeading(body []byte) (string, bool) {
	t := strings.TrimSpace(string(body))
	low := asciiLower(t) // byte for byte, so that its indexes are t's
	if !strings.HasPrefix(low, "<!doctype html") && !strings.HasPrefix(low, "<html") {
		return "", false
	}
	for _, tag := range []string{"h1", "title"} {
		i := strings.Index(low, "<"+tag+">")
		j := strings.Index(low, "</"+tag+">")
		if i >= 0 && j > i {
			return strings.TrimSpace(t[i+len(tag)+2 : j]), true
		}
	}
	return "", true
}

// asciiLower lowers A–Z alone and keeps every other byte, so the result
// has t's length: strings.ToLower turns an invalid byte into three.
func asciiLower(t string) string {
	b := []byte(t)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
