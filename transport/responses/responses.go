// Package responses is the responses transport: POST
// {chat_base_url}/responses, streamed, the card as instructions and the
// conversation held by the backend, chained by previous_response_id
// (docs/product.md §5, docs/protocol/push-transport.md "What each chat transport carries").
package responses

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"yui/transport"
	"yui/transport/apierror"
	"yui/transport/request"
)

// New returns a Responses transport. It fails on a chat_base_url that is
// not an http(s) URL and on a declared tool whose schema does not compile.
//
// Client tools go in tools[] of every request, as they do while
// broker_base_url is unset: this client has no broker.
func New(opts transport.Options) (transport.Transport, error) {
	return request.New(&dialect{}, opts)
}

// dialect holds the id of the last completed response.
type dialect struct {
	mu     sync.Mutex
	prevID string
	epoch  int
}

func (*dialect) Name() string        { return "responses" }
func (*dialect) Path() string        { return "/responses" }
func (*dialect) RunningStatus() bool { return true }

// Reset clears the stored response id: the next turn starts a new chain.
func (d *dialect) Reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.prevID = ""
	d.epoch++
}

// memory is the saved chain.
type memory struct {
	PreviousResponseID string `json:"previous_response_id"`
}

// Snapshot is the stored response id; nil when there is none.
func (d *dialect) Snapshot() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.prevID == "" {
		return nil
	}
	b, _ := json.Marshal(memory{PreviousResponseID: d.prevID})
	return b
}

// Restore continues a saved chain, when it was saved for this server:
// another server does not know the response id.
func (d *dialect) Restore(state []byte, sameServer bool) error {
	var m memory
	if err := json.Unmarshal(state, &m); err != nil {
		return fmt.Errorf("responses memory: %w", err)
	}
	if !sameServer || len(m.PreviousResponseID) > maxIDLen {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.prevID = m.PreviousResponseID
	return nil
}

// maxIDLen bounds a response id kept across a restart.
const maxIDLen = 512

func (d *dialect) Begin(in request.Input) request.Exchange {
	d.mu.Lock()
	defer d.mu.Unlock()
	content := []inputPart{{Type: "input_text", Text: in.Text}}
	for _, u := range in.Images {
		content = append(content, inputPart{Type: "input_image", ImageURL: u, Detail: "auto"})
	}
	return &exchange{
		d:     d,
		epoch: d.epoch,
		prev:  d.prevID,
		input: []any{inputMessage{Type: "message", Role: "user", Content: content}},
	}
}

type inputMessage struct {
	Type    string      `json:"type"`
	Role    string      `json:"role"`
	Content []inputPart `json:"content"`
}

type inputPart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

type callOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output any    `json:"output"` // a string, or parts when images come with it
}

type tool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	// Strict is sent false: the declared schemas have optional fields,
	// which strict mode (the Responses default) refuses.
	Strict bool `json:"strict"`
}

type reasoning struct {
	Effort  string `json:"effort"`
	Summary string `json:"summary,omitempty"`
}

type body struct {
	Model              string     `json:"model"`
	Instructions       string     `json:"instructions,omitempty"`
	Input              []any      `json:"input"`
	Tools              []tool     `json:"tools,omitempty"`
	PreviousResponseID string     `json:"previous_response_id,omitempty"`
	Reasoning          *reasoning `json:"reasoning,omitempty"`
	// Store is sent true: the chain by previous_response_id needs the
	// backend to keep each response, whatever a compatible server's
	// default.
	Store  bool `json:"store"`
	Stream bool `json:"stream"`
	// Truncation is "auto" on the retry of a request the server refused
	// as over its context: the backend holds the conversation, so it is
	// the one to drop its oldest items.
	Truncation string `json:"truncation,omitempty"`
}

// exchange is one turn: the response it chains from, the input of the next
// request, and the round being streamed.
type exchange struct {
	d     *dialect
	epoch int
	prev  string
	input []any

	// The current round.
	respID   string
	calls    []*fnCall
	finished bool
	// unsent is true while answered outputs wait for the next request.
	unsent bool
}

type fnCall struct {
	itemID, callID, name string
	args                 strings.Builder
	done                 bool // the full arguments arrived
}

