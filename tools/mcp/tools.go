package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"yui/transport"
	"yui/transport/toolcall"
)

// AskWait is how long the pet's prompt waits for the user: no answer
// denies that call (docs/product.md §12).
const AskWait = 30 * time.Second

// waitMargin keeps the request transport's client wait of a tool past
// the ask and the call together, so that the answer is this package's
// own (a denial, or the server's time-out) rather than a generic one.
const waitMargin = 5 * time.Second

// Answer is the user's answer to the pet's prompt.
type Answer int

const (
	Denied        Answer = iota // Deny, or no answer within AskWait
	AllowedOnce                 // Allow once
	AllowedAlways               // Always: saved as allow
)

// Question is what the pet's prompt shows.
type Question struct {
	Tool    string // the declared name, "<server>__<tool>"
	Summary string // the arguments on one line
}

// Asker shows the prompt for a call and returns the user's answer; it
// must return Denied once ctx ends.
type Asker interface {
	Ask(ctx context.Context, q Question) Answer
}

// ToolOptions say how a preset's calls are allowed and reported.
type ToolOptions struct {
	// Permission is the mcp_permissions entry of a tool (its declared
	// name), read at each call; "" reads as Ask.
	Permission func(tool string) Permission
	// Always saves an Always answer as allow.
	Always func(tool string)
	// Ask shows the pet's prompt; nil denies every ask.
	Ask Asker
	// Status shows a call in the pet and the message window ("running",
	// then "done" or "failed"), as for every client tool; nil shows none.
	Status func(turnID, tool, state string)
}

// Tools are the declared tools of the named servers that run now, for
// one turn (a server's list changing is seen at the next turn). A tool
// whose schema the client-tool check cannot read (transport/toolcall) is
// left out with a log line: the model could not call it right.
func (m *Manager) Tools(servers []string, o ToolOptions) []transport.Tool {
	var out []transport.Tool
	seen := map[string]bool{}
	for _, name := range servers {
		s := m.server(name)
		if s == nil {
			continue
		}
		st := s.status()
		if st.State != StateRunning {
			continue
		}
		for _, ti := range st.Tools {
			declared := ToolName(name, ti.Name)
			if seen[declared] {
				continue
			}
			if _, err := toolcall.Compile(ti.Schema); err != nil {
				m.env.log.Debug("mcp_tool_skipped", "name", declared, "err", err.Error())
				continue
			}
			seen[declared] = true
			out = append(out, transport.Tool{
				Name:        declared,
				Description: ti.Description,
				Parameters:  ti.Schema,
				Wait:        s.cfg.wait() + AskWait + waitMargin,
				Handler:     m.handler(s, ti.Name, declared, o),
			})
		}
	}
	return out
}

// handler answers one tool's calls: the permission first, then the call.
func (m *Manager) handler(s *server, tool, declared string, o ToolOptions) transport.ToolHandler {
	return func(ctx context.Context, call transport.ToolCall) transport.ToolResult {
		if !m.allowed(ctx, declared, call.Arguments, o) {
			return transport.ToolResult{Text: NotAllowed(declared)}
		}
		if o.Status != nil {
			o.Status(call.TurnID, declared, "running")
		}
		start := m.env.clk.Now()
		res, errText := s.call(ctx, tool, call.Arguments)
		out := transport.ToolResult{Text: errText}
		if res != nil {
			out = toResult(res)
		}
		ok := !strings.HasPrefix(out.Text, "error: ")
		ms := m.env.clk.Now().Sub(start).Milliseconds()
		m.env.log.Info("mcp_call", "name", declared, "ms", ms, "ok", ok)
		if o.Status != nil {
			state := "done"
			if !ok {
				state = "failed"
			}
			o.Status(call.TurnID, declared, state)
		}
		return out
	}
}

// allowed applies the tool's permission, asking the user for ask.
func (m *Manager) allowed(ctx context.Context, tool string, args json.RawMessage, o ToolOptions) bool {
	p := Ask
	if o.Permission != nil {
		if v := o.Permission(tool); v != "" {
			p = v
		}
	}
	switch p {
	case Allow:
		return true
	case Deny:
		return false
	}
	if o.Ask == nil {
		return false
	}
	actx, cancel := context.WithCancel(ctx)
	t := m.env.clk.AfterFunc(AskWait, cancel)
	defer func() { t.Stop(); cancel() }()
	switch o.Ask.Ask(actx, Question{Tool: tool, Summary: Summary(args)}) {
	case AllowedAlways:
		if o.Always != nil {
			o.Always(tool)
		}
		return true
	case AllowedOnce:
		return true
	}
	return false
}

// summaryLen bounds the prompt's one line of arguments, in runes.
const summaryLen = 120

// Summary is a call's arguments on one line for the prompt: key=value
// pairs in the order the model wrote them, values compact, cut to fit.
func Summary(args json.RawMessage) string {
	dec := json.NewDecoder(strings.NewReader(string(args)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return cut(strings.Join(strings.Fields(string(args)), " "))
	}
	var parts []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			break
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		val := string(v)
		var s string
		if json.Unmarshal(v, &s) == nil {
			val = s
		}
		key, _ := k.(string)
		parts = append(parts, key+"="+strings.Join(strings.Fields(val), " "))
	}
	return cut(strings.Join(parts, ", "))
}

func cut(s string) string {
	r := []rune(s)
	if len(r) <= summaryLen {
		return s
	}
	return string(r[:summaryLen-1]) + "…"
}
