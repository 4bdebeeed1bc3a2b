package requesttest

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Flavor is one server Local plays, with where its answers come from.
type Flavor struct {
	Kind string // a Local* kind
	// Name is what the server is called (localserver.Kind's text); ""
	// for a server that is not a chat server.
	Name string
	// Version is the release or commit whose code was read.
	Version string
	// Port is the loopback port it listens on by default.
	Port int
	// Source is the repository, file and function the fake follows
	// (or, for a closed server, the recorded answers it repeats).
	Source string
}

// Flavors are the servers Local plays, each once.
func Flavors() []Flavor {
	return []Flavor{
		{LocalOllama, "Ollama", "v0.33.0-rc2 (fb30760)", 11434,
			"ollama/ollama server/routes.go (Server.GenerateRoutes, Server.ListHandler), openai/openai.go (ToListCompletion), api/types.go (ListResponse)"},
		{LocalLMStudio, "LM Studio", "0.3.14 to 0.4.18 (closed source)", 1234,
			"closed source: lmstudio-ai/lmstudio-bug-tracker issues 618 and 1323 (a 200 with {\"error\":\"Unexpected endpoint or method. (GET /x)\"} for an unknown path, X-Powered-By: Express) and LM Studio's REST docs for /api/v0/models"},
		{LocalLlamaCpp, "llama.cpp", "master after April 2026 (00dd081)", 8080,
			"ggml-org/llama.cpp tools/server/server.cpp (llama_server: the routes), tools/server/server-http.cpp (server_http_context::init: Server header, 404 handler, API key middleware), tools/server/server-context.cpp (get_models, get_props)"},
		{LocalLlamaCppOld, "llama.cpp", "tools/server before April 2026 (examples/server before mid-2025)", 8080,
			"ggml-org/llama.cpp tools/server/server.cpp (main: ctx_http.get(\"/api/tags\", routes.get_models), an Ollama-specific public endpoint beside /models and /v1/models; examples/server/server.cpp handle_models and handle_props before the move)"},
		{LocalKoboldCpp, "KoboldCpp", "v1.76 (2da346a)", 5001,
			"LostRuins/koboldcpp koboldcpp.py (ServerRequestHandler.do_GET, server_version)"},
		{LocalVLLM, "vLLM", "main of 2025 (no commit pinned)", 8000,
			"vllm-project/vllm vllm/entrypoints/openai/api_server.py (show_available_models, show_version, AuthenticationMiddleware), vllm/entrypoints/openai/protocol.py (ModelCard)"},
		{LocalJan, "Jan", "v0.6 (src-tauri proxy, 0035982)", 1337,
			"janhq/jan src-tauri/src/core/server/proxy.rs (proxy_request: API key check, GET /models, /openapi.json), src-tauri/static/openapi.json"},
		{LocalTextGen, "text-generation-webui", "v4.7.3 (1dcde41)", 5000,
			"oobabooga/text-generation-webui modules/api/script.py (handle_models, handle_model_info, verify_api_key), modules/api/models.py (get_current_model_info, list_models_openai_format)"},
		{LocalGPT4All, "GPT4All", "v3.10.0 (cd70db2)", 4891,
			"nomic-ai/gpt4all gpt4all-chat/src/server.cpp (Server::start: route /v1/models, modelToJson)"},
	}
}

// FlavorOf is the Flavor of kind; false for a kind Local does not play.
func FlavorOf(kind string) (Flavor, bool) {
	for _, f := range Flavors() {
		if f.Kind == kind {
			return f, true
		}
	}
	return Flavor{}, false
}

// ollama follows github.com/ollama/ollama/server/routes.go (GenerateRoutes):
// gin with HandleMethodNotAllowed, so a known path asked with another
// method is a 405 and an unknown one gin's text 404; "/" says "Ollama is
// running"; /v1/models is ListHandler through the ListMiddleware, whose
// data is null when nothing is pulled; /api/tags lists with details.
func (f *Local) ollama(w http.ResponseWriter, r *http.Request) {
	const js = "application/json; charset=utf-8"
	ids := f.models()
	routes := map[string]string{"/": "GET HEAD", "/api/version": "GET HEAD", "/api/tags": "GET HEAD",
		"/v1/models": "GET", "/v1/chat/completions": "POST", "/api/chat": "POST", "/api/generate": "POST", "/api/show": "POST", "/api/ps": "GET"}
	methods, known := routes[r.URL.Path]
	switch {
	case !known:
		writeText(w, http.StatusNotFound, "text/plain", "404 page not found")
	case !strings.Contains(methods, r.Method):
		writeText(w, http.StatusMethodNotAllowed, "text/plain", "405 method not allowed")
	case r.URL.Path == "/":
		writeText(w, http.StatusOK, "text/plain; charset=utf-8", "Ollama is running")
	case r.URL.Path == "/api/version":
		writeJSON(w, http.StatusOK, js, `{"version":"0.33.0-rc2"}`)
	case r.URL.Path == "/api/tags":
		tags := []map[string]any{}
		for _, id := range ids {
			fam := strings.SplitN(id, ":", 2)[0]
			if embeddingName(id) {
				fam = "nomic-bert"
			}
			tags = append(tags, map[string]any{"name": id, "model": id, "modified_at": "2026-08-01T10:00:00Z", "size": 2497293931,
				"digest": "a2af6cc3eb7fa8be8504abaf9b04e88f17a119ec3f04a3addf55f92841195f5a",
				"details": map[string]any{"parent_model": "", "format": "gguf", "family": fam, "families": []string{fam},
					"parameter_size": "4.0B", "quantization_level": "Q4_K_M"}})
		}
		writeJSON(w, http.StatusOK, js, map[string]any{"models": tags})
	case r.URL.Path == "/v1/models":
		var data []map[string]any // nil: "data":null, as ToListCompletion leaves it
		for _, id := range ids {
			data = append(data, map[string]any{"id": id, "object": "model", "created": 1754042400, "owned_by": "library"})
		}
		writeJSON(w, http.StatusOK, js, map[string]any{"object": "list", "data": data})
	case r.URL.Path == "/v1/chat/completions":
		f.chat(w, r)
	default:
		writeJSON(w, http.StatusBadRequest, js, `{"error":"missing request body"}`)
	}
}

