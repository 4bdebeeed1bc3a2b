package push

// tool_call frames: validated and run through the chat's toolcall.Runner,
// answered with tool_result frames within the frame budget.

import (
	"encoding/json"

	"yui/transport"
	"yui/transport/toolcall"
)

func (c *Client) onToolCall(cn *conn, data []byte) {
	var f toolCallIn
	if !c.decode("tool_call", data, &f) {
		return
	}
	switch {
	case f.ID == "":
		c.malformed("tool_call", "missing id")
		return
	case f.TurnID == "":
		c.malformed("tool_call", "missing turn_id")
		return
	case f.Name == nil:
		c.malformed("tool_call", "missing name")
		return
	}
	args := f.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	} else if args[0] != '{' {
		c.malformed("tool_call", "arguments is not an object")
		return
	}
	call := transport.ToolCall{ID: f.ID, TurnID: f.TurnID, Name: *f.Name, Arguments: args}

	c.mu.Lock()
	tr, _ := c.touchLocked(f.TurnID)
	stopped := tr != nil && tr.stopped
	if tr != nil && !stopped {
		c.armWaitLocked(tr)
	}
	c.mu.Unlock()
	c.log.Info("push.tool_call", "id", call.ID, "turn_id", call.TurnID, "name", call.Name)
	if stopped {
		// The runner remembers only its latest stopped turns; the client
		// holds a stopped turn until its turn_end, so it tells the runner
		// again rather than let a call of an older stopped turn run.
		c.runner.CancelTurn(call.TurnID)
	}

	// The runner answers unknown tools, bad arguments and stopped turns (it
	// learns them from CancelTurn in Interrupt) at once, and drops repeated
	// ids before any answer.
	c.runner.Submit(call, func(res transport.ToolResult) { c.sendToolResult(cn, call, res) })
}

// sendToolResult answers a call on the socket it came from. Images are
// fitted into max_turn_bytes (256 KiB when absent); when the frame would
// still pass its limit the answer is "error: result too large".
func (c *Client) sendToolResult(cn *conn, call transport.ToolCall, res transport.ToolResult) {
	c.mu.Lock()
	maxTurn := cn.maxTurnBytes
	c.mu.Unlock()

	frame := c.toolResultFrame(call, res, maxTurn)
	if frame == nil {
		return
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.cn != cn || !cn.ready {
		c.log.Warn("push.tool_result", "id", call.ID, "turn_id", call.TurnID, "dropped", "not_ready")
		return
	}
	c.queueLocked(cn, "tool_result", frame)
	c.log.Info("push.tool_result", "id", call.ID, "turn_id", call.TurnID)
}

// toolResultFrame encodes the answer to call, or returns nil when not even
// "error: result too large" fits: ids that filled an inbound frame can
// outgrow the text frame size once re-encoded, and an oversize frame is
// never sent, so the backend's own wait answers that call.
func (c *Client) toolResultFrame(call transport.ToolCall, res transport.ToolResult, maxTurn int) []byte {
	enc := func(text string) []byte {
		b, _ := marshal(toolResultFrame{Type: "tool_result", ID: call.ID, TurnID: call.TurnID, Result: text})
		return b
	}
	tooLarge := func(n int) []byte {
		c.logOversize("out", "tool_result", int64(n))
		b := enc(toolcall.ErrResultTooLarge)
		if len(b) > TextFrameLimit {
			c.logOversize("out", "tool_result", int64(len(b)))
			c.log.Warn("push.tool_result", "id", call.ID, "turn_id", call.TurnID, "dropped", "oversize")
			return nil
		}
		return b
	}
	base := enc(res.Text)
	if len(res.Images) == 0 {
		if len(base) > TextFrameLimit {
			return tooLarge(len(base))
		}
		return base
	}
	limit := TextFrameLimit
	if maxTurn > 0 {
		limit = maxTurn
	}
	if len(base) > limit {
		return tooLarge(len(base))
	}
	frame := c.withImages(base, res.Images, limit, false)
	if frame == nil {
		return tooLarge(len(base))
	}
	return frame
}
