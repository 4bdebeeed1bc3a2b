package facts

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"yui/transport"
	"yui/transport/toolcall"
)

// Tool constants of docs/protocol/client-tools.md, whose table gives these two the
// 2 s wait of rate_relation: they answer as fast.
const (
	RememberName        = "remember"
	RememberDescription = "Keep one short lasting fact about the user or your relationship, to recall in later conversations"
	ForgetName          = "forget"
	ForgetDescription   = "Drop a fact you remembered, by its id or its text"
	Wait                = 2 * time.Second
)

// RememberParameters and ForgetParameters are the tools' JSON schemas,
// exactly as docs/protocol/client-tools.md gives them.
const (
	RememberParameters = `{ "type": "object",
    "properties": { "fact": { "type": "string", "description": "1-300 characters" },
                    "about": { "type": "string", "enum": ["user", "world", "us"] } },
    "required": ["fact"], "additionalProperties": false }`
	ForgetParameters = `{ "type": "object",
    "properties": { "id": { "type": "integer" }, "text": { "type": "string" } },
    "additionalProperties": false }`
)

// Result strings.
const (
	errNoSuchMemory = "error: no such memory"
	errNotSaved     = "error: the memory could not be saved"
)

// RememberTool is the remember tool over s.
func RememberTool(s *Store) transport.Tool {
	return transport.Tool{Name: RememberName, Description: RememberDescription, Parameters: json.RawMessage(RememberParameters), Wait: Wait,
		Handler: func(ctx context.Context, call transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: s.remember(ctx, call.Arguments)}
		}}
}

// ForgetTool is the forget tool over s.
func ForgetTool(s *Store) transport.Tool {
	return transport.Tool{Name: ForgetName, Description: ForgetDescription, Parameters: json.RawMessage(ForgetParameters), Wait: Wait,
		Handler: func(ctx context.Context, call transport.ToolCall) transport.ToolResult {
			return transport.ToolResult{Text: s.forget(ctx, call.Arguments)}
		}}
}

// args reads a tool's arguments as an object with only the fields
// allowed; the runner checked the schema already, this keeps the handler
// safe on its own.
func args(raw json.RawMessage, allowed ...string) (map[string]json.RawMessage, string) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, toolcall.InvalidField("arguments")
	}
	for k := range m {
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			return nil, toolcall.InvalidField(k)
		}
	}
	return m, ""
}

func (s *Store) remember(ctx context.Context, raw json.RawMessage) string {
	m, bad := args(raw, "fact", "about")
	if bad != "" {
		return bad
	}
	f, ok := m["fact"]
	if !ok {
		return toolcall.MissingField("fact")
	}
	var fact string
	if json.Unmarshal(f, &fact) != nil || clean(fact) == "" || utf8.RuneCountInString(clean(fact)) > MaxFactLen {
		return toolcall.InvalidField("fact")
	}
	var about string
	if a, ok := m["about"]; ok {
		if json.Unmarshal(a, &about) != nil || about == "" {
			return toolcall.InvalidField("about")
		}
	}
	ab, ok := ParseAbout(about)
	if !ok {
		return toolcall.InvalidField("about")
	}
	if ctx.Err() != nil {
		return toolcall.ErrTurnStopped
	}
	id, already, err := s.Remember(fact, ab)
	switch {
	case err != nil && id == 0:
		return errNotSaved
	case already:
		s.log.Info("memory_remember", "id", id, "already", true)
		return fmt.Sprintf("ok: already remembered #%d", id)
	}
	// A failed write keeps the fact in memory: the next write carries it.
	s.log.Info("memory_remember", "id", id, "already", false, "about", string(ab))
	return fmt.Sprintf("ok: remembered #%d", id)
}

func (s *Store) forget(ctx context.Context, raw json.RawMessage) string {
	m, bad := args(raw, "id", "text")
	if bad != "" {
		return bad
	}
	idRaw, hasID := m["id"]
	textRaw, hasText := m["text"]
	if !hasID && !hasText {
		return toolcall.MissingField("id")
	}
	if ctx.Err() != nil {
		return toolcall.ErrTurnStopped
	}
	var id int64
	var err error
	if hasID {
		// An integer is a plain integer literal, as the runner reads it.
		n, perr := strconv.ParseInt(strings.TrimSpace(string(idRaw)), 10, 64)
		if perr != nil {
			return toolcall.InvalidField("id")
		}
		id, err = n, s.Forget(n)
	} else {
		var text string
		if json.Unmarshal(textRaw, &text) != nil || clean(text) == "" {
			return toolcall.InvalidField("text")
		}
		id, err = s.ForgetText(text)
	}
	switch {
	case err == ErrNoSuchMemory:
		return errNoSuchMemory
	case err != nil:
		// Dropped from memory; the next write carries it.
		s.log.Info("memory_forget", "id", id)
	default:
		s.log.Info("memory_forget", "id", id)
	}
	return fmt.Sprintf("ok: forgot #%d", id)
}
