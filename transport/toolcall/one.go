package toolcall

import (
	"context"

	"yui/transport"
	"yui/transport/clock"
)

// RunOne validates and runs one call of a tool that is not a Runner's
// (a tool given for one turn, transport.Options.TurnTools), with its
// wait, and the result strings of Runner.Run: the schema's errors, "no
// result within", and ErrTurnStopped once ctx ends.
func RunOne(ctx context.Context, clk clock.Clock, t transport.Tool, call transport.ToolCall) transport.ToolResult {
	if t.Handler == nil {
		return transport.ToolResult{Text: ErrUnknownTool}
	}
	s, err := Compile(t.Parameters)
	if err != nil {
		return transport.ToolResult{Text: ErrUnknownTool}
	}
	if msg := s.Check(call.Arguments); msg != "" {
		return transport.ToolResult{Text: msg}
	}
	wait := t.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	j := &job{call: call, result: make(chan transport.ToolResult, 1)}
	timer := clk.AfterFunc(wait, func() { j.offer(transport.ToolResult{Text: NoResultWithin(wait)}) })
	defer timer.Stop()
	go func() { j.offer(callHandler(hctx, t.Handler, call)) }()
	select {
	case res := <-j.result:
		return res
	case <-ctx.Done():
		return transport.ToolResult{Text: ErrTurnStopped}
	}
}
