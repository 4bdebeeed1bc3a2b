package push

import (
	"bytes"
	"encoding/json"
	"fmt"

	"yui/transport"
)

// helloTools renders the declared tools in the OpenAI function-tool shape.
func helloTools(tools []transport.Tool) (json.RawMessage, error) {
	if len(tools) == 0 {
		return nil, nil
	}
	type function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	type tool struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	out := make([]tool, 0, len(tools))
	for _, t := range tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		if !json.Valid(params) {
			return nil, fmt.Errorf("push: tool %q: parameters are not valid JSON", t.Name)
		}
		out = append(out, tool{Type: "function", Function: function{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("push: encoding tools: %w", err)
	}
	return b, nil
}

// sendLocked encodes a text frame and queues it on cn, unless it is over
// the text frame size, in which case it is logged and never sent.
func (c *Client) sendLocked(cn *conn, typ string, frame any) bool {
	b, err := marshal(frame)
	if err != nil {
		c.log.Error("push.encode", "type", typ, "err", err.Error())
		return false
	}
	if len(b) > TextFrameLimit {
		c.logOversize("out", typ, int64(len(b)))
		return false
	}
	return c.queueLocked(cn, typ, b)
}

func (c *Client) queueLocked(cn *conn, typ string, b []byte) bool {
	if !cn.enqueue(b) {
		c.log.Warn("push.send_dropped", "type", typ, "reason", "write queue full")
		return false
	}
	return true
}

func (c *Client) logOversize(direction, typ string, n int64) {
	attrs := []any{"direction", direction}
	if typ != "" {
		attrs = append(attrs, "type", typ)
	}
	attrs = append(attrs, "bytes", n)
	c.log.Warn("frame_oversize", attrs...)
}

// Outgoing frames.
type (
	typeOnly struct {
		Type string `json:"type"`
	}
	helloFrame struct {
		Type       string          `json:"type"`
		Key        string          `json:"key"`
		ChatID     string          `json:"chat_id"`
		Accepts    []string        `json:"accepts"`
		Vocabulary vocabularyJSON  `json:"vocabulary"`
		Tools      json.RawMessage `json:"tools,omitempty"`
	}
	vocabularyFrame struct {
		Type       string         `json:"type"`
		Vocabulary vocabularyJSON `json:"vocabulary"`
	}
	stopFrame struct {
		Type    string   `json:"type"`
		TurnIDs []string `json:"turn_ids"`
	}
	playbackFrame struct {
		Type   string `json:"type"`
		TurnID string `json:"turn_id"`
		Ended  string `json:"ended"`
	}
	turnFrame struct {
		Type          string `json:"type"`
		TurnID        string `json:"turn_id"`
		ClientContext string `json:"client_context"`
		Text          string `json:"text"`
	}
	toolResultFrame struct {
		Type   string `json:"type"`
		ID     string `json:"id"`
		TurnID string `json:"turn_id"`
		Result string `json:"result"`
	}
)

// marshal encodes a frame as compact JSON without encoding/json's HTML
// escaping, so "<client_context>" goes out as written and sizes are exact.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	return b[:len(b)-1], nil // Encode adds a newline
}
