package localserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// fake is a server answering the given paths with the given bodies.
func fake(t *testing.T, routes map[string]string) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return port
}

func list(ids ...string) string {
	var b strings.Builder
	b.WriteString(`{"object":"list","data":[`)
	for i, id := range ids {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id":"` + id + `","object":"model","owned_by":"me"}`)
	}
	b.WriteString("]}")
	return b.String()
}

func TestScan(t *testing.T) {
	cases := []struct {
		name   string
		routes map[string]string
		port   Kind // the port's usual owner
		kind   Kind
		model  string
		models int
	}{
		{"ollama by its tags, embedding first", map[string]string{
			"/v1/models": list("nomic-embed-text:latest", "qwen3:8b"),
			"/api/tags":  `{"models":[{"name":"nomic-embed-text:latest","details":{"family":"nomic-bert"}},{"name":"qwen3:8b","details":{"family":"qwen3"}}]}`,
			"/":          "Ollama is running",
		}, Jan, Ollama, "qwen3:8b", 1},
		{"ollama marks a bert family as embeddings", map[string]string{
			"/v1/models":   list("my-vectors", "llama3.2"),
			"/api/tags":    `{"models":[{"name":"my-vectors","details":{"families":["bert"]}},{"name":"llama3.2"}]}`,
			"/api/version": `{"version":"0.12.0"}`,
		}, "", Ollama, "llama3.2", 1},
		{"ollama with no models", map[string]string{
			"/v1/models": `{"object":"list","data":null}`,
			"/api/tags":  `{"models":[]}`,
			"/":          "Ollama is running",
		}, "", Ollama, "", 0},
		{"lm studio by its v0 list and its type marks", map[string]string{
			"/v1/models":     list("text-embedding-foo", "vectors-x", "qwen3-4b"),
			"/api/v0/models": `{"object":"list","data":[{"id":"vectors-x","type":"embeddings"},{"id":"qwen3-4b","type":"llm"}]}`,
		}, Ollama, LMStudio, "qwen3-4b", 1},
		{"llama.cpp by its props", map[string]string{
			"/v1/models": list("model.gguf"),
			"/props":     `{"default_generation_settings":{},"total_slots":1}`,
		}, "", LlamaCpp, "model.gguf", 1},
		{"koboldcpp by its version", map[string]string{
			"/v1/models":         list("koboldcpp/model"),
			"/api/extra/version": `{"result":"KoboldCpp","version":"1.80"}`,
		}, "", KoboldCpp, "koboldcpp/model", 1},
		{"vllm by its owner", map[string]string{
			"/v1/models": `{"object":"list","data":[{"id":"Qwen/Qwen3-4B","owned_by":"vllm"},{"id":"BAAI/bge-m3","owned_by":"vllm"}]}`,
		}, "", VLLM, "Qwen/Qwen3-4B", 1},
		{"nothing else tells: the port's owner", map[string]string{
			"/v1/models": list("gpt4all-model", "all-MiniLM-L6-v2"),
		}, GPT4All, GPT4All, "gpt4all-model", 1},
		{"a marked embedding entry", map[string]string{
			"/v1/models": `{"data":[{"id":"e","type":"embedding"},{"id":"chat"}]}`,
		}, Jan, Jan, "chat", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			port := fake(t, c.routes)
			var logs bytes.Buffer
			got := Scan(context.Background(), Options{
				Ports:  []Port{{Port: port, Kind: c.port}},
				Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
			})
			if len(got) != 1 {
				t.Fatalf("found %d servers, want 1", len(got))
			}
			s := got[0]
			if s.Kind != c.kind || s.Model != c.model || len(s.Models) != c.models {
				t.Errorf("got %s %q %v, want %s %q (%d models)", s.Kind, s.Model, s.Models, c.kind, c.model, c.models)
			}
			if want := "http://127.0.0.1:" + strconv.Itoa(port) + "/v1"; s.URL != want {
				t.Errorf("url %q, want %q", s.URL, want)
			}
			recs := records(t, &logs)
			if recs[0]["msg"] != "server_scan" || recs[0]["found"] != 1.0 {
				t.Errorf("first record %v", recs[0])
			}
			if recs[1]["msg"] != "server_found" || recs[1]["kind"] != string(c.kind) || recs[1]["model"] != c.model {
				t.Errorf("second record %v", recs[1])
			}
		})
	}
}