func (x *exchange) Body(p request.Params) ([]byte, error) {
	x.respID, x.calls, x.finished, x.unsent = "", nil, false, false
	b := body{
		Model:              p.Model,
		Instructions:       p.Instructions,
		Input:              x.input,
		PreviousResponseID: x.prev,
		Store:              true,
		Stream:             true,
	}
	if p.Budget.Tight {
		b.Truncation = "auto"
	}
	if p.ReasoningEffort != "" {
		b.Reasoning = &reasoning{Effort: p.ReasoningEffort, Summary: "auto"}
	}
	for _, t := range p.Tools {
		b.Tools = append(b.Tools, tool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return request.MarshalBody(b)
}

// item is an output item of a response (the fields read here).
type item struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Status    string `json:"status"`
	// ServerLabel names an MCP server's tool.
	ServerLabel string `json:"server_label"`
}

// event is one Responses stream event (the fields read here).
type event struct {
	Type     string `json:"type"`
	Delta    string `json:"delta"`
	ItemID   string `json:"item_id"`
	Args     string `json:"arguments"`
	Item     *item  `json:"item"`
	Response *struct {
		ID     string `json:"id"`
		Output []item `json:"output"`
		Usage  *struct {
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
			TotalTokens  int64 `json:"total_tokens"`
		} `json:"usage"`
		Error             json.RawMessage `json:"error"`
		IncompleteDetails json.RawMessage `json:"incomplete_details"`
	} `json:"response"`
	// Error is the error object of an error event, or one a proxy
	// streams in place of an event.
	Error json.RawMessage `json:"error"`
}

// Event handles one event of the stream: deltas go to s as they come,
// tool calls are gathered, and the stream's end or failure is returned.
func (x *exchange) Event(name string, data []byte, s request.Sink) error {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return fmt.Errorf("%w: %v", request.ErrMalformed, err)
	}
	typ := ev.Type
	if typ == "" {
		typ = name
	}
	switch typ {
	case "response.output_text.delta":
		s.Text(ev.Delta)
	case "response.refusal.delta":
		s.Refusal(ev.Delta)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta",
		"response.reasoning.delta", "response.reasoning_summary.delta":
		s.Reasoning(ev.Delta)
	case "response.created", "response.in_progress":
		if ev.Response != nil && ev.Response.ID != "" {
			x.respID = ev.Response.ID
		}
	case "response.output_item.added":
		x.itemAdded(ev.Item, s)
	case "response.function_call_arguments.delta":
		if c := x.call(ev.ItemID, "", ""); !c.done {
			c.args.WriteString(ev.Delta)
		}
	case "response.function_call_arguments.done":
		x.call(ev.ItemID, "", "").finish(ev.Args)
	case "response.output_item.done":
		x.itemDone(ev.Item, s)
	case "response.completed":
		x.completed(&ev, s)
		return request.ErrStreamEnd
	case "response.failed", "response.incomplete", "error":
		return failure(typ, &ev, data)
	default:
		if ev.Type == "" && len(ev.Error) > 0 && string(ev.Error) != "null" {
			// An error raised while reading the stream, not an event:
			// its status, when it has one, is shown.
			return apierror.ServerError(data)
		}
		// Other events (content_part, annotations, ...) carry nothing
		// shown.
	}
	return nil
}

// itemAdded starts a function call, or shows a tool the backend runs
// itself as running.
func (x *exchange) itemAdded(it *item, s request.Sink) {
	if it == nil {
		return
	}
	if it.Type == "function_call" {
		x.call(it.ID, it.CallID, it.Name)
	} else if id := serverTool(it); id != "" {
		s.ToolStatus("running", id)
	}
}

// itemDone finishes a function call with its arguments, or shows a tool
// the backend ran itself as done or failed.
func (x *exchange) itemDone(it *item, s request.Sink) {
	if it == nil {
		return
	}
	if it.Type == "function_call" {
		x.call(it.ID, it.CallID, it.Name).finish(it.Arguments)
	} else if id := serverTool(it); id != "" {
		state := "done"
		if it.Status == "failed" {
			state = "failed"
		}
		s.ToolStatus(state, id)
	}
}

