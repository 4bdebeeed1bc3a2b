// Package chatcompletions is the chat_completions transport: POST
// {chat_base_url}/chat/completions, streamed with usage, the card as the
// first system message and the conversation held on the client
// (docs/product.md §5, docs/protocol/push-transport.md "What each chat transport carries").
//
// It reads the extra delta fields compatible servers send (reasoning_content
// from vLLM, DeepSeek and xAI, reasoning from Ollama, Groq and OpenRouter,
// content as a list of text and thinking parts from Mistral, refusal from
// OpenAI), and the chunk shapes of OpenAI, vLLM and Ollama. An assistant
// message that made tool calls carries the reasoning_content it came with
// into the later requests of its turn, as DeepSeek's thinking mode needs,
// and drops it once the turn ends.
//
// Each request carries the card, the newest turn and as many turns before
// it as the context budget holds (budget.go); only the newest turn
// carries images.
package chatcompletions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"yui/transport"
	"yui/transport/apierror"
	"yui/transport/request"
)

// New returns a Chat Completions transport. It fails on a chat_base_url
// that is not an http(s) URL and on a declared tool whose schema does not
// compile.
func New(opts transport.Options) (transport.Transport, error) {
	return request.New(&dialect{}, opts)
}

// dialect holds the client transcript.
type dialect struct {
	mu         sync.Mutex
	transcript []turnRec // oldest first, at most MaxTurns
	epoch      int       // bumped by Reset
}

func (*dialect) Name() string        { return "chat_completions" }
func (*dialect) Path() string        { return "/chat/completions" }
func (*dialect) RunningStatus() bool { return false }

// Reset is the transcript boundary: the next turn starts a new conversation.
func (d *dialect) Reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.transcript = nil
	d.epoch++
}

// Snapshot is the transcript, newest turns within MaxConversationBytes.
func (d *dialect) Snapshot() []byte {
	d.mu.Lock()
	turns := d.transcript
	d.mu.Unlock()
	return snapshot(turns)
}

// Restore continues a saved transcript, whatever server it was for: the
// conversation is the user's, not the server's.
func (d *dialect) Restore(state []byte, sameServer bool) error {
	turns, err := restore(state)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.transcript = turns
	return nil
}

func (d *dialect) Begin(in request.Input) request.Exchange {
	d.mu.Lock()
	defer d.mu.Unlock()
	user := message{Role: "user", Content: textContent(in.Text)}
	lean := user
	if len(in.Images) > 0 {
		parts := []part{{Type: "text", Text: in.Text}}
		for _, u := range in.Images {
			parts = append(parts, part{Type: "image_url", ImageURL: &imageURL{URL: u}})
		}
		user.Content = mustJSON(parts)
		lean.Content = textContent(in.Text + "\n\n" + imageNotes(in.ImageNotes, len(in.Images)))
	}
	return &exchange{
		d:     d,
		epoch: d.epoch,
		base:  d.transcript[:len(d.transcript):len(d.transcript)],
		turn:  []message{user},
		lean:  []message{lean},
	}
}

// message is one Chat Completions message.
type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content,omitempty"`
	// ReasoningContent is the reasoning of an assistant message that made
	// tool calls, kept for the rest of its turn only.
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCall `json:"tool_calls,omitempty"`
	ToolCallID       string     `json:"tool_call_id,omitempty"`
}

type part struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type tool struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

type toolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type body struct {
	Model           string        `json:"model"`
	Messages        []message     `json:"messages"`
	Tools           []tool        `json:"tools,omitempty"`
	Stream          bool          `json:"stream"`
	StreamOptions   streamOptions `json:"stream_options"`
	ReasoningEffort string        `json:"reasoning_effort,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

func textContent(s string) json.RawMessage { return mustJSON(s) }

func mustJSON(v any) json.RawMessage {
	b, err := request.MarshalBody(v)
	if err != nil {
		panic(fmt.Sprintf("chatcompletions: marshal %T: %v", v, err)) // strings and plain structs only
	}
	return b
}

// exchange is one turn: the transcript it started from, the messages the
// turn added so far, and the round being streamed.
type exchange struct {
	d     *dialect
	epoch int
	base  []turnRec
	turn  []message
	// lean is turn as later requests carry it: each image a note.
	lean []message
	// dropped is how many turns of base the last Body left out.
	dropped int

	// The current round.
	text strings.Builder
	// reasoning is what came in reasoning_content: the field the
	// follow-up requests of the turn send back.
	reasoning strings.Builder
	calls     []*toolCall
	finished  bool
}

func (x *exchange) Body(p request.Params) ([]byte, error) {
	x.text.Reset()
	x.reasoning.Reset()
	x.calls = nil
	x.finished = false
	sys := message{Role: "system", Content: textContent(p.Instructions)}
	b := body{
		Model:           p.Model,
		Stream:          true,
		StreamOptions:   streamOptions{IncludeUsage: true},
		ReasoningEffort: p.ReasoningEffort,
	}
	for _, t := range p.Tools {
		b.Tools = append(b.Tools, tool{Type: "function", Function: toolFunction{Name: t.Name, Description: t.Description, Parameters: t.Parameters}})
	}
	keep := len(x.base)
	if p.Budget.Room > 0 {
		fixed := estimate(mustJSON(b)) + estimateMsg(sys)
		for _, m := range x.turn {
			fixed += estimateMsg(m)
		}
		keep = fit(x.base, fixed, p.Budget)
	}
	x.dropped = len(x.base) - keep
	msgs := make([]message, 0, 1+keep*4+len(x.turn))
	msgs = append(msgs, sys)
	for _, t := range x.base[len(x.base)-keep:] {
		msgs = append(msgs, t.Msgs...)
	}
	msgs = append(msgs, x.turn...)
	b.Messages = msgs
	return request.MarshalBody(b)
}

// chunk is a chat.completion.chunk, with the extra fields compatible
// servers add to the delta.
type chunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content          content `json:"content"`
			ReasoningContent content `json:"reasoning_content"`
			Reasoning        content `json:"reasoning"`
			Refusal          content `json:"refusal"`
			ToolCalls        []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
		TotalTokens      int64 `json:"total_tokens"`
	} `json:"usage"`
	// Error is an error raised while streaming (vLLM, OpenRouter, LiteLLM).
	Error json.RawMessage `json:"error"`
}

// done is the data of the event that ends a Chat Completions stream.
var done = []byte("[DONE]")

func (x *exchange) Event(name string, data []byte, s request.Sink) error {
	if bytes.Equal(bytes.TrimSpace(data), done) {
		return request.ErrStreamEnd
	}
	if name == "error" {
		// An error event some proxies send in place of a chunk.
		return apierror.ServerError(data)
	}
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("%w: %v", request.ErrMalformed, err)
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return apierror.ServerError(data)
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // n is 1; other choices are not ours
		}
		d := &ch.Delta
		// Servers moving from reasoning_content to reasoning (vLLM) may
		// send both, one of them empty.
		if r := d.ReasoningContent.all(); r != "" {
			x.reasoning.WriteString(r)
			s.Reasoning(r)
		} else {
			s.Reasoning(d.Reasoning.all())
		}
		s.Reasoning(d.Content.thinking)
		if t := d.Content.text; t != "" {
			x.text.WriteString(t)
			s.Text(t)
		}
		if t := d.Refusal.all(); t != "" {
			x.text.WriteString(t)
			s.Refusal(t)
		}
		for _, tc := range d.ToolCalls {
			if c := x.callFor(tc.Index, tc.ID); c != nil {
				c.merge(tc.ID, tc.Function.Name, tc.Function.Arguments)
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			x.finished = true
		}
	}
	if c.Usage != nil {
		s.Usage(transport.Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens, TotalTokens: c.Usage.TotalTokens})
	}
	return nil
}

// maxCalls bounds the tool calls of one round.
const maxCalls = 128

// callFor finds the call a tool-call delta continues. OpenAI and vLLM
// number calls by index; older Ollama sends whole calls without one, or
// every call under index 0 with its own id. It returns nil for a call
// past maxCalls.
func (x *exchange) callFor(index *int, id string) *toolCall {
	if index != nil && *index >= 0 && *index < maxCalls {
		for len(x.calls) <= *index {
			x.calls = append(x.calls, &toolCall{Type: "function"})
		}
		if c := x.calls[*index]; id == "" || c.ID == "" || c.ID == id {
			return c
		}
	}
	if id != "" {
		for _, c := range x.calls {
			if c.ID == id {
				return c
			}
		}
	}
	if id != "" || len(x.calls) == 0 {
		if len(x.calls) == maxCalls {
			return nil
		}
		x.calls = append(x.calls, &toolCall{Type: "function"})
	}
	return x.calls[len(x.calls)-1]
}

func (c *toolCall) merge(id, name, args string) {
	if id != "" {
		c.ID = id
	}
	if name != "" {
		c.Function.Name = name
	}
	c.Function.Arguments += args
}

func (x *exchange) Finished() bool { return x.finished }

// Dropped is how many of the oldest turns the last request left out.
func (x *exchange) Dropped() int { return x.dropped }

func (x *exchange) Calls() []request.Call {
	var out []request.Call
	for i, c := range x.calls {
		if c.Function.Name == "" {
			continue // a gap in the indexes: nothing to run
		}
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d", i)
		}
		out = append(out, request.Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return out
}

// Answer adds the round's assistant message with its calls, a tool message
// per result, and the results' images in one user message after them
// (tool messages carry text only).
func (x *exchange) Answer(results []request.Result) {
	a := message{Role: "assistant", ReasoningContent: x.reasoning.String()}
	if x.text.Len() > 0 {
		a.Content = textContent(x.text.String())
	}
	for _, r := range results {
		a.ToolCalls = append(a.ToolCalls, toolCall{ID: r.Call.ID, Type: "function", Function: functionCall{Name: r.Call.Name, Arguments: r.Call.Arguments}})
	}
	x.add(a, a)
	var images []part
	var notes []string
	for _, r := range results {
		m := message{Role: "tool", ToolCallID: r.Call.ID, Content: textContent(r.Text)}
		x.add(m, m)
		if len(r.Images) > 0 {
			head := fmt.Sprintf("Images of the %s result (call %s):", r.Call.Name, r.Call.ID)
			images = append(images, part{Type: "text", Text: head})
			for _, u := range r.Images {
				images = append(images, part{Type: "image_url", ImageURL: &imageURL{URL: u}})
			}
			notes = append(notes, head+" "+imageNotes(nil, len(r.Images)))
		}
	}
	if len(images) > 0 {
		x.add(message{Role: "user", Content: mustJSON(images)}, message{Role: "user", Content: textContent(strings.Join(notes, "\n"))})
	}
	x.text.Reset()
	x.reasoning.Reset()
	x.calls = nil
}

// Commit appends the turn to the transcript: the user message, the
// answered rounds, and the last round's text. Calls left unanswered are
// dropped, since a transcript with an unanswered call is refused. The
// reasoning kept for the turn's follow-up requests is dropped, and so is
// reasoning written inline in the last answer: later turns send none
// (DeepSeek's thinking mode, Qwen's advice).
func (x *exchange) Commit(complete bool) {
	msgs := make([]message, len(x.lean), len(x.lean)+1)
	for i, m := range x.lean {
		m.ReasoningContent = ""
		msgs[i] = m
	}
	if x.text.Len() > 0 {
		msgs = append(msgs, message{Role: "assistant", Content: textContent(request.StripThink(x.text.String()))})
	} else if complete {
		msgs = append(msgs, message{Role: "assistant", Content: textContent("")})
	}
	x.d.mu.Lock()
	defer x.d.mu.Unlock()
	if x.epoch != x.d.epoch {
		return
	}
	x.d.transcript = keepNewest(append(x.d.transcript, newTurn(msgs)), MaxTurns)
}

// add appends a message of the turn: as sent now, and as later requests
// carry it.
func (x *exchange) add(sent, lean message) {
	x.turn = append(x.turn, sent)
	x.lean = append(x.lean, lean)
}

// content is a delta field that servers send either as a string or as a
// list of typed parts: Mistral's reasoning models stream
// [{"type":"thinking","thinking":[{"type":"text","text":"..."}]},
// {"type":"text","text":"..."}]. Text parts are the reply, thinking and
// reasoning parts are reasoning. Null, parts of other types (images,
// references) and values of any other shape read as nothing, so that the
// rest of the chunk is still read.
type content struct {
	text, thinking string
}

// all is the text and the reasoning together, for a field that holds one
// kind only (reasoning_content, reasoning, refusal).
func (c content) all() string { return c.thinking + c.text }

func (c *content) UnmarshalJSON(b []byte) error {
	*c = content{}
	var sb, tb strings.Builder
	readContent(b, false, &sb, &tb, 0)
	c.text, c.thinking = sb.String(), tb.String()
	return nil
}

// maxPartDepth bounds how deep thinking parts nest.
const maxPartDepth = 4

// readContent adds a string, a part or a list of parts to text, or to
// thinking when think is set or a part says it is reasoning.
func readContent(b []byte, think bool, text, thinking *strings.Builder, depth int) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || depth > maxPartDepth {
		return
	}
	out := text
	if think {
		out = thinking
	}
	switch b[0] {
	case '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			out.WriteString(s)
		}
	case '[':
		var parts []json.RawMessage
		if json.Unmarshal(b, &parts) == nil {
			for _, p := range parts {
				readContent(p, think, text, thinking, depth+1)
			}
		}
	case '{':
		var p struct {
			Type      string          `json:"type"`
			Text      json.RawMessage `json:"text"`
			Thinking  json.RawMessage `json:"thinking"`
			Reasoning json.RawMessage `json:"reasoning"`
		}
		if json.Unmarshal(b, &p) != nil {
			return
		}
		switch p.Type {
		case "text", "output_text", "":
			readContent(p.Text, think, text, thinking, depth+1)
		case "thinking", "reasoning", "reasoning_text":
			for _, raw := range []json.RawMessage{p.Thinking, p.Reasoning, p.Text} {
				readContent(raw, true, text, thinking, depth+1)
			}
		}
	}
}
