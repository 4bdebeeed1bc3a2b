package localserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"yui/transport/localserver/localservertest"
	"yui/transport/request/requesttest"
)

// The contract between the chat servers people run and the scan: each row
// is one server and version, played by its fake in
// transport/request/requesttest (localservers.go, written from that
// server's code and citing it), with what Scan must report of it. Adding
// a server is adding a row here and a fake there. The speech and
// transcription servers the chat scan must not take for a chat server are
// played by their one fake, localservertest's (speech names its row).

type contract struct {
	name string
	kind string // the fake's requesttest.Local* kind; "" for a speech row
	// speech is the localservertest.Servers row of a server that is no
	// chat server; nil for a chat server's row.
	speech *localservertest.Server
	key    string   // the key the server was started with
	serve  []string // the models it has
	// want is what Scan reports; nil when it must find no chat server.
	want *Server
	hint string // Server.Hint
}

func contracts() []contract {
	return []contract{
		{name: "Ollama, a chat model and an embedding model", kind: requesttest.LocalOllama, serve: []string{"nomic-embed-text:latest", "qwen3:8b"},
			want: &Server{Kind: Ollama, Models: []string{"qwen3:8b"}, Model: "qwen3:8b"}},
		{name: "Ollama, nothing pulled", kind: requesttest.LocalOllama,
			want: &Server{Kind: Ollama}, hint: "run: ollama pull qwen3:4b"},
		{name: "LM Studio, an embedding model listed first", kind: requesttest.LocalLMStudio, serve: []string{"text-embedding-nomic-embed-text-v1.5", "vectors-x-embed", "qwen3-4b"},
			want: &Server{Kind: LMStudio, Models: []string{"qwen3-4b"}, Model: "qwen3-4b"}},
		{name: "LM Studio, nothing downloaded", kind: requesttest.LocalLMStudio,
			want: &Server{Kind: LMStudio}, hint: "load a model in LM Studio (or run: lms load qwen3-4b)"},
		{name: "llama.cpp since April 2026", kind: requesttest.LocalLlamaCpp, serve: []string{"Qwen3-4B-Q4_K_M.gguf"},
			want: &Server{Kind: LlamaCpp, Models: []string{"Qwen3-4B-Q4_K_M.gguf"}, Model: "Qwen3-4B-Q4_K_M.gguf"}},
		{name: "llama.cpp since April 2026, with --api-key", kind: requesttest.LocalLlamaCpp, key: "sk-local", serve: []string{"Qwen3-4B-Q4_K_M.gguf"},
			want: &Server{Kind: LlamaCpp, Models: []string{"Qwen3-4B-Q4_K_M.gguf"}, Model: "Qwen3-4B-Q4_K_M.gguf", NeedsKey: true},
			hint: "paste llama.cpp's API key into the preset's key"},
		{name: "llama.cpp router with no model", kind: requesttest.LocalLlamaCpp,
			want: &Server{Kind: LlamaCpp}, hint: "load a chat model in llama.cpp"},
		{name: "llama.cpp before April 2026 (answers /api/tags)", kind: requesttest.LocalLlamaCppOld, serve: []string{"qwen3-4b.gguf"},
			want: &Server{Kind: LlamaCpp, Models: []string{"qwen3-4b.gguf"}, Model: "qwen3-4b.gguf"}},
		{name: "KoboldCpp", kind: requesttest.LocalKoboldCpp, serve: []string{"Qwen3-4B"},
			want: &Server{Kind: KoboldCpp, Models: []string{"koboldcpp/Qwen3-4B"}, Model: "koboldcpp/Qwen3-4B"}},
		{name: "KoboldCpp with no model loaded", kind: requesttest.LocalKoboldCpp,
			want: &Server{Kind: KoboldCpp, NoneLoaded: true}, hint: "load a chat model in KoboldCpp"},
		{name: "vLLM", kind: requesttest.LocalVLLM, serve: []string{"Qwen/Qwen3-4B"},
			want: &Server{Kind: VLLM, Models: []string{"Qwen/Qwen3-4B"}, Model: "Qwen/Qwen3-4B"}},
		{name: "vLLM with --api-key", kind: requesttest.LocalVLLM, key: "sk-vllm", serve: []string{"Qwen/Qwen3-4B"},
			want: &Server{Kind: VLLM, NeedsKey: true}, hint: "paste vLLM's API key into the preset's key"},
		{name: "Jan without a key", kind: requesttest.LocalJan, serve: []string{"Jan-v1-4B-Q4_K_M"},
			want: &Server{Kind: Jan, Models: []string{"Jan-v1-4B-Q4_K_M"}, Model: "Jan-v1-4B-Q4_K_M"}},
		{name: "Jan with its API key (0.5.18 and later)", kind: requesttest.LocalJan, key: "jan-key", serve: []string{"Jan-v1-4B-Q4_K_M"},
			want: &Server{Kind: Jan, NeedsKey: true}, hint: "paste Jan's API key (Jan → Settings → Local API Server) into the preset's key"},
		{name: "text-generation-webui with a model loaded", kind: requesttest.LocalTextGen, serve: []string{"Qwen3-4B-Q4_K_M.gguf"},
			want: &Server{Kind: TextGen, Models: []string{"Qwen3-4B-Q4_K_M.gguf"}, Model: "Qwen3-4B-Q4_K_M.gguf"}},
		{name: "text-generation-webui with no model loaded", kind: requesttest.LocalTextGen,
			want: &Server{Kind: TextGen, NoneLoaded: true}, hint: "load one in text-generation-webui's Model tab"},
		{name: "GPT4All", kind: requesttest.LocalGPT4All, serve: []string{"Llama 3.2 3B Instruct"},
			want: &Server{Kind: GPT4All, Models: []string{"Llama 3.2 3B Instruct"}, Model: "Llama 3.2 3B Instruct"}},
		{name: "speaches is no chat server", speech: speechRow("speaches (Kokoro and Whisper)")},
		{name: "speaches with a Piper voice is no chat server", speech: speechRow("speaches (Piper voice)")},
		{name: "whisper.cpp's server is no chat server", speech: speechRow("whisper.cpp server")},
	}
}

