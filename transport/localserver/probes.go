package localserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// How a model server is told from the others: each answers some request
// that only it answers so. The probes are GETs of endpoints that report
// (no generation, no model load, nothing changed), asked at once of a
// port whose /v1/models answered. The servers and the code each answer
// was read from are in transport/request/requesttest/localservers.go
// (Flavors); contract_test.go runs every probe against every server there.
//
// Their order matters where one server imitates another: KoboldCpp and
// llama.cpp before April 2026 answer Ollama's /api/tags with an
// Ollama-shaped list, so /api/tags names no one; Ollama is known by its
// own "/" and /api/version, and only after KoboldCpp and llama.cpp had
// their say. LM Studio answers every path it does not have with a 200 and
// {"error":"Unexpected endpoint or method. …"}, so no probe takes a 200
// alone for a sign.

// answer is what one GET got back; status 0 when nothing answered.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) ok() bool { return a.status/100 == 2 }

// object reads the body as a JSON object; nil when it is none.
func (a answer) object() map[string]json.RawMessage {
	var obj map[string]json.RawMessage
	if !a.ok() || json.Unmarshal(a.body, &obj) != nil {
		return nil
	}
	return obj
}

// str is a string field of a JSON object; "" when absent or not a string.
func str(obj map[string]json.RawMessage, key string) string {
	var s string
	if raw, ok := obj[key]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// fetch GETs url and keeps at most limit bytes of the body.
func fetch(ctx context.Context, c *http.Client, url string, limit int64) answer {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return answer{}
	}
	resp, err := c.Do(req)
	if err != nil {
		return answer{}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return answer{}
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: body}
}

// probe is one server's sign: what it answers at path.
type probe struct {
	kind Kind
	path string
	// match says whether the answer is that server's.
	match func(a answer) bool
}

// modelsPath is the OpenAI model list every chat server answers.
const modelsPath = "/v1/models"

// rootLimit bounds what is read of "/": a web page there can be large,
// and only Ollama's first words are looked at.
const rootLimit = 256

// probes are the signs, in the order they name a server.
func probes() []probe {
	return []probe{
		{KoboldCpp, "/api/extra/version", func(a answer) bool { return str(a.object(), "result") == "KoboldCpp" }},
		{LlamaCpp, modelsPath, serverHeader("llama.cpp")},
		{LlamaCpp, "/props", func(a answer) bool {
			obj := a.object()
			return obj["default_generation_settings"] != nil && obj["total_slots"] != nil
		}},
		{LMStudio, "/api/v0/models", func(a answer) bool {
			obj := a.object()
			return obj["data"] != nil && obj["error"] == nil && str(obj, "object") == "list"
		}},
		{TextGen, "/v1/internal/model/info", func(a answer) bool {
			obj := a.object()
			return obj["model_name"] != nil && obj["lora_names"] != nil
		}},
		{Jan, "/openapi.json", func(a answer) bool {
			var doc struct {
				Info struct {
					Title string `json:"title"`
				} `json:"info"`
			}
			return a.ok() && json.Unmarshal(a.body, &doc) == nil && strings.HasPrefix(doc.Info.Title, "Jan ")
		}},
		{Ollama, "/", func(a answer) bool { return a.ok() && strings.HasPrefix(string(a.body), "Ollama is running") }},
		{Ollama, "/api/version", func(a answer) bool {
			obj := a.object()
			return len(obj) == 1 && str(obj, "version") != ""
		}},
		{VLLM, "/version", func(a answer) bool { // open when --api-key closes /v1
			obj := a.object()
			return len(obj) == 1 && str(obj, "version") != ""
		}},
		{VLLM, modelsPath, ownedBy("vllm")},
		{GPT4All, modelsPath, ownedBy("humanity")},
		{KoboldCpp, modelsPath, ownedBy("koboldcpp")},
		{LlamaCpp, modelsPath, ownedBy("llamacpp")},
		{LMStudio, modelsPath, ownedBy("organization_owner")},
		// Not chat servers, on ports chat servers share.
		{Speaches, "/v1/audio/models", func(a answer) bool {
			obj := a.object()
			return obj["models"] != nil && str(obj, "object") == "list"
		}},
		{WhisperCpp, modelsPath, serverHeader("whisper.cpp")},
	}
}

// serverHeader is a sign by the Server header (cpp-httplib servers set it
// on every answer, errors included).
func serverHeader(name string) func(answer) bool {
	return func(a answer) bool { return a.status != 0 && strings.EqualFold(a.header.Get("Server"), name) }
}

// ownedBy is a sign by the owner a server writes into every model it
// lists; it needs a model listed.
func ownedBy(owner string) func(answer) bool {
	return func(a answer) bool {
		l, ok := parseModels(a.body)
		if !a.ok() || !ok {
			return false
		}
		for _, m := range l.Data {
			if strings.EqualFold(m.OwnedBy, owner) {
				return true
			}
		}
		return false
	}
}

// chatServer says whether k is a chat server rather than one of the
// speech or transcription servers the probes also know.
func (k Kind) chatServer() bool { return k != Speaches && k != WhisperCpp }

// identity is what the probes told.
type identity struct {
	kind Kind
	// embeddings are the models the server marks as embedding models.
	embeddings map[string]bool
	// noneLoaded: the server says no model is loaded
	// (text-generation-webui's model_name "None").
	noneLoaded bool
	// needsKey: the server lists its models to anyone but refuses the
	// rest without its key (llama.cpp started with --api-key: its /props
	// is a 401).
	needsKey bool
}

// marksPaths are asked beside the probes for what they say of the
// models, once the server is known: Ollama's model families and LM
// Studio's model types.
var marksPaths = []string{"/api/tags"}

// identify asks every probe's path at once (the model list's answer is
// given: it was asked first) and names the server by the first probe in
// order that matched.
func identify(ctx context.Context, c *http.Client, root string, models answer) identity {
	ps := probes()
	paths := append([]string(nil), marksPaths...)
	for _, p := range ps {
		if p.path != modelsPath && !contains(paths, p.path) {
			paths = append(paths, p.path)
		}
	}
	answers := make([]answer, len(paths))
	var wg sync.WaitGroup
	for i, path := range paths {
		limit := int64(maxBody)
		if path == "/" {
			limit = rootLimit
		}
		wg.Go(func() { answers[i] = fetch(ctx, c, root+path, limit) })
	}
	wg.Wait()
	got := map[string]answer{modelsPath: models}
	for i, path := range paths {
		got[path] = answers[i]
	}
	id := identity{embeddings: map[string]bool{}}
	for _, p := range ps {
		if p.match(got[p.path]) {
			id.kind = p.kind
			break
		}
	}
	switch id.kind {
	case Ollama:
		ollamaTags(got["/api/tags"].body, id.embeddings)
	case LMStudio:
		lmStudioModels(got["/api/v0/models"].body, id.embeddings)
	case LlamaCpp:
		id.needsKey = got["/props"].status == http.StatusUnauthorized
	case TextGen:
		id.noneLoaded = str(got["/v1/internal/model/info"].object(), "model_name") == "None"
	}
	return id
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
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
			Capabilities []string `json:"capabilities"`
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
		if contains(m.Capabilities, "embedding") && !contains(m.Capabilities, "completion") {
			emb[m.Name], emb[m.Model] = true, true
		}
	}
	return true
}

// lmStudioModels is LM Studio's /api/v0/models: {"data":[{"id":..,"type":"llm"|"vlm"|"embeddings"}]}.
func lmStudioModels(b []byte, emb map[string]bool) bool {
	var l struct {
		Data *[]struct {
			ID   string `json:"id"`
			Type string `json:"type"`
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
