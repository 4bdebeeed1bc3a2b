package pushsim

// The demo's tool calls: which declared tool it calls on a turn, and the
// tool_call frames it sends and waits on.

import (
	"encoding/json"
	"fmt"
)

// bodyFirst orders the declared tools for the demo: body_action, look, the rest.
func bodyFirst(name string) int {
	switch name {
	case "body_action":
		return 0
	case "look":
		return 1
	}
	return 2
}

// callTool sends one tool_call of the declared tools, in turn, and waits
// for its result with the backend adapter's wait.
func (d *demo) callTool(turnID string, k int) error {
	if len(d.tools) == 0 {
		return nil
	}
	t := d.tools[(k-1)%len(d.tools)]
	name, args := t.Name, ExampleArguments(t.Name, t.Parameters)
	if name == "body_action" {
		// Out for a walk, then back home, in turn.
		d.walks++
		if d.walks%2 == 1 {
			args = json.RawMessage(`{"action":"walk_to","x":120}`)
		}
	}
	switch d.o.Break {
	case BreakUndeclaredTool:
		name = "run_shell"
	case BreakToolArgs:
		args = json.RawMessage(`{}`)
	case BreakParallelTools:
		// A second call goes out before the first is answered.
		wait, err := d.sendCall(turnID, fmt.Sprintf("c-%d-%s-early", k, name), name, args)
		if err != nil {
			return err
		}
		defer wait()
	}
	wait, err := d.sendCall(turnID, fmt.Sprintf("c-%d-%s", k, name), name, args)
	if err != nil {
		return err
	}
	return wait()
}

// sendCall sends one tool_call and returns the wait for its result.
func (d *demo) sendCall(turnID, callID, name string, args json.RawMessage) (wait func() error, err error) {
	ch := make(chan string, 1)
	d.mu.Lock()
	d.results[callID] = ch
	d.mu.Unlock()
	forget := func() {
		d.mu.Lock()
		delete(d.results, callID)
		d.mu.Unlock()
	}
	d.log.Info("sim_tool_call", "id", callID, "name", name, "arguments", string(args))
	if err := d.c.Send(frame{"type": "tool_call", "id": callID, "turn_id": turnID, "name": name, "arguments": args}); err != nil {
		forget()
		return nil, err
	}
	return func() error {
		defer forget()
		if d.o.Break == BreakToolNoWait {
			return nil
		}
		wait := ToolWait(name)
		if w, ok := d.o.ToolWaits[name]; ok {
			wait = w
		}
		timeout := make(chan struct{})
		timer := d.o.Clock.AfterFunc(wait, func() { close(timeout) })
		defer timer.Stop()
		select {
		case <-ch:
		case <-timeout:
			d.log.Warn("sim_tool_wait", "id", callID, "result", fmt.Sprintf("error: no reply from the client within %d s", int(wait.Seconds())))
		case <-d.ctx.Done():
			return d.ctx.Err()
		}
		return nil
	}, nil
}
