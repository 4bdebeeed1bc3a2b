package localserver

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
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

// getModels asks for the model list; false when nothing answered with one.
func getModels(ctx context.Context, c *http.Client, url string) (modelList, bool) {
	body, ok := get(ctx, c, url)
	if !ok {
		return modelList{}, false
	}
	return parseModels(body)
}

// parseModels reads a model list; false when the body is none. Entries
// without an id are dropped.
func parseModels(body []byte) (modelList, bool) {
	var l modelList
	var raw map[string]json.RawMessage
	if json.Unmarshal(body, &raw) != nil {
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
