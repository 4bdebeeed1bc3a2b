package chatcompletions_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"yui/transport"
	rt "yui/transport/request/requesttest"
)

// Tools given at each turn (the user's MCP tools, Options.TurnTools) are
// declared on that turn's requests, checked against their schema and run;
// a list that changes is seen by the next turn.
func TestTurnToolsReadAtEachTurn(t *testing.T) {
	var turn atomic.Int32
	mk := func(name string) transport.Tool {
		return transport.Tool{Name: name, Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`), Wait: 5 * time.Second,
			Handler: func(_ context.Context, c transport.ToolCall) transport.ToolResult {
				return transport.ToolResult{Text: "ran " + c.Name + " " + string(c.Arguments)}
			}}
	}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		switch n {
		case 0:
			w.Data(call(0, "c1", "files__a", `{"n":1}`), call(1, "c2", "files__a", `{}`), toolsDone(), "[DONE]")
		default:
			w.Data(text("ok."), stop(), "[DONE]")
		}
	}, func(o *transport.Options) {
		o.TurnTools = func() []transport.Tool {
			if turn.Add(1) == 1 {
				return []transport.Tool{mk("files__a")}
			}
			return []transport.Tool{mk("files__b")}
		}
	})
	e.send(t, say("go"))
	reqs := e.srv.Requests()
	if !strings.Contains(string(reqs[0].Raw), `"files__a"`) {
		t.Fatalf("first request does not declare files__a: %s", reqs[0].Raw)
	}
	msgs := messages(reqs[1])
	if got := msgs[3]["content"]; got != `ran files__a {"n":1}` {
		t.Errorf("result 1 = %v", got)
	}
	if got := msgs[4]["content"]; got != "error: missing field n" {
		t.Errorf("result 2 = %v", got)
	}
	e.send(t, say("again"))
	last := e.srv.Requests()[len(e.srv.Requests())-1]
	tools, _ := json.Marshal(last.Body["tools"])
	if !strings.Contains(string(tools), `"files__b"`) || strings.Contains(string(tools), `"files__a"`) {
		t.Errorf("the second turn declares %s", tools)
	}
}