// speechRow is the localservertest.Servers row named name; nil (and the
// contract tests fail on it) when there is none.
func speechRow(name string) *localservertest.Server {
	for _, s := range localservertest.Servers() {
		if s.Name == name {
			return &s
		}
	}
	return nil
}

// kindPort is what a row's fake plays, as Scan would name it, and its
// usual port; ok is false for a row with no fake.
func (c contract) kindPort() (name string, port int, ok bool) {
	if c.speech != nil {
		return c.speech.Kind, c.speech.Port, true
	}
	fl, ok := requesttest.FlavorOf(c.kind)
	return fl.Name, fl.Port, ok
}

// serveFake serves a contract's fake on a free loopback port; the Local
// is nil for a speech row.
func serveFake(t *testing.T, c contract) (*requesttest.Local, int) {
	t.Helper()
	var f *requesttest.Local
	var h http.Handler
	if c.speech != nil {
		h = c.speech.New()
	} else {
		f = requesttest.NewLocal(c.kind, c.serve...)
		f.Key = c.key
		h = f
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return f, port
}

// usualKind is who KnownPorts expects on a port.
func usualKind(port int) Kind {
	for _, p := range KnownPorts() {
		if p.Port == port {
			return p.Kind
		}
	}
	return ""
}

// Each server is named, listed and hinted as it is, whether on its usual
// port or on one another server usually holds: the port never decides
// when the server's answers do.
func TestScanContract(t *testing.T) {
	for _, c := range contracts() {
		t.Run(c.name, func(t *testing.T) {
			name, usual, ok := c.kindPort()
			if !ok || (c.speech == nil) == (c.kind == "") {
				t.Fatalf("no fake for %q", c.name)
			}
			_, port := serveFake(t, c)
			for _, owner := range []Kind{usualKind(usual), "", Ollama, GPT4All} {
				got := Scan(context.Background(), Options{Ports: []Port{{Port: port, Kind: owner}}})
				if c.want == nil {
					if len(got) != 0 {
						t.Fatalf("port owned by %q: found %+v, want no chat server", owner, got)
					}
					continue
				}
				if len(got) != 1 {
					t.Fatalf("port owned by %q: found %d servers, want 1", owner, len(got))
				}
				s, w := got[0], *c.want
				if s.Kind != w.Kind || s.Model != w.Model || !slices.Equal(s.Models, w.Models) || s.NeedsKey != w.NeedsKey || s.NoneLoaded != w.NoneLoaded {
					t.Errorf("port owned by %q: got %s %q %v key=%v none=%v, want %s %q %v key=%v none=%v", owner,
						s.Kind, s.Model, s.Models, s.NeedsKey, s.NoneLoaded, w.Kind, w.Model, w.Models, w.NeedsKey, w.NoneLoaded)
				}
				if s.Hint() != c.hint {
					t.Errorf("port owned by %q: hint %q, want %q", owner, s.Hint(), c.hint)
				}
				if string(s.Kind) != name {
					t.Errorf("named %q; the fake plays %q", s.Kind, name)
				}
				if s.URL != "http://127.0.0.1:"+strconv.Itoa(port)+"/v1" {
					t.Errorf("url %q", s.URL)
				}
			}
		})
	}
}

// No probe is written from the same idea as one fake alone: every probe
// is run against every server's fake, and a probe that takes another
// server's answer for its own server's fails here, as does one that no
// fake answers (a sign nobody gives).
func TestProbesNameOnlyTheirServer(t *testing.T) {
	type served struct {
		kind Kind // what the fake plays, as Scan names it
		root string
	}
	var fakes []served
	for _, c := range contracts() {
		name, _, _ := c.kindPort()
		_, port := serveFake(t, c)
		fakes = append(fakes, served{Kind(name), "http://127.0.0.1:" + strconv.Itoa(port)})
	}
	c := Options{}.client()
	for _, p := range probes() {
		hits := 0
		for _, f := range fakes {
			a := fetch(context.Background(), c, f.root+p.path, maxBody)
			if !p.match(a) {
				continue
			}
			hits++
			if f.kind != p.kind {
				t.Errorf("the %s probe at %s takes %s's answer (%d %.80s)", p.kind, p.path, f.kind, a.status, a.body)
			}
		}
		if hits == 0 {
			t.Errorf("the %s probe at %s matches no server's fake", p.kind, p.path)
		}
	}
}

// sourceRE is a citation: owner/repository, then a file path, then the
// function or route in parentheses.
var sourceRE = regexp.MustCompile(`^(closed source: .+|[\w.-]+/[\w.-]+ [\w./-]+\.\w+ \(.+\).*)$`)

// Every fake says which code it was written from, and every server the
// scan can name has one.
func TestFakesCiteTheirCode(t *testing.T) {
	named := map[string]bool{}
	for _, f := range requesttest.Flavors() {
		if !sourceRE.MatchString(f.Source) {
			t.Errorf("%s: the fake cites %q, not a repository, file and function", f.Kind, f.Source)
		}
		if f.Version == "" || f.Port == 0 {
			t.Errorf("%s: no version or port", f.Kind)
		}
		named[f.Name] = true
	}
	for _, p := range KnownPorts() {
		if !named[string(p.Kind)] {
			t.Errorf("%s has no fake", p.Kind)
		}
	}
	rows := map[string]bool{}
	for _, c := range contracts() {
		rows[c.kind] = true
		if c.speech != nil && !c.speech.Source.Complete() {
			t.Errorf("%s: its fake cites %+v, not a repository, version, file and function", c.name, c.speech.Source)
		}
	}
	for _, f := range requesttest.Flavors() {
		if !rows[f.Kind] {
			t.Errorf("%s has a fake but no contract row", f.Kind)
		}
	}
}

// The fakes answer what their servers answer to what Yui sends besides
// the probes: a chat turn reaches the model; a wrong method or unknown
// path gets the server's own error.
func TestFakesAnswerAsTheirServers(t *testing.T) {
	for _, c := range []struct {
		kind, method, path string
		status             int
		body               string
	}{
		{requesttest.LocalOllama, http.MethodGet, "/nope", 404, "404 page not found"},
		{requesttest.LocalOllama, http.MethodPost, "/api/tags", 405, "405 method not allowed"},
		{requesttest.LocalLMStudio, http.MethodGet, "/api/tags", 200, `{"error":"Unexpected endpoint or method. (GET /api/tags)"}`},
		{requesttest.LocalLlamaCpp, http.MethodGet, "/api/tags", 404, `"not_found_error"`},
		{requesttest.LocalLlamaCppOld, http.MethodGet, "/api/tags", 200, `"owned_by":"llamacpp"`},
		{requesttest.LocalKoboldCpp, http.MethodGet, "/api/tags", 200, `"family":"koboldcpp"`},
		{requesttest.LocalKoboldCpp, http.MethodGet, "/nope", 404, "this endpoint does not exist"},
		{requesttest.LocalVLLM, http.MethodGet, "/nope", 404, `{"detail":"Not Found"}`},
		{requesttest.LocalJan, http.MethodGet, "/v1/nope", 404, "Not Found"},
		{requesttest.LocalTextGen, http.MethodPost, "/v1/models", 405, `{"detail":"Method Not Allowed"}`},
		{requesttest.LocalGPT4All, http.MethodGet, "/nope", 404, ""},
	} {
		t.Run(c.kind+" "+c.method+" "+c.path, func(t *testing.T) {
			_, port := serveFake(t, contract{kind: c.kind, serve: []string{"m"}})
			req, _ := http.NewRequest(c.method, "http://127.0.0.1:"+strconv.Itoa(port)+c.path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b strings.Builder
			_, _ = io.Copy(&b, resp.Body)
			if resp.StatusCode != c.status || !strings.Contains(b.String(), c.body) {
				t.Errorf("got %d %q, want %d with %q", resp.StatusCode, b.String(), c.status, c.body)
			}
		})
	}
	for _, c := range contracts() {
		if c.want == nil || c.want.Model == "" || c.want.NeedsKey {
			continue
		}
		f, port := serveFake(t, c)
		body := `{"model":"` + c.want.Model + `","stream":true,"messages":[{"role":"user","content":"hi"}]}`
		resp, err := http.Post("http://127.0.0.1:"+strconv.Itoa(port)+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		_, _ = io.Copy(&b, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(b.String(), "Found you.") || !slices.Equal(f.Asked(), []string{c.want.Model}) {
			t.Errorf("%s: a chat turn got %d %q, asked %v", c.name, resp.StatusCode, b.String(), f.Asked())
		}
	}
}
