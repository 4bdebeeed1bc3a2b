package pushsim

// Breakage makes the fake backend break one backend rule of
// docs/protocol/push-transport.md (or docs/protocol/client-context.md, docs/protocol/client-tools.md) and keep every
// other. yui-sim check's tests run against each one to show that every
// rule is caught by its own check and only by it.
type Breakage string

// The breakages, one per checked rule.
const (
	BreakNone Breakage = ""
	// ready carries max_turn_bytes as a string.
	BreakReadyMaxTurnBytes Breakage = "ready_max_turn_bytes"
	// A wrong key is closed with 1008 instead of 4401.
	BreakWrongKeyCode Breakage = "wrong_key_code"
	// Every turn also gets a text frame that is not JSON.
	BreakFrameNotJSON Breakage = "frame_not_json"
	// A failing turn gets an error frame even when hello.accepts lacks "error".
	BreakErrorWithoutAccepts Breakage = "error_without_accepts"
	// speech frames carry segments as an object.
	BreakRenderShape Breakage = "render_shape"
	// Empty vocabulary lists are replaced by defaults.
	BreakVocabDefaults Breakage = "vocab_defaults"
	// The closing render goes out after turn_end.
	BreakRenderAfterTurnEnd Breakage = "render_after_turn_end"
	// turn_end goes out twice.
	BreakDoubleTurnEnd Breakage = "double_turn_end"
	// The error frame follows turn_end.
	BreakErrorAfterTurnEnd Breakage = "error_after_turn_end"
	// stop is ignored: the stopped turn plays on.
	BreakIgnoreStop Breakage = "ignore_stop"
	// reset keeps the old conversation's delegations.
	BreakResetKeepsWork Breakage = "reset_keeps_work"
	// tool_call names a tool the client did not declare.
	BreakUndeclaredTool Breakage = "undeclared_tool"
	// tool_call arguments lack a required field.
	BreakToolArgs Breakage = "tool_args"
	// Two tool_calls go out without waiting for the first result.
	BreakParallelTools Breakage = "parallel_tools"
	// The backend does not wait for tool_result.
	BreakToolNoWait Breakage = "tool_no_wait"
	// tool_status carries state "finished".
	BreakToolStatusState Breakage = "tool_status_state"
	// Delegation titles are not cut to 120 code points.
	BreakDelegationTitle Breakage = "delegation_title"
	// A reasoning frame goes out after the turn's turn_end.
	BreakReasoningAfterTurnEnd Breakage = "reasoning_after_turn_end"
	// usage carries its counts as strings.
	BreakUsageStrings Breakage = "usage_strings"
	// Each turn also gets a render over 256 KiB.
	BreakOversizeFrame Breakage = "oversize_frame"
	// The backend reads no frame over 64 KiB, so a full-size turn closes the socket.
	BreakTurnReadLimit Breakage = "turn_read_limit"
	// A second connection on the same chat_id closes the first with 4000.
	BreakReplaceCode Breakage = "replace_code"
)

// Breakages lists every breakage, in the order of the rules they break.
func Breakages() []Breakage {
	return []Breakage{
		BreakReadyMaxTurnBytes, BreakWrongKeyCode, BreakFrameNotJSON, BreakErrorWithoutAccepts,
		BreakRenderShape, BreakVocabDefaults, BreakRenderAfterTurnEnd, BreakDoubleTurnEnd,
		BreakErrorAfterTurnEnd, BreakIgnoreStop, BreakResetKeepsWork, BreakUndeclaredTool,
		BreakToolArgs, BreakParallelTools, BreakToolNoWait, BreakToolStatusState,
		BreakDelegationTitle, BreakReasoningAfterTurnEnd, BreakUsageStrings, BreakOversizeFrame,
		BreakTurnReadLimit, BreakReplaceCode,
	}
}

// turnReadLimit is the read limit BreakTurnReadLimit sets.
const turnReadLimit = 64 << 10

// replaceCode is the close code BreakReplaceCode sends to a replaced socket.
const replaceCode = 4000
