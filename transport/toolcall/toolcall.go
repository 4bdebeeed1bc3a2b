// Package toolcall validates client-declared tool calls against their JSON
// schemas and runs them one at a time per chat, with each tool's client
// wait (docs/protocol/push-transport.md "tool_call and tool_result", docs/protocol/client-tools.md).
// Push and the request transports share it, so the result strings match.
package toolcall

import (
	"strconv"
	"time"
)

// Generic error results of docs/protocol/push-transport.md.
const (
	ErrUnknownTool    = "error: unknown tool"
	ErrTurnStopped    = "error: turn stopped"
	ErrResultTooLarge = "error: result too large"
)

// DefaultWait is the client wait of a tool whose Wait is not positive.
// A tool without a wait would hold the chat's queue forever.
const DefaultWait = 2 * time.Second

// stoppedKept bounds how many stopped turn ids a Runner remembers to answer
// their late calls ErrTurnStopped.
const stoppedKept = 64

// MissingField returns "error: missing field <name>".
func MissingField(name string) string { return "error: missing field " + name }

// InvalidField returns "error: invalid field <name>".
func InvalidField(name string) string { return "error: invalid field " + name }

// NoResultWithin returns "error: no result within <n> s", the answer of a
// call whose client wait passed.
func NoResultWithin(wait time.Duration) string {
	return "error: no result within " + strconv.FormatFloat(wait.Seconds(), 'f', -1, 64) + " s"
}
