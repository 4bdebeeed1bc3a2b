// Package mcp is the client of the user's own tool servers, through the
// Model Context Protocol (docs/product.md §12, docs/protocol/client-tools.md
// "The user's MCP tools"): local servers started as processes (stdio) and
// remote ones over streamable HTTP, through the official SDK
// (github.com/modelcontextprotocol/go-sdk). A Manager owns every server:
// it starts one with the first preset that uses it, restarts it after a
// crash (1 s doubling to 30 s, then failed with its last stderr line),
// lists its tools again when they change, and stops it when no preset
// uses it any more and at Close, so that no server outlives Yui.
//
// Tools declares a preset's servers' tools under "<server>__<tool>" with
// each server's own schema, and answers their calls with the result
// strings of docs/protocol/client-tools.md, after the user's permission (ask, allow,
// deny) for that tool. The package never imports Fyne: the pet's prompt
// comes in as an Asker, the settings as ServerConfigs and Permissions,
// and time as a transport/clock Clock, so it tests headless.
package mcp

import (
	"errors"
	"time"
)

// Kind says how a server is reached.
type Kind string

const (
	// KindStdio is a local process speaking over its stdin and stdout.
	KindStdio Kind = "stdio"
	// KindHTTP is a remote server over streamable HTTP.
	KindHTTP Kind = "http"
)

// DefaultTimeout is a server's wait for each call when timeout_s is 0
// (docs/protocol/client-tools.md: 60 s by default).
const DefaultTimeout = 60 * time.Second

// ServerConfig is one server of the global mcp_servers setting
// (pet/settings/mcp.go has the file form), its secrets filled in.
type ServerConfig struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
	// Timeout bounds each call, and the start (connect, initialize and
	// the first tools/list); 0 is DefaultTimeout.
	Timeout time.Duration
}

// Kind is KindHTTP for a server with a URL, else KindStdio.
func (c ServerConfig) Kind() Kind {
	if c.URL != "" {
		return KindHTTP
	}
	return KindStdio
}

// wait is the call timeout in effect.
func (c ServerConfig) wait() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

// Validate says why a config cannot work, or nil.
func (c ServerConfig) Validate() error {
	switch {
	case c.Name == "":
		return errors.New("mcp: a server without a name")
	case c.Command == "" && c.URL == "":
		return errors.New("mcp: server " + c.Name + ": neither command nor url")
	case c.Command != "" && c.URL != "":
		return errors.New("mcp: server " + c.Name + ": both command and url")
	}
	return nil
}

// equal reports whether two configs start the same server.
func (c ServerConfig) equal(o ServerConfig) bool {
	return c.Name == o.Name && c.Command == o.Command && c.URL == o.URL && c.Timeout == o.Timeout &&
		equalSlices(c.Args, o.Args) && equalMaps(c.Env, o.Env) && equalMaps(c.Headers, o.Headers)
}

func equalSlices(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Permission is the user's permission for one tool (mcp_permissions).
type Permission string

const (
	// Ask shows the pet's prompt at each call: the default.
	Ask Permission = "ask"
	// Allow runs every call.
	Allow Permission = "allow"
	// Deny refuses every call without reaching the server.
	Deny Permission = "deny"
)
