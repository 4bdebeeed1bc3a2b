package request

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"yui/transport"
	"yui/transport/modelid"
)

// Start and the server check: the probe, the model list, and the model
// picked when the preset names none.

// Start marks the transport usable, or, with Options.Probe, connecting
// until a probe of the server says whether it can be reached.
func (e *Engine) Start() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state.State != transport.StateIdle || e.closed {
		return
	}
	if !e.opts.Probe {
		e.setStateLocked(transport.StateEvent{State: transport.StateReady})
		return
	}
	e.setStateLocked(transport.StateEvent{State: transport.StateConnecting})
	e.startProbeLocked()
}

// probeTimeout bounds the start-up probe; a turn has its own frame wait.
const probeTimeout = 10 * time.Second

// maxModelList bounds how much of a model list is read: a router such as
// OpenRouter lists hundreds of models, and only the first one is needed.
const maxModelList = 8 << 20

// listModels asks GET {chat_base_url}/models and returns the answer's
// status and, when it is a list, the first model's id. An error means no
// HTTP answer came.
func (e *Engine) listModels(ctx context.Context) (status int, first string, err error) {
	status, err = GetModels(ctx, e.client, e.opts.ChatBaseURL, e.opts.Key, func(body io.Reader) {
		if e.opts.Model == "" {
			first = FirstModel(io.LimitReader(body, maxModelList))
		}
	})
	return status, first, err
}

// GetModels asks a server GET {base}/models with the key as a bearer
// token and hands a 2xx answer's body to read. It returns the HTTP status;
// an error means no HTTP answer came.
func GetModels(ctx context.Context, client *http.Client, base, key string, read func(body io.Reader)) (int, error) {
	url, err := Endpoint(base, "/models")
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		read(resp.Body)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	return resp.StatusCode, nil
}

// ModelIDs reads a whole model list ({"data":[{"id":...},...]}, at most
// maxModelList bytes) and returns its ids.
func ModelIDs(r io.Reader) ([]string, error) {
	var list struct {
		Data []struct {
			ID      string `json:"id"`
			OwnedBy string `json:"owned_by"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(r, maxModelList)).Decode(&list); err != nil {
		return nil, fmt.Errorf("the model list does not parse: %w", err)
	}
	var ids []string
	for _, m := range list.Data {
		if id := strings.TrimSpace(m.ID); id != "" && !NoModelPlaceholder(id, m.OwnedBy) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// NoModelPlaceholder says whether a listed model is a server's way of
// saying it has none loaded, not a model: KoboldCpp lists its
// friendlymodelname, "inactive" until a model is loaded, owned by
// "koboldcpp" (koboldcpp.py, the /v1/models branch of
// ServerRequestHandler.do_GET); text-generation-webui's list starts with
// get_available_models()'s "None", owned by "user"
// (extensions/openai/models.py, list_models). Sending either as the model
// fails every turn, so a list of only these is a server with no model.
func NoModelPlaceholder(id, ownedBy string) bool {
	return (id == "inactive" && ownedBy == "koboldcpp") || (id == "None" && ownedBy == "user")
}

// FirstModel reads a model list, {"object":"list","data":[{"id":...},...]},
// up to its first chat model and returns that model's id: embedding
// models (modelid.IsEmbedding, or marked "type":"embeddings") and the
// no-model placeholders (NoModelPlaceholder) are passed over. "" when the list has none or is not in that shape. The rest of
// the list is not read.
func FirstModel(r io.Reader) string {
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key != "data" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return ""
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return ""
		}
		for dec.More() {
			var m struct {
				ID      string `json:"id"`
				Type    string `json:"type"`
				OwnedBy string `json:"owned_by"`
			}
			if dec.Decode(&m) != nil {
				return ""
			}
			id := strings.TrimSpace(m.ID)
			if id != "" && !modelid.IsEmbedding(id) && !strings.HasPrefix(strings.ToLower(m.Type), "embedding") &&
				!NoModelPlaceholder(id, m.OwnedBy) {
				return id
			}
		}
		return ""
	}
	return ""
}

// pickModel makes model the one the turns send, when none is set and none
// was picked yet, and says so in the log.
func (e *Engine) pickModel(model string) {
	if model == "" || e.opts.Model != "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.model != "" {
		return
	}
	e.model = model
	e.log.Info("model_auto", "model", model)
	if e.state.State == transport.StateReady {
		e.setStateLocked(transport.StateEvent{State: transport.StateReady}) // the pill says which
	}
}

// Model is the model the turns send: the preset's, or with none set, the
// first model the server lists (once the probe or the first turn asked);
// "" while none is known.
func (e *Engine) Model() string {
	if e.opts.Model != "" {
		return e.opts.Model
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.model
}

// resolveModel asks the server for its models when no model is set, the
// transport probes its server, and no model was picked yet (the probe has
// not answered yet, or found the server down). A server that lists none
// gets requests with no model, and picks its own.
func (e *Engine) resolveModel(turn context.Context) {
	if !e.opts.Probe || e.Model() != "" {
		return
	}
	ctx, cancel := context.WithTimeout(turn, probeTimeout)
	defer cancel()
	_, first, err := e.listModels(ctx)
	if err == nil {
		e.pickModel(first)
	}
	if e.Model() == "" && turn.Err() == nil {
		e.log.Warn("model_auto_failed", "err", "the server lists no model")
	}
}
