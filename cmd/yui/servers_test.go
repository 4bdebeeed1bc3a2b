package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"yui/transport/localserver/localservertest"
	"yui/transport/request/requesttest"
)

// serverFakes: every server's fake from its code, Ollama's
// (transport/request/requesttest) and the speech and transcription
// servers' (localservertest).
var serverFakes = map[string]http.Handler{
	"ollama":      requesttest.NewLocal(requesttest.LocalOllama, "qwen3:4b"),
	"kokoro":      &localservertest.Kokoro{Voices: []string{"af_bella", "af_sky"}},
	"whisper.cpp": &localservertest.WhisperCpp{},
	"speaches":    &localservertest.Speaches{},
}

func TestServersListsEveryKind(t *testing.T) {
	var ports []string
	urls := map[string]string{}
	for _, name := range []string{"ollama", "kokoro", "whisper.cpp", "speaches"} {
		srv := httptest.NewServer(serverFakes[name])
		t.Cleanup(srv.Close)
		ports = append(ports, strings.TrimPrefix(srv.URL, "http://127.0.0.1:"))
		urls[name] = srv.URL
	}
	var out, errOut bytes.Buffer
	if code := runServers([]string{"--ports", strings.Join(ports, ",")}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want := []string{
		"chat\tOllama\t" + urls["ollama"] + "/v1\tmodels: qwen3:4b",
		"speech\tKokoro-FastAPI\t" + urls["kokoro"] + "/v1\tvoices: af_bella, af_sky",
		"transcription\twhisper.cpp\t" + urls["whisper.cpp"] + "\t-",
		"speech\tspeaches\t" + urls["speaches"] + "/v1\tvoices: af_heart, af_bella, am_adam",
		"transcription\tspeaches\t" + urls["speaches"] + "/v1\tmodels: Systran/faster-distil-whisper-small.en",
	}
	if got := strings.TrimSpace(out.String()); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

func TestServersNoneIsExitZero(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	port := strings.TrimPrefix(closed.URL, "http://127.0.0.1:")
	closed.Close()
	var out, errOut bytes.Buffer
	if code := runServers([]string{"--ports", port}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "# no local servers found") {
		t.Errorf("output %q", out.String())
	}
	if code := runServers([]string{"--ports", "x"}, &out, &errOut); code != 2 {
		t.Errorf("a bad port list: exit %d", code)
	}
}

// yui voices --engine openai --base-url lists a Kokoro server's own
// voices with their languages; a server without a list gives the usual
// names, and exit 0 either way.
func TestVoicesListsAKokoroServersVoices(t *testing.T) {
	srv := httptest.NewServer(serverFakes["kokoro"])
	defer srv.Close()
	var out, errOut bytes.Buffer
	if code := runVoices([]string{"--engine", "openai", "--base-url", srv.URL + "/v1"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if want := "af_bella\ten-US\tBella\naf_sky\ten-US\tSky\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	out.Reset()
	if code := runVoices([]string{"--engine", "openai", "--base-url", other.URL + "/v1"}, &out, &errOut); code != 0 ||
		!strings.HasPrefix(out.String(), "alloy\t") {
		t.Errorf("a server with no list: exit %d, printed %q", code, out.String())
	}
}

// Each chat server, alone, is named once and as it is by `yui servers`,
// as its fake (written from its code, transport/request/requesttest)
// answers; the servers that are not chat servers (their fakes are
// localservertest's) are not listed as one.
func TestServersNamesEachChatServerOnce(t *testing.T) {
	for _, c := range []struct {
		kind, key string
		models    []string
		want      string       // the line's name and offers; "" for no chat line
		fake      http.Handler // a speech server's fake (localservertest) instead of kind's
	}{
		{requesttest.LocalOllama, "", []string{"qwen3:8b"}, "Ollama\t%s/v1\tmodels: qwen3:8b", nil},
		{requesttest.LocalOllama, "", nil, "Ollama\t%s/v1\t-", nil},
		{requesttest.LocalLMStudio, "", []string{"qwen3-4b"}, "LM Studio\t%s/v1\tmodels: qwen3-4b", nil},
		{requesttest.LocalLlamaCpp, "", []string{"m.gguf"}, "llama.cpp\t%s/v1\tmodels: m.gguf", nil},
		{requesttest.LocalLlamaCpp, "k", []string{"m.gguf"}, "llama.cpp\t%s/v1\tmodels: m.gguf (needs its API key)", nil},
		{requesttest.LocalLlamaCppOld, "", []string{"m.gguf"}, "llama.cpp\t%s/v1\tmodels: m.gguf", nil},
		{requesttest.LocalKoboldCpp, "", []string{"Qwen3-4B"}, "KoboldCpp\t%s/v1\tmodels: koboldcpp/Qwen3-4B", nil},
		{requesttest.LocalKoboldCpp, "", nil, "KoboldCpp\t%s/v1\tno model loaded", nil},
		{requesttest.LocalVLLM, "", []string{"Qwen/Qwen3-4B"}, "vLLM\t%s/v1\tmodels: Qwen/Qwen3-4B", nil},
		{requesttest.LocalJan, "", []string{"Jan-v1-4B"}, "Jan\t%s/v1\tmodels: Jan-v1-4B", nil},
		{requesttest.LocalJan, "k", []string{"Jan-v1-4B"}, "Jan\t%s/v1\tneeds its API key", nil},
		{requesttest.LocalTextGen, "", nil, "text-generation-webui\t%s/v1\tno model loaded", nil},
		{requesttest.LocalGPT4All, "", []string{"Llama 3.2 3B Instruct"}, "GPT4All\t%s/v1\tmodels: Llama 3.2 3B Instruct", nil},
		{"speaches", "", nil, "", serverFakes["speaches"]},
		{"whisper.cpp", "", nil, "", serverFakes["whisper.cpp"]},
	} {
		t.Run(c.kind+"/"+strings.Join(c.models, ","), func(t *testing.T) {
			h := c.fake
			if h == nil {
				f := requesttest.NewLocal(c.kind, c.models...)
				f.Key = c.key
				h = f
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			var out, errOut bytes.Buffer
			if code := runServers([]string{"--ports", strings.TrimPrefix(srv.URL, "http://127.0.0.1:")}, &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			var chat []string
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				if name, ok := strings.CutPrefix(l, "chat\t"); ok {
					chat = append(chat, name)
				}
			}
			switch {
			case c.want == "" && len(chat) != 0:
				t.Errorf("listed as a chat server: %q", chat)
			case c.want != "" && (len(chat) != 1 || chat[0] != fmt.Sprintf(c.want, srv.URL)):
				t.Errorf("chat lines %q, want one %q", chat, fmt.Sprintf(c.want, srv.URL))
			}
		})
	}
}