func records(t *testing.T, b *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// Several ports: the servers come back in the ports' order, ports that
// answer nothing or answer something else are left out, and the first
// with a chat model is the one a first start takes.
func TestScanOrderAndChoice(t *testing.T) {
	empty := fake(t, map[string]string{"/v1/models": list(), "/api/tags": `{"models":[]}`})
	notAPI := fake(t, map[string]string{"/v1/models": `<html>hello</html>`})
	chat := fake(t, map[string]string{"/v1/models": list("m1", "m2")})
	closed := httptest.NewServer(http.NotFoundHandler())
	closedPort, _ := strconv.Atoi(strings.TrimPrefix(closed.URL, "http://127.0.0.1:"))
	closed.Close()
	ports := []Port{{Port: closedPort}, {Port: empty, Kind: Ollama}, {Port: notAPI}, {Port: chat, Kind: LMStudio}}
	got := Scan(context.Background(), Options{Ports: ports})
	if len(got) != 2 || got[0].Port != empty || got[1].Port != chat {
		t.Fatalf("got %+v", got)
	}
	if got[0].Label() != "Ollama · no chat model" || got[1].Label() != "LM Studio · m1" {
		t.Errorf("labels %q %q", got[0].Label(), got[1].Label())
	}
	s, ok := FirstWithModel(got)
	if !ok || s.Port != chat || s.Model != "m1" {
		t.Errorf("first with a model: %+v %v", s, ok)
	}
	if _, ok := FirstWithModel(got[:1]); ok {
		t.Error("a server with no chat model was chosen")
	}
}

// A scan never leaves the machine.
func TestScanLoopbackOnly(t *testing.T) {
	var logs bytes.Buffer
	got := Scan(context.Background(), Options{Host: "192.0.2.1", Ports: []Port{{Port: 80}},
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if got != nil || !strings.Contains(logs.String(), "not a loopback address") {
		t.Errorf("got %v, log %s", got, logs.String())
	}
	for _, h := range []string{"127.0.0.1", "::1", "localhost", "[::1]", "127.5.0.1"} {
		if !loopback(h) {
			t.Errorf("%s is loopback", h)
		}
	}
	for _, h := range []string{"10.0.0.1", "example.com", ""} {
		if loopback(h) {
			t.Errorf("%s is not loopback", h)
		}
	}
}

func TestDescribe(t *testing.T) {
	port := fake(t, map[string]string{"/": "Ollama is running", "/v1/models": list()})
	base := "http://127.0.0.1:" + strconv.Itoa(port) + "/v1"
	if k := Describe(context.Background(), base, 0); k != Ollama {
		t.Errorf("kind %q", k)
	}
	if k := Describe(context.Background(), "https://api.openai.com/v1", 0); k != "" {
		t.Errorf("a remote server was named %q", k)
	}
	if NoModelHint(Ollama) != "run: ollama pull qwen3:4b" {
		t.Error(NoModelHint(Ollama))
	}
}

// The identifying answers are read defensively: garbage is no match, and
// no probe, mark reader or model list parser panics on any body.
func FuzzIdentify(f *testing.F) {
	f.Add([]byte(`{"models":[{"name":"a","details":{"family":"bert"}}]}`))
	f.Add([]byte(`{"data":[{"id":"x","type":"embeddings"}]}`))
	f.Add([]byte(`null`))
	// The servers' own answers (transport/request/requesttest's fakes).
	f.Add([]byte(`{"result": "KoboldCpp", "version": "1.76", "protected": false}`))
	f.Add([]byte(`{"default_generation_settings":{"n_ctx":4096},"total_slots":4}`))
	f.Add([]byte(`{"model_name":"None","lora_names":[],"loader":null}`))
	f.Add([]byte(`{"openapi":"3.0.0","info":{"title":"Jan API Server Endpoints"}}`))
	f.Add([]byte(`{"error":"Unexpected endpoint or method. (GET /api/tags)"}`))
	f.Add([]byte(`{"data":[{"id":"silero_vad_v5","owned_by":"snakers4","task":"voice-activity-detection"}],"object":"list"}`))
	f.Add([]byte(`Ollama is running`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, p := range probes() {
			p.match(answer{status: 200, header: http.Header{"Server": {string(b)}}, body: b})
		}
		ollamaTags(b, map[string]bool{})
		lmStudioModels(b, map[string]bool{})
		if l, ok := parseModels(b); ok {
			l.chatCapable()
		}
	})
}
