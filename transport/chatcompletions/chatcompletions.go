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
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"yui/transport"
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
