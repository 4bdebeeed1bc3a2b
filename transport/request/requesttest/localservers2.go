package requesttest

// Each server's handler here follows that server's code at the version
// its Flavor names (Flavors): the Flavor's Source field gives the
// repository, file and function (localservers.go), and
// transport/localserver's contract test fails a fake without one.

import (
	"net/http"
	"strings"
	"time"
)

// llamaCpp follows github.com/ggml-org/llama.cpp tools/server/server.cpp
// (llama_server: the routes), tools/server/server-http.cpp
// (server_http_context::init: the Server header, the 404 handler, the API
// key middleware) and tools/server/server-context.cpp (get_models,
// get_props), as its Flavor says: every answer carries
// "Server: llama.cpp"; an unknown path (or a known one asked with another
// method: cpp-httplib routes by method) is the JSON 404 of its error
// handler; with an API key only /health, /models and /v1/models are
// public, the rest a JSON 401. /v1/models holds both an Ollama-shaped
// "models" and the OpenAI "data", owned by "llamacpp". The server before
// April 2026 also routed GET /api/tags to the same answer. With no model
// given it is the router mode's empty list.
func (f *Local) llamaCpp(w http.ResponseWriter, r *http.Request) {
	const js = "application/json; charset=utf-8"
	w.Header().Set("Server", "llama.cpp")
	ids := f.models()
	public := map[string]bool{"/health": true, "/v1/health": true, "/models": true, "/v1/models": true, "/": true,
		"/api/tags": f.Kind == LocalLlamaCppOld}
	if f.Key != "" && !public[r.URL.Path] && !bearer(r, f.Key) {
		writeJSON(w, http.StatusUnauthorized, js, `{"error":{"message":"Invalid API Key","type":"authentication_error","code":401}}`)
		return
	}
	get := r.Method == http.MethodGet
	models := get && (r.URL.Path == "/v1/models" || r.URL.Path == "/models" || (f.Kind == LocalLlamaCppOld && r.URL.Path == "/api/tags"))
	switch {
	case models && len(ids) == 0:
		writeJSON(w, http.StatusOK, js, `{"data":[],"object":"list"}`)
	case models:
		id := ids[0]
		writeJSON(w, http.StatusOK, js, map[string]any{
			"models": []map[string]any{{"name": id, "model": id, "modified_at": "", "size": "", "digest": "", "type": "model",
				"description": "", "tags": []string{""}, "capabilities": []string{"completion"}, "parameters": "",
				"details": map[string]any{"parent_model": "", "format": "gguf", "family": "", "families": []string{""}, "parameter_size": "", "quantization_level": ""}}},
			"object": "list",
			"data": []map[string]any{{"id": id, "aliases": []string{id}, "tags": []string{}, "object": "model", "created": time.Now().Unix(), "owned_by": "llamacpp",
				"meta": map[string]any{"vocab_type": 2, "n_vocab": 151936, "n_ctx": 4096, "n_ctx_train": 40960, "n_embd": 2560, "n_params": 4022468096, "size": 2489758720, "ftype": "Q4_K_M"}}},
		})
	case get && (r.URL.Path == "/health" || r.URL.Path == "/v1/health"):
		writeJSON(w, http.StatusOK, js, `{"status":"ok"}`)
	case get && r.URL.Path == "/props" && len(ids) > 0:
		writeJSON(w, http.StatusOK, js, map[string]any{
			"default_generation_settings": map[string]any{"params": map[string]any{"temperature": 0.8}, "n_ctx": 4096},
			"total_slots":                 4, "model_alias": ids[0], "model_path": "/models/" + ids[0] + ".gguf",
			"modalities": map[string]any{"vision": false, "audio": false}, "endpoint_slots": true, "endpoint_props": false,
			"endpoint_metrics": false, "webui": true, "chat_template": "{{ messages }}", "build_info": "b6500-00dd081"})
	case get && r.URL.Path == "/":
		writeText(w, http.StatusOK, "text/html; charset=utf-8", "<!doctype html><html><head><title>llama.cpp - chat</title></head><body></body></html>")
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions" && len(ids) > 0:
		f.chat(w, r)
	default:
		writeJSON(w, http.StatusNotFound, js, `{"error":{"message":"File Not Found","type":"not_found_error","code":404}}`)
	}
}

