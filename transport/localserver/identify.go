package localserver

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// maxBody bounds what is read of any answer: a model list of a few
// hundred entries is well under it.
const maxBody = 4 << 20

// modelList is GET /v1/models, with the marks some servers add.
type modelList struct {
	Data []listed `json:"data"`
}

type listed struct {
	ID      string `json:"id"`
	OwnedBy string `json:"owned_by"`
	// Type is "embeddings" on LM Studio and a few others.
	Type string `json:"type"`
	// Object is "embedding" on some servers' embedding entries.
	Object string `json:"object"`
	// Task is what speaches' models are for (audio.go).
	Task string `json:"task"`
}

func (m listed) embedding() bool {
	t := strings.ToLower(m.Type)
	return strings.HasPrefix(t, "embedding") || strings.EqualFold(m.Object, "embedding")
}

// kind reads a server from how its list names owners, for the servers
// that have no endpoint of their own to ask.
func (l modelList) kind() Kind {
	for _, m := range l.Data {
		switch strings.ToLower(m.OwnedBy) {
		case "vllm":
			return VLLM
		case "koboldcpp":
			return KoboldCpp
		case "llamacpp", "llama.cpp":
			return LlamaCpp
		case "jan":
			return Jan
		case "gpt4all":
			return GPT4All
		}
	}
	return ""
}

// getModels asks for the model list; false when nothing answered with one.
func getModels(ctx context.Context, c *http.Client, url string) (modelList, bool) {
	var l modelList
	var raw map[string]json.RawMessage
	body, ok := get(ctx, c, url)
	if !ok || json.Unmarshal(body, &raw) != nil {
		return l, false
	}
	data, ok := raw["data"] // Ollama with no models says "data":null
	if !ok || json.Unmarshal(data, &l.Data) != nil {
		return l, false
	}
	var ids []listed
	for _, m := range l.Data {
		if m.ID = strings.TrimSpace(m.ID); m.ID != "" {
			ids = append(ids, m)
		}
	}
	l.Data = ids
	return l, true
}

// get is a GET whose 2xx body comes back; false on anything else.
func get(ctx context.Context, c *http.Client, url string) ([]byte, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, false
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil || resp.StatusCode/100 != 2 {
		return nil, false
	}
	return body, true
}

// identity is what the server-specific endpoints told.
type identity struct {
	kind Kind
	// embeddings are the models the server marks as embedding models.
	embeddings map[string]bool
}

// signature is one server's own endpoint and how to know its answer.
type signature struct {
	kind Kind
	path string
	// match says whether the answer is that server's, and may note
	// embedding models in it.
	match func(body []byte, emb map[string]bool) bool
}

func signatures() []signature {
	return []signature{
		{Ollama, "/api/tags", ollamaTags},
		{LMStudio, "/api/v0/models", lmStudioModels},
		{LlamaCpp, "/props", func(b []byte, _ map[string]bool) bool {
			return hasKey(b, "default_generation_settings") || hasKey(b, "total_slots")
		}},
		{KoboldCpp, "/api/extra/version", func(b []byte, _ map[string]bool) bool {
			return strings.Contains(strings.ToLower(string(b)), "kobold")
		}},
		{TextGen, "/v1/internal/model/info", func(b []byte, _ map[string]bool) bool {
			return hasKey(b, "model_name") && hasKey(b, "lora_names")
		}},
	}
}

// identify asks every server's own endpoint at once; the first in
// signature order that matched names the server.
func identify(ctx context.Context, c *http.Client, root string) identity {
	sigs := signatures()
	hits := make([]bool, len(sigs))
	embs := make([]map[string]bool, len(sigs))
	var wg sync.WaitGroup
	for i, sg := range sigs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, ok := get(ctx, c, root+sg.path)
			if !ok {
				return
			}
			embs[i] = map[string]bool{}
			hits[i] = sg.match(body, embs[i])
		}()
	}
	wg.Wait()
	id := identity{embeddings: map[string]bool{}}
	for i, sg := range sigs {
		if !hits[i] {
			continue
		}
		if id.kind == "" {
			id.kind = sg.kind
		}
		for m := range embs[i] {
			id.embeddings[m] = true
		}
	}
	return id
}

// ollamaTags is Ollama's /api/tags: {"models":[{"name":..,"details":{"family":..,"families":[..]}}]}.
// A BERT family model is an embedding model.
func ollamaTags(b []byte, emb map[string]bool) bool {
	var tags struct {
		Models *[]struct {
			Name    string `json:"name"`
			Model   string `json:"model"`
			Details struct {
				Family   string   `json:"family"`
				Families []string `json:"families"`
			} `json:"details"`
		} `json:"models"`
	}
	if json.Unmarshal(b, &tags) != nil || tags.Models == nil {
		return false
	}
	for _, m := range *tags.Models {
		fams := append([]string{m.Details.Family}, m.Details.Families...)
		for _, f := range fams {
			if strings.Contains(strings.ToLower(f), "bert") {
				emb[m.Name], emb[m.Model] = true, true
			}
		}
	}
	return true
}

// lmStudioModels is LM Studio's /api/v0/models: {"data":[{"id":..,"type":"llm"|"vlm"|"embeddings"}]}.
func lmStudioModels(b []byte, emb map[string]bool) bool {
	var l struct {
		Data *[]struct {
			ID    string `json:"id"`
			Type  string `json:"type"`
			State string `json:"state"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &l) != nil || l.Data == nil {
		return false
	}
	for _, m := range *l.Data {
		if strings.HasPrefix(strings.ToLower(m.Type), "embedding") {
			emb[m.ID] = true
		}
	}
	return true
}

func hasKey(b []byte, key string) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil {
		return false
	}
	_, ok := obj[key]
	return ok
}

// loopback says whether host is a loopback address or localhost.
func loopback(host string) bool {
	h := strings.Trim(host, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
