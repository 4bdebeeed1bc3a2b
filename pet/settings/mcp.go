package settings

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The user's MCP servers (docs/product.md §12): the global mcp_servers
// and mcp_permissions, in the format Claude Desktop and Cursor use, and
// each preset's mcp list of the servers it uses.

// MCPServer is one server of mcp_servers: a local one (command, args,
// env) or a remote one over streamable HTTP (url, headers).
type MCPServer struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// TimeoutS bounds each call in seconds; 0 is 60.
	TimeoutS int `json:"timeout_s,omitempty"`
	// Type is what some files write beside the fields ("stdio", "http"),
	// kept as it was.
	Type string `json:"type,omitempty"`
	// Keyring names, in the file only, the keyring entry of each header
	// and env value the system keyring holds ("header/<Name>",
	// "env/<NAME>"); that value is then "" in the file. In memory the
	// values are in Headers and Env and Keyring is nil (keys.go).
	Keyring map[string]string `json:"keyring,omitempty"`
}

// MCP permissions (mcp_permissions), per declared tool name.
const (
	MCPAsk   = "ask"
	MCPAllow = "allow"
	MCPDeny  = "deny"
)

// MaxMCPTimeoutS bounds timeout_s: a call longer than ten minutes holds
// the turn past any wait a user would sit through.
const MaxMCPTimeoutS = 600

// Clone returns a deep copy of m.
func (m MCPServer) Clone() MCPServer {
	c := m
	c.Args = slices.Clone(m.Args)
	c.Env = maps.Clone(m.Env)
	c.Headers = maps.Clone(m.Headers)
	c.Keyring = maps.Clone(m.Keyring)
	return c
}

// cloneMCP deep-copies the MCP settings of s.
func cloneMCP(s Settings) (map[string]MCPServer, map[string]string) {
	if s.MCPServers == nil {
		return nil, maps.Clone(s.MCPPermissions)
	}
	out := make(map[string]MCPServer, len(s.MCPServers))
	for k, v := range s.MCPServers {
		out[k] = v.Clone()
	}
	return out, maps.Clone(s.MCPPermissions)
}

// MCPPermission is a tool's permission: ask when the settings name none.
func (s Settings) MCPPermission(tool string) string {
	if p := s.MCPPermissions[tool]; p != "" {
		return p
	}
	return MCPAsk
}

// mcpSecrets are the header and env values, for the log redactor.
func (s Settings) mcpSecrets() []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(s.MCPServers)) {
		m := s.MCPServers[name]
		for _, v := range slices.Sorted(maps.Values(m.Headers)) {
			out = append(out, secretPart(v))
		}
		for _, v := range slices.Sorted(maps.Values(m.Env)) {
			out = append(out, v)
		}
	}
	return slices.DeleteFunc(out, func(v string) bool { return len(v) < 4 })
}

// secretPart is the secret of a header value: "Bearer abc" hides abc.
func secretPart(v string) string {
	if scheme, rest, ok := strings.Cut(v, " "); ok && len(scheme) < 16 && rest != "" {
		return strings.TrimSpace(rest)
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// validateMCP names every MCP field that cannot work.
func (s *Settings) validateMCP() []FieldError {
	var errs []FieldError
	bad := func(field string, why *Invalid) { errs = append(errs, fieldErr("", field, why)) }
	for _, name := range slices.Sorted(maps.Keys(s.MCPServers)) {
		m := s.MCPServers[name]
		f := "mcp_servers." + name
		switch {
		case strings.TrimSpace(name) == "" || strings.Contains(name, "__"):
			bad(f, invalid(CodeServerName))
		case m.Command == "" && m.URL == "":
			bad(f+".command", invalid(CodeServerNeeds))
		case m.Command != "" && m.URL != "":
			bad(f+".url", invalid(CodeServerBoth))
		}
		if m.URL != "" {
			if u, err := url.Parse(m.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				bad(f+".url", invalid(CodeHTTPURL))
			}
		}
		if m.TimeoutS < 0 || m.TimeoutS > MaxMCPTimeoutS {
			bad(f+".timeout_s", invalid(CodeMCPTimeout, "Max", MaxMCPTimeoutS))
		}
	}
	for _, tool := range slices.Sorted(maps.Keys(s.MCPPermissions)) {
		if !slices.Contains([]string{MCPAsk, MCPAllow, MCPDeny}, s.MCPPermissions[tool]) {
			bad("mcp_permissions."+tool, oneOf(MCPAsk, MCPAllow, MCPDeny))
		}
	}
	for _, p := range s.Presets {
		for _, n := range p.MCP {
			if _, ok := s.MCPServers[n]; !ok {
				errs = append(errs, fieldErr(p.ID, "mcp", invalid(CodeNoSuchServer, "Name", strconv.Quote(n))))
			}
		}
	}
	return errs
}