// fastAPIMiss is what a FastAPI app served by uvicorn (vLLM,
// text-generation-webui, speaches) answers for a path it has not (404)
// and for a method a known path does not take (405), as
// github.com/encode/starlette starlette/routing.py (Router.not_found,
// Route.handle) decides and fastapi/exception_handlers.py
// (http_exception_handler) writes: {"detail": …}.
func fastAPIMiss(w http.ResponseWriter, known bool) {
	w.Header().Set("Server", "uvicorn")
	if known {
		writeJSON(w, http.StatusMethodNotAllowed, "application/json", `{"detail":"Method Not Allowed"}`)
		return
	}
	writeJSON(w, http.StatusNotFound, "application/json", `{"detail":"Not Found"}`)
}

// vllm follows github.com/vllm-project/vllm
// vllm/entrypoints/openai/api_server.py (show_available_models,
// show_version, AuthenticationMiddleware) and
// vllm/entrypoints/openai/protocol.py (ModelCard), as its Flavor says: /v1/models lists the served
// model as a ModelCard owned by "vllm"; /version says its version; with
// --api-key every /v1 path is a 401 {"error":"Unauthorized"}.
func (f *Local) vllm(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Server", "uvicorn")
	if f.Key != "" && strings.HasPrefix(r.URL.Path, "/v1") && !bearer(r, f.Key) {
		writeJSON(w, http.StatusUnauthorized, "application/json", `{"error":"Unauthorized"}`)
		return
	}
	routes := map[string]string{"/v1/models": http.MethodGet, "/version": http.MethodGet, "/health": http.MethodGet, "/v1/chat/completions": http.MethodPost}
	m, known := routes[r.URL.Path]
	if !known || m != r.Method {
		fastAPIMiss(w, known)
		return
	}
	switch r.URL.Path {
	case "/v1/models":
		data := []map[string]any{}
		for _, id := range f.models() {
			data = append(data, map[string]any{"id": id, "object": "model", "created": time.Now().Unix(), "owned_by": "vllm", "root": id, "parent": nil,
				"max_model_len": 40960, "permission": []map[string]any{{"id": "modelperm-1", "object": "model_permission", "created": time.Now().Unix(),
					"allow_create_engine": false, "allow_sampling": true, "allow_logprobs": true, "allow_search_indices": false, "allow_view": true,
					"allow_fine_tuning": false, "organization": "*", "group": nil, "is_blocking": false}}})
		}
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"object": "list", "data": data})
	case "/version":
		writeJSON(w, http.StatusOK, "application/json", `{"version":"0.10.1"}`)
	case "/health":
		w.WriteHeader(http.StatusOK)
	default:
		f.chat(w, r)
	}
}

