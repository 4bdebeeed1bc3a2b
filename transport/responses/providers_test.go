package responses_test

import (
	"net/http"
	"strings"
	"testing"

	"yui/transport"
	rt "yui/transport/request/requesttest"
)

// spoken is the reply text of a turn's renders, sentence by sentence.
func spoken(evs []transport.Event) string {
	var out []string
	for _, r := range rt.Of[*transport.RenderEvent](evs) {
		for _, s := range r.Segments {
			if s.Speech != "" {
				out = append(out, s.Speech)
			}
		}
	}
	return strings.Join(out, " ")
}

// A refusal streams as a refusal content part: spoken as the reply, in the
// model's own words, and logged as a refusal.
func TestRefusalSpoken(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		created(w, "resp_1")
		ev(w, "response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "content": []any{}}})
		ev(w, "response.content_part.added", map[string]any{"item_id": "msg_1", "output_index": 0, "content_index": 0, "part": map[string]any{"type": "refusal", "refusal": ""}})
		for _, p := range []string{"I'm sorry, but I ", "can't assist with that."} {
			ev(w, "response.refusal.delta", map[string]any{"item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": p})
		}
		ev(w, "response.refusal.done", map[string]any{"item_id": "msg_1", "output_index": 0, "content_index": 0, "refusal": "I'm sorry, but I can't assist with that."})
		ev(w, "response.output_item.done", map[string]any{"output_index": 0, "item": map[string]any{"id": "msg_1", "type": "message", "status": "completed"}})
		completed(w, "resp_1", 10, 9)
	}, nil)
	evs := e.send(t, say("something bad"))
	if got := spoken(evs); got != "I'm sorry, but I can't assist with that." {
		t.Errorf("spoken %q: %s", got, rt.Dump(evs))
	}
	if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted {
		t.Errorf("outcome %v", end.Outcome)
	}
	if !strings.Contains(e.logText(), `"msg":"refusal"`) {
		t.Errorf("no refusal record: %s", e.logText())
	}
}

// The error shapes of a Responses stream put the server's message and code
// in the log line, while the text shown stays the generic one.
func TestErrorEventsLogged(t *testing.T) {
	cases := []struct {
		name string
		h    rt.Handler
		log  []string
	}{
		{"error event, nested (OpenAI)", func(w *rt.Writer, r *http.Request, n int) {
			ev(w, "error", map[string]any{"sequence_number": 2, "error": map[string]any{
				"type": "invalid_request_error", "code": "context_length_exceeded", "message": "Your input exceeds the context window of this model.", "param": "input"}})
		}, []string{`"kind":"error"`, `"code":"context_length_exceeded"`, "Your input exceeds the context window"}},
		{"error event, flat", func(w *rt.Writer, r *http.Request, n int) {
			ev(w, "error", map[string]any{"code": "rate_limit_exceeded", "message": "Rate limit reached", "param": nil, "sequence_number": 1})
		}, []string{`"code":"rate_limit_exceeded"`, "Rate limit reached"}},
		{"response.failed", func(w *rt.Writer, r *http.Request, n int) {
			created(w, "resp_1")
			ev(w, "response.failed", map[string]any{"response": map[string]any{"id": "resp_1", "object": "response", "status": "failed",
				"error": map[string]any{"code": "server_error", "message": "The model produced invalid content."}}})
		}, []string{`"kind":"response.failed"`, `"code":"server_error"`, "The model produced invalid content."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t, c.h, nil)
			end := turnEnd(t, e.send(t, say("hi")))
			if end.Outcome != transport.TurnFailed || end.ErrorText != "" {
				t.Errorf("end %+v, want failed with the generic text", end)
			}
			log := e.logText()
			for _, want := range c.log {
				if !strings.Contains(log, want) {
					t.Errorf("log lacks %s: %s", want, log)
				}
			}
		})
	}
}

// Reasoning a model writes inline in <think> tags is shown, not spoken.
func TestInlineThinkTags(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		say2(w, "resp_1", "<think>Greet", " back.</thi", "nk>Hello again.")
	}, nil)
	evs := e.send(t, say("hi"))
	if got := spoken(evs); got != "Hello again." {
		t.Errorf("spoken %q: %s", got, rt.Dump(evs))
	}
	var r strings.Builder
	for _, x := range rt.Of[*transport.ReasoningEvent](evs) {
		r.WriteString(x.Delta)
	}
	if r.String() != "Greet back." {
		t.Errorf("reasoning %q", r.String())
	}
}
