package pushsim

import (
	"encoding/json"
	"strconv"
	"time"
)

// ToolWait is the backend adapter's wait for a tool_result (docs/protocol/push-transport.md limits).
func ToolWait(name string) time.Duration {
	switch name {
	case "body_action":
		return 20 * time.Second
	case "browser":
		return 40 * time.Second
	}
	return 7 * time.Second
}

// ExampleArguments returns valid arguments for a declared tool: known
// tools get meaningful ones, others the required fields filled from the
// schema (first enum value, minimum, "demo", true).
func ExampleArguments(name string, schema json.RawMessage) json.RawMessage {
	switch name {
	case "look":
		return json.RawMessage(`{"at":"body"}`)
	case "body_action":
		return json.RawMessage(`{"action":"go_home"}`)
	case "rate_relation":
		return json.RawMessage(`{"delta":1,"reason":"a friendly demo"}`)
	case "address_character":
		return json.RawMessage(`{"character":"Yui","text":"Hello from the demo backend!"}`)
	case "browser":
		return json.RawMessage(`{"action":"read","url":"https://example.com"}`)
	}
	var s struct {
		Properties map[string]struct {
			Type    string            `json:"type"`
			Enum    []json.RawMessage `json:"enum"`
			Minimum *float64          `json:"minimum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	json.Unmarshal(schema, &s)
	args := map[string]json.RawMessage{}
	for _, r := range s.Required {
		p := s.Properties[r]
		switch {
		case len(p.Enum) > 0:
			args[r] = p.Enum[0]
		case p.Type == "integer" || p.Type == "number":
			v := 0.0
			if p.Minimum != nil {
				v = *p.Minimum
			}
			args[r] = json.RawMessage(strconv.FormatFloat(v, 'f', -1, 64))
		case p.Type == "boolean":
			args[r] = json.RawMessage("true")
		case p.Type == "object":
			args[r] = json.RawMessage("{}")
		case p.Type == "array":
			args[r] = json.RawMessage("[]")
		default:
			args[r] = json.RawMessage(`"demo"`)
		}
	}
	b, _ := json.Marshal(args)
	return b
}