// jan follows github.com/janhq/jan src-tauri/src/core/server/proxy.rs
// (proxy_request: the API key check, GET /models, /openapi.json), as its
// Flavor says: its prefix /v1 is cut first; "/",
// /openapi.json and the docs' files answer without a key; with a key
// anything else without "Authorization: Bearer KEY" is a text 401;
// /models lists the running sessions, owned by "user"; the rest a text
// 404.
func (f *Local) jan(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/v1")
	if path == "" {
		path = "/"
	}
	open := path == "/" || path == "/openapi.json" || path == "/favicon.ico"
	if f.Key != "" && !open {
		switch {
		case r.Header.Get("Authorization") == "":
			writeText(w, http.StatusUnauthorized, "", "Missing authorization header")
			return
		case !bearer(r, f.Key):
			writeText(w, http.StatusUnauthorized, "", "Invalid or missing authorization token")
			return
		}
	}
	ids := f.models()
	switch {
	case r.Method == http.MethodGet && path == "/models":
		data := []map[string]any{}
		for _, id := range ids {
			data = append(data, map[string]any{"id": id, "object": "model", "created": 1, "owned_by": "user"})
		}
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"object": "list", "data": data})
	case r.Method == http.MethodGet && path == "/openapi.json":
		writeJSON(w, http.StatusOK, "application/json", `{"openapi":"3.0.0","info":{"title":"Jan API Server Endpoints","version":"1.0"},"servers":[{"url":"http://localhost:1337/v1","description":"Jan API server"}],"paths":{}}`)
	case r.Method == http.MethodGet && path == "/":
		writeText(w, http.StatusOK, "text/html", "<!DOCTYPE html><html lang=\"en\"><head><title>API Docs</title></head><body><div id=\"swagger-ui\"></div></body></html>")
	case r.Method == http.MethodPost && path == "/chat/completions" && len(ids) == 0:
		writeText(w, http.StatusServiceUnavailable, "", "No models are available")
	case r.Method == http.MethodPost && path == "/chat/completions":
		f.chat(w, r)
	default:
		writeText(w, http.StatusNotFound, "", "Not Found")
	}
}

// textGen follows github.com/oobabooga/text-generation-webui
// modules/api/script.py (handle_models, handle_model_info,
// verify_api_key) and modules/api/models.py (get_current_model_info,
// list_models_openai_format), as its Flavor says: /v1/models lists
// only the loaded model, owned by "user", none when none is loaded;
// /v1/internal/model/info names it, "None" when none is; with --api-key a
// 401 {"detail":"Unauthorized"}.
func (f *Local) textGen(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Server", "uvicorn")
	routes := map[string]string{"/v1/models": http.MethodGet, "/v1/internal/model/info": http.MethodGet, "/v1/chat/completions": http.MethodPost}
	m, known := routes[r.URL.Path]
	if !known || m != r.Method {
		fastAPIMiss(w, known)
		return
	}
	if f.Key != "" && !bearer(r, f.Key) {
		writeJSON(w, http.StatusUnauthorized, "application/json", `{"detail":"Unauthorized"}`)
		return
	}
	name, loader := "None", any(nil)
	if ids := f.models(); len(ids) > 0 {
		name, loader = ids[0], "llama.cpp"
	}
	switch r.URL.Path {
	case "/v1/models":
		data := []map[string]any{}
		if name != "None" {
			data = append(data, map[string]any{"id": name, "object": "model", "created": 0, "owned_by": "user"})
		}
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"object": "list", "data": data})
	case "/v1/internal/model/info":
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"model_name": name, "lora_names": []string{}, "loader": loader})
	default:
		f.chat(w, r)
	}
}

// gpt4All follows github.com/nomic-ai/gpt4all gpt4all-chat/src/server.cpp
// (Server::start: the route /v1/models, modelToJson), as its Flavor says: a QHttpServer whose
// /v1/models lists the installed models owned by "humanity", and whose
// missing handler is an empty 404.
func (f *Local) gpt4All(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		data := []map[string]any{}
		for _, id := range f.models() {
			data = append(data, map[string]any{"id": id, "object": "model", "created": 0, "owned_by": "humanity", "root": id, "parent": nil,
				"permission": []map[string]any{{"id": "placeholder", "object": "model_permission", "created": 0, "allow_create_engine": false,
					"allow_sampling": false, "allow_logprobs": false, "allow_search_indices": false, "allow_view": true,
					"allow_fine_tuning": false, "organization": "*", "group": nil, "is_blocking": false}}})
		}
		writeJSON(w, http.StatusOK, "application/json", map[string]any{"object": "list", "data": data})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
		f.chat(w, r)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}
