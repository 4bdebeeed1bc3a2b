package redact

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://api.example.com/v1", "https://api.example.com/v1"},
		{"wss://user:sk-secret@host:8646/ws", "wss://xxx@host:8646/ws"},
		{"http://sk-only@127.0.0.1/", "http://xxx@127.0.0.1/"},
		{"ftp://h/p?q=1", "ftp://h/p?q=1"},
	} {
		u, err := url.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := URL(u); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestURLError(t *testing.T) {
	cause := errors.New("dial tcp 127.0.0.1:1: connect: connection refused")
	ue := &url.Error{Op: "Post", URL: "http://u:sk-secret@127.0.0.1:1/v1/audio/speech", Err: cause}
	for _, c := range []struct {
		name string
		in   error
		want error
	}{
		{"url error", ue, cause},
		{"other error", cause, cause},
		{"nil", nil, nil},
	} {
		got := URLError(c.in)
		if got != c.want {
			t.Errorf("%s: URLError = %v, want %v", c.name, got, c.want)
		}
		if got != nil && strings.Contains(got.Error(), "sk-secret") {
			t.Errorf("%s: %q still holds the URL", c.name, got)
		}
	}
}
