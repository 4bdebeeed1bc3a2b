package chatcompletions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"yui/transport"
	"yui/transport/apierror"
	"yui/transport/request"
)

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
