package requesttest

// Each server's handler here follows that server's code at the version
// its Flavor names (Flavors): the Flavor's Source field gives the
// repository, file and function (localservers.go), and
// transport/localserver's contract test fails a fake without one.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// Local is a fake local model server, to serve on its real loopback port
// (Serve its Handle) or on any (it is an http.Handler): one of the servers
// the first start looks for, each answering every request Yui sends as
// that server's own code does (localservers*.go, one function per server,
// each citing the code it follows). It lists the models it was given
// (changeable, as a model being pulled), answers every chat turn with
// "Found you." and records the model asked for.
type Local struct {
	// Kind is one of the Local* kinds; "" is a bare OpenAI-compatible
	// server that answers nothing else.
	Kind string
	// Key, when set, is the API key the server was started with: the
	// server refuses what its code refuses without it (Jan: everything
	// but its docs; llama.cpp: all but /v1/models and /health).
	Key  string
	mu   sync.Mutex
	list []string
	asks []string // the model of each chat request
}

// The servers Local plays. Flavors describes each.
const (
	LocalOllama      = "ollama"
	LocalLMStudio    = "lmstudio"
	LocalLlamaCpp    = "llamacpp"     // llama-server since April 2026: no /api/tags
	LocalLlamaCppOld = "llamacpp-old" // llama-server before: /api/tags answered Ollama-shaped
	LocalKoboldCpp   = "koboldcpp"
	LocalVLLM        = "vllm"
	LocalJan         = "jan"
	LocalTextGen     = "textgen"
	LocalGPT4All     = "gpt4all"
)

// The speech and transcription servers the chat scan must not take for a
// chat server (speaches, whisper.cpp's) have one fake each, with the rest
// of their API: transport/localserver/localservertest's.

// NewLocal returns a local server of kind listing models.
func NewLocal(kind string, models ...string) *Local { return &Local{Kind: kind, list: models} }

// SetModels changes the models listed.
func (f *Local) SetModels(ids ...string) {
	f.mu.Lock()
	f.list = ids
	f.mu.Unlock()
}

// Asked is the model of each chat request so far.
func (f *Local) Asked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.asks...)
}

func (f *Local) models() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.list...)
}

// Handle is the server as a Handler of Serve.
func (f *Local) Handle(w *Writer, r *http.Request, _ int) { f.ServeHTTP(w.w, r) }

// ServeHTTP answers as the server of f.Kind does.
func (f *Local) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch f.Kind {
	case LocalOllama:
		f.ollama(w, r)
	case LocalLMStudio:
		f.lmStudio(w, r)
	case LocalLlamaCpp, LocalLlamaCppOld:
		f.llamaCpp(w, r)
	case LocalKoboldCpp:
		f.koboldCpp(w, r)
	case LocalVLLM:
		f.vllm(w, r)
	case LocalJan:
		f.jan(w, r)
	case LocalTextGen:
		f.textGen(w, r)
	case LocalGPT4All:
		f.gpt4All(w, r)
	default:
		f.bare(w, r)
	}
}

// bare is an OpenAI-compatible server that has nothing else, the
// kind no probe names: it follows no one server's code but the API's own
// shapes, GET /v1/models as github.com/openai/openai-openapi openapi.yaml
// (listModels, ListModelsResponse) and the stream as chat (below); net/http's
// 404 for the rest.
func (f *Local) bare(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		var data []map[string]any
		for _, id := range f.models() {
			data = append(data, map[string]any{"id": id, "object": "model", "owned_by": "me"})
		}
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"object": "list", "data": orEmpty(data)})
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		f.chat(w, r)
	default:
		http.NotFound(w, r)
	}
}

// chat answers a chat turn with "Found you." as an OpenAI stream and
// records the model asked for: one chunk and [DONE], the chunk as
// github.com/openai/openai-openapi openapi.yaml
// (CreateChatCompletionStreamResponse) describes it: the one shape every
// server here streams, so their fakes share it.
func (f *Local) chat(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal([]byte(readBody(r)), &req)
	f.mu.Lock()
	f.asks = append(f.asks, req.Model)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":%q,\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Found you.\"},\"finish_reason\":\"stop\"}]}\n\n", req.Model)
	fmt.Fprint(w, "data: [DONE]\n\n")
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// bearer says whether the request carries "Bearer key".
func bearer(r *http.Request, key string) bool {
	a := r.Header.Get("Authorization")
	got, ok := strings.CutPrefix(a, "Bearer ")
	return ok && got == key
}

// writeJSON answers status with v as JSON (a string as it is) under ctype.
func writeJSON(w http.ResponseWriter, status int, ctype string, v any) {
	s, ok := v.(string)
	if !ok {
		b, _ := json.Marshal(v)
		s = string(b)
	}
	w.Header().Set("Content-Type", ctype)
	w.WriteHeader(status)
	fmt.Fprint(w, s)
}

// writeText answers status with a plain body under ctype ("" sends none).
func writeText(w http.ResponseWriter, status int, ctype, body string) {
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

func orEmpty(d []map[string]any) []map[string]any {
	if d == nil {
		return []map[string]any{}
	}
	return d
}

// embeddingName is how the fakes tell an embedding model by its name, to
// mark it as each server marks one (Ollama's BERT family, LM Studio's
// type "embeddings").
func embeddingName(id string) bool {
	id = strings.ToLower(id)
	return strings.Contains(id, "embed") || strings.Contains(id, "bge-") || strings.Contains(id, "minilm")
}
