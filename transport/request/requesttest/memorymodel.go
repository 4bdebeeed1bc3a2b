package requesttest

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// MemoryModel is a Chat Completions server whose model follows the user's
// words: "remember X" calls remember with fact X, "forget id N" and
// "forget text X" call forget; anything else, and the answer to a tool
// result, is a short reply ("Okay."). Serve its Handle.
type MemoryModel struct {
	mu   sync.Mutex
	reqs []MemoryRequest
}

// MemoryRequest is one chat request MemoryModel answered.
type MemoryRequest struct {
	Raw    string
	System string // the first message's text
	// Result is the newest tool message's text, "" when the request
	// answers no tool call.
	Result string
	Tools  []string // the names of the tools declared
}

// Handle is the server's Handler.
func (s *MemoryModel) Handle(w *Writer, r *http.Request, _ int) {
	if r.URL.Path != "/v1/chat/completions" {
		w.NotFound(r)
		return
	}
	raw := readBody(r)
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal([]byte(raw), &body)
	req := MemoryRequest{Raw: raw}
	if len(body.Messages) > 0 {
		req.System, _ = body.Messages[0].Content.(string)
	}
	for _, t := range body.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	last := body.Messages[len(body.Messages)-1]
	text, _ := last.Content.(string)
	if last.Role == "tool" {
		req.Result = text
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()

	chunk := func(delta, finish string) string {
		return `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	words := text
	if i := strings.LastIndex(text, "</client_context>"); i >= 0 {
		words = strings.TrimSpace(text[i+len("</client_context>"):])
	}
	name, args := "", ""
	switch {
	case last.Role == "tool":
	case strings.HasPrefix(words, "remember "):
		b, _ := json.Marshal(map[string]string{"fact": strings.TrimPrefix(words, "remember ")})
		name, args = "remember", string(b)
	case strings.HasPrefix(words, "forget id "):
		name, args = "forget", `{"id":`+strings.TrimPrefix(words, "forget id ")+`}`
	case strings.HasPrefix(words, "forget text "):
		b, _ := json.Marshal(map[string]string{"text": strings.TrimPrefix(words, "forget text ")})
		name, args = "forget", string(b)
	}
	if name != "" {
		a, _ := json.Marshal(args)
		w.Data(chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_m","type":"function","function":{"name":"`+name+`","arguments":`+string(a)+`}}]}`, "null"))
		w.Data(chunk(`{}`, `"tool_calls"`))
	} else {
		w.Data(chunk(`{"content":"Okay."}`, "null"))
		w.Data(chunk(`{}`, `"stop"`))
	}
	w.Data("[DONE]")
}

// Requests returns the requests answered so far.
func (s *MemoryModel) Requests() []MemoryRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]MemoryRequest(nil), s.reqs...)
}

// Last is the newest request; the test fails when none came yet.
func (s *MemoryModel) Last(t testing.TB) MemoryRequest {
	t.Helper()
	r := s.Requests()
	if len(r) == 0 {
		t.Fatal("no request yet")
	}
	return r[len(r)-1]
}
