package mcp

import "strings"

// MaxNameLen is the longest declared tool name (docs/protocol/client-tools.md).
const MaxNameLen = 64

// Separator joins a server's name and its tool's name.
const Separator = "__"

// ToolName is the declared name of a server's tool: "<server>__<tool>",
// characters outside [A-Za-z0-9_-] made "_", cut to 64 bytes (the OpenAI
// function-name rule, which every request server applies).
func ToolName(server, tool string) string {
	var b strings.Builder
	for _, r := range server + Separator + tool {
		if r < 0x80 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > MaxNameLen {
		s = s[:MaxNameLen]
	}
	return s
}