// lmStudio repeats what LM Studio answers (closed source; the Flavor
// names the records): Express, and a 200 with an error object for any
// endpoint it does not have, which a probe must not read as a hit.
func (f *Local) lmStudio(w http.ResponseWriter, r *http.Request) {
	const js = "application/json; charset=utf-8"
	w.Header().Set("X-Powered-By", "Express")
	ids := f.models()
	switch {
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		data := []map[string]any{}
		for _, id := range ids {
			data = append(data, map[string]any{"id": id, "object": "model", "owned_by": "organization_owner"})
		}
		writeJSON(w, http.StatusOK, js, map[string]any{"data": data, "object": "list"})
	case r.URL.Path == "/api/v0/models" && r.Method == http.MethodGet:
		data := []map[string]any{}
		for _, id := range ids {
			typ := "llm"
			if embeddingName(id) {
				typ = "embeddings"
			}
			data = append(data, map[string]any{"id": id, "object": "model", "type": typ, "publisher": "lmstudio-community",
				"arch": "qwen3", "compatibility_type": "gguf", "quantization": "Q4_K_M", "state": "not-loaded", "max_context_length": 32768})
		}
		writeJSON(w, http.StatusOK, js, map[string]any{"object": "list", "data": data})
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		f.chat(w, r)
	default:
		writeJSON(w, http.StatusOK, js, fmt.Sprintf(`{"error":"Unexpected endpoint or method. (%s %s)"}`, r.Method, r.URL.Path))
	}
}

// koboldCpp follows koboldcpp.py (ServerRequestHandler.do_GET, v1.76):
// paths are matched by their end after trailing slashes are cut; its
// /api/tags is Ollama-shaped, with one model named "koboldcpp"; an
// unknown path is a text/html 404; the Server header is its
// server_version. With no model loaded its name is "inactive".
func (f *Local) koboldCpp(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Server", "ConcedoLlamaForKoboldServer")
	name := "inactive"
	if ids := f.models(); len(ids) > 0 {
		name = "koboldcpp/" + ids[0]
	}
	p := strings.TrimRight(r.URL.Path, "/")
	if r.Method == http.MethodPost {
		if strings.HasSuffix(p, "/v1/chat/completions") {
			f.chat(w, r)
			return
		}
		writeText(w, http.StatusNotFound, "text/html", "Error: HTTP Server is running, but this endpoint does not exist. Please check the URL.")
		return
	}
	switch {
	case p == "":
		writeText(w, http.StatusOK, "text/html", "<!DOCTYPE html><html><head><title>KoboldAI Lite</title></head><body></body></html>")
	case strings.HasSuffix(p, "/api/v1/model"):
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"result": name})
	case strings.HasSuffix(p, "/api/extra/version"):
		writeJSON(w, http.StatusOK, "application/json", `{"result": "KoboldCpp", "version": "1.76", "protected": false, "txt2img": false, "vision": false, "transcribe": false}`)
	case strings.HasSuffix(p, "/v1/models"):
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"object": "list", "data": []map[string]any{
			{"id": name, "object": "model", "created": time.Now().Unix(), "owned_by": "koboldcpp", "permission": []any{}, "root": "koboldcpp"}}})
	case strings.HasSuffix(p, "/api/tags"):
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"models": []map[string]any{{"name": "koboldcpp", "model": name,
			"modified_at": "2024-07-19T15:26:55.6122841+08:00", "size": 394998579, "digest": "b5dc5e784f2a3ee1582373093acf69a2f4e2ac1710b253a001712b86a61f88bb",
			"details": map[string]any{"parent_model": "", "format": "gguf", "family": "koboldcpp", "families": []string{"koboldcpp"}, "parameter_size": "128M", "quantization_level": "Q4_0"}}}})
	default:
		writeText(w, http.StatusNotFound, "text/html", "Error: HTTP Server is running, but this endpoint does not exist. Please check the URL.")
	}
}
