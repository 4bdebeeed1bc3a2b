// Package address is the address_character client tool (docs/protocol/client-tools.md):
// one character says something to another character on the same desktop,
// which starts a turn on that character's pet with trigger
// "addressed by <caller's name>".
package address

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"yui/transport"
)

// Tool constants of docs/protocol/client-tools.md.
const (
	Name        = "address_character"
	Description = "Say something to another character on this desktop"
	Wait        = 2 * time.Second
)

// Parameters is the tool's JSON schema, exactly as docs/protocol/client-tools.md gives it.
const Parameters = `{ "type": "object",
    "properties": { "character": { "type": "string", "description": "The other character's name" },
                    "text": { "type": "string", "maxLength": 2000 } },
    "required": ["character", "text"], "additionalProperties": false }`

// Directory finds the characters on this desktop. The app implements it.
type Directory interface {
	// Find looks a character up by name, case-insensitively. It returns the
	// character's name as configured, and deliver, which starts the turn on
	// its pet, or nil when the character exists but is not running. A name
	// that matches no character returns "" and nil.
	Find(name string) (found string, deliver func(from, text string))
}

// New returns the tool for the character named self. others, the names of
// the other running characters, are listed in the description so the model
// knows whom it can address.
func New(self string, others []string, dir Directory) transport.Tool {
	desc := Description
	if len(others) > 0 {
		desc += ". Running now: " + strings.Join(others, ", ")
	}
	return transport.Tool{
		Name:        Name,
		Description: desc,
		Parameters:  json.RawMessage(Parameters),
		Wait:        Wait,
		Handler: func(_ context.Context, call transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: Call(self, dir, call.Arguments)}
		},
	}
}

// Call runs one call whose arguments the schema already accepted, and
// returns the result text.
func Call(self string, dir Directory, args json.RawMessage) string {
	var a struct {
		Character string `json:"character"`
		Text      string `json:"text"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return "error: invalid field arguments"
	}
	name := strings.TrimSpace(a.Character)
	if strings.EqualFold(name, self) {
		return "error: a character cannot address itself"
	}
	found, deliver := dir.Find(name)
	switch {
	case found == "":
		return fmt.Sprintf("error: no character named %q", a.Character)
	case deliver == nil:
		return fmt.Sprintf("error: %s is not running", found)
	}
	deliver(self, a.Text)
	return "ok: delivered to " + found
}