// completed ends the exchange: the response's id for the next turn, its
// calls when no item events brought them, and its usage.
func (x *exchange) completed(ev *event, s request.Sink) {
	x.finished = true
	r := ev.Response
	if r == nil {
		return
	}
	if r.ID != "" {
		x.respID = r.ID
	}
	if len(x.calls) == 0 {
		// A server that sends no item events: take the calls
		// from the finished response.
		for _, it := range r.Output {
			if it.Type == "function_call" {
				x.call(it.ID, it.CallID, it.Name).finish(it.Arguments)
			}
		}
	}
	if u := r.Usage; u != nil {
		s.Usage(transport.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens})
	}
}

// failure is the error a failed or incomplete response, or an error event,
// ends the stream with.
func failure(typ string, ev *event, data []byte) error {
	switch typ {
	case "response.failed":
		// Generic failure text (docs/protocol/push-transport.md); the server's message
		// and code go to the log.
		se := &apierror.StatusError{}
		if r := ev.Response; r != nil && len(r.Error) > 0 && string(r.Error) != "null" {
			se = apierror.ServerError(r.Error)
		}
		se.Kind, se.Status = typ, 0
		return se
	case "response.incomplete":
		detail := ""
		if r := ev.Response; r != nil {
			detail = string(r.IncompleteDetails)
		}
		return &apierror.StatusError{Kind: typ, Text: detail}
	default: // "error"
		// OpenAI nests message and code in "error"; other servers put
		// them at the top level of the event. Either way the text shown
		// is the generic one; the log line has the server's words.
		se := apierror.ServerError(data)
		se.Kind, se.Status = "error", 0
		return se
	}
}

// serverTool names an output item that is a tool the backend runs itself
// (web_search_call, mcp_call, ...), "" for other items.
func serverTool(it *item) string {
	switch it.Type {
	case "function_call", "message", "reasoning", "":
		return ""
	case "mcp_call":
		if it.Name != "" {
			return it.Name
		}
	}
	if t, ok := strings.CutSuffix(it.Type, "_call"); ok {
		return t
	}
	return ""
}

// finish sets the call's full arguments. An empty value keeps the deltas
// read so far: a compatible server may leave the field out of its done
// events.
func (c *fnCall) finish(args string) {
	if args != "" {
		c.args.Reset()
		c.args.WriteString(args)
	}
	c.done = true
}

// maxCalls bounds the function calls of one response; a call past it is
// read and dropped.
const maxCalls = 128

// call finds or adds the function call of an output item.
func (x *exchange) call(itemID, callID, name string) *fnCall {
	for _, c := range x.calls {
		if itemID != "" && c.itemID == itemID || itemID == "" && callID != "" && c.callID == callID {
			if callID != "" {
				c.callID = callID
			}
			if name != "" {
				c.name = name
			}
			return c
		}
	}
	c := &fnCall{itemID: itemID, callID: callID, name: name}
	if len(x.calls) < maxCalls {
		x.calls = append(x.calls, c)
	}
	return c
}

func (x *exchange) Finished() bool { return x.finished }

func (x *exchange) Calls() []request.Call {
	var out []request.Call
	for i, c := range x.calls {
		if c.name == "" {
			continue
		}
		if c.callID == "" {
			c.callID = c.itemID
			if c.callID == "" {
				c.callID = fmt.Sprintf("call_%d", i)
			}
		}
		out = append(out, request.Call{ID: c.callID, Name: c.name, Arguments: c.args.String()})
	}
	return out
}

// Answer makes the results the next request's input, chained to this
// round's response.
func (x *exchange) Answer(results []request.Result) {
	x.input = x.input[:0:0]
	for _, r := range results {
		o := callOutput{Type: "function_call_output", CallID: r.Call.ID, Output: r.Text}
		if len(r.Images) > 0 {
			parts := []inputPart{{Type: "input_text", Text: r.Text}}
			for _, u := range r.Images {
				parts = append(parts, inputPart{Type: "input_image", ImageURL: u, Detail: "auto"})
			}
			o.Output = parts
		}
		x.input = append(x.input, o)
	}
	x.prev = x.respID
	x.calls = nil
	x.unsent = true
}

// Commit stores the last response's id for the next turn, when the turn
// completed and its last response has no unanswered call.
func (x *exchange) Commit(complete bool) {
	if !complete || !x.finished || x.unsent || len(x.calls) > 0 || x.respID == "" {
		return
	}
	x.d.mu.Lock()
	defer x.d.mu.Unlock()
	if x.epoch == x.d.epoch {
		x.d.prevID = x.respID
	}
}
