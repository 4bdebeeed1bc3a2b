package speech

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// AllTalk is told the app's language in the code XTTS takes, English for
// one it does not speak.
func TestAllTalkLanguage(t *testing.T) {
	for tag, want := range map[string]string{
		"en": "en", "ja": "ja", "ko": "ko", "zh-Hans": "zh-cn", "zh": "zh-cn", "es": "es", "de": "de",
		"pt-BR": "pt", "fr_FR": "fr", "": "en", "sv": "en", "yue": "en",
	} {
		if got := AllTalkLanguage(tag); got != want {
			t.Errorf("AllTalkLanguage(%q) = %q, want %q", tag, got, want)
		}
	}
}

// The request carries the engine's language, mapped when it is a tag
// AllTalk would not take.
func TestAllTalkSendsItsLanguage(t *testing.T) {
	for lang, want := range map[string]string{"": "en", "ja": "ja", "zh-Hans": "zh-cn", "sv": "en"} {
		got := make(chan string, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got <- r.URL.Query().Get("language")
			w.Header().Set("Content-Type", "audio/wav")
			w.Write(knownWAV(24000, 2400, 0))
		}))
		body, _, err := (&AllTalk{BaseURL: srv.URL, Language: lang, Client: srv.Client()}).Open(context.Background(), "Hello.")
		if err != nil {
			srv.Close()
			t.Fatalf("%q: %v", lang, err)
		}
		io.Copy(io.Discard, body)
		body.Close()
		srv.Close()
		if l := <-got; l != want {
			t.Errorf("Language %q sent language=%q, want %q", lang, l, want)
		}
	}
}
