package requesttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
)

// Local is a fake local model server, to serve on its real loopback port
// (Serve): Ollama (Kind "ollama": /api/tags too), LM Studio ("lmstudio":
// /api/v0/models too) or a bare OpenAI-compatible one (""), with the
// models it lists (changeable, as a model being pulled) and a chat
// endpoint that answers every turn with "Found you." and records the
// model asked for. Serve its Handle.
type Local struct {
	Kind string // "ollama", "lmstudio" or ""
	mu   sync.Mutex
	list []string
	asks []string // the model of each chat request
}

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

// Handle is the server's Handler.
func (f *Local) Handle(w *Writer, r *http.Request, _ int) {
	f.mu.Lock()
	ids := append([]string(nil), f.list...)
	f.mu.Unlock()
	data := []map[string]any{}
	for _, id := range ids {
		data = append(data, map[string]any{"id": id, "object": "model", "owned_by": "library"})
	}
	switch {
	case r.URL.Path == "/v1/models":
		w.JSON(map[string]any{"object": "list", "data": data})
	case r.URL.Path == "/api/tags" && f.Kind == "ollama":
		var tags []map[string]any
		for _, id := range ids {
			tags = append(tags, map[string]any{"name": id, "model": id})
		}
		w.JSON(map[string]any{"models": tags})
	case r.URL.Path == "/api/v0/models" && f.Kind == "lmstudio":
		for _, m := range data {
			m["type"] = "llm"
		}
		w.JSON(map[string]any{"object": "list", "data": data})
	case r.URL.Path == "/v1/chat/completions":
		var req struct {
			Model string `json:"model"`
		}
		json.Unmarshal([]byte(readBody(r)), &req)
		f.mu.Lock()
		f.asks = append(f.asks, req.Model)
		f.mu.Unlock()
		w.Raw(fmt.Sprintf("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":%q,\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Found you.\"},\"finish_reason\":\"stop\"}]}\n\n", req.Model) +
			"data: [DONE]\n\n")
	default:
		w.NotFound(r)
	}
}
