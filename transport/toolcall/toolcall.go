// Package toolcall validates client-declared tool calls against their JSON
// schemas and runs them one at a time per chat, with each tool's client
// wait (push-transport.md "tool_call and tool_result", client-tools.md).
// Push and the request transports share it, so the result strings match.
package toolcall

import (
	"context"
	"encoding/json"
	"log/slog"

	"yui/transport"
	"yui/transport/clock"
)

// Generic error results of push-transport.md.
const (
	ErrUnknownTool    = "error: unknown tool"
	ErrTurnStopped    = "error: turn stopped"
	ErrResultTooLarge = "error: result too large"
)

// MissingField returns "error: missing field <name>".
func MissingField(name string) string { panic("TODO") }

// InvalidField returns "error: invalid field <name>".
func InvalidField(name string) string { panic("TODO") }

// Schema is a compiled tool parameter schema: the subset of JSON Schema the
// declared tools use (object, properties, required, additionalProperties,
// type string/integer/number/boolean/object/array, enum, minimum, maximum,
// maxLength counted in code points).
type Schema struct{}

// Compile parses a tool's parameters schema.
func Compile(raw json.RawMessage) (*Schema, error) { panic("TODO") }

// Check validates call arguments. It returns "" when they are acceptable,
// else the result text to answer at once: MissingField, InvalidField (a
// wrong type, a value outside enum/range/length, an undeclared field when
// additionalProperties is false). args must be a JSON object; anything else
// is InvalidField("arguments").
func (s *Schema) Check(args json.RawMessage) string { panic("TODO") }

// Runner runs the tool calls of one chat one at a time, in arrival order.
type Runner struct{}

// NewRunner returns a runner for the declared tools. Schemas that do not
// compile are an error naming the tool.
func NewRunner(tools []transport.Tool, clk clock.Clock, log *slog.Logger) (*Runner, error) {
	panic("TODO")
}

// Declared reports whether name is a declared tool.
func (r *Runner) Declared(name string) bool { panic("TODO") }

// Submit takes one call. Unknown tools and invalid arguments are answered at
// once through reply (even while another call runs). A call whose id repeats
// one queued or running is dropped with a log line ("tool_call_duplicate",
// id, turn_id) and never answered; Submit then returns false. Otherwise the
// call is queued; when it starts running its tool's Wait starts, and reply
// gets the handler's result, or "error: no result within <n> s" when the
// wait passes first. reply is called from the runner's goroutine (or, for
// at-once answers, from the caller's), exactly once per accepted call.
func (r *Runner) Submit(call transport.ToolCall, reply func(transport.ToolResult)) bool {
	panic("TODO")
}

// CancelTurn answers every queued call of the turn ErrTurnStopped at once and
// cancels the running one's context (its reply is then ErrTurnStopped).
func (r *Runner) CancelTurn(turnID string) { panic("TODO") }

// Run validates and runs a single call synchronously with the tool's wait:
// what the request transports use inside their tool loop. It returns the
// same result strings as Submit.
func (r *Runner) Run(ctx context.Context, call transport.ToolCall) transport.ToolResult {
	panic("TODO")
}

// Close stops the runner goroutine; queued calls are dropped unanswered.
func (r *Runner) Close() { panic("TODO") }
