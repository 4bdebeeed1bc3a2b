package requesttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Providers is a Chat Completions server that answers each turn in the
// stream shape of the provider the user's words name, as each provider
// documents it: "mistral" (Magistral's content parts), "deepseek"
// (reasoning_content and a tool call; its follow-up is refused without
// the reasoning_content), "refuse" (a refusal), "qwen" (<think> inline,
// split across chunks); anything else is "Fine.". It lists two models,
// first-model and second-model. Serve it as the Handler.
func Providers(w *Writer, r *http.Request, _ int) {
	switch r.URL.Path {
	case "/v1/models":
		w.JSON(`{"object":"list","data":[{"id":"first-model","object":"model","created":1,"owned_by":"me"},{"id":"second-model","object":"model","created":1,"owned_by":"me"}]}`)
		return
	case "/v1/chat/completions":
	default:
		w.NotFound(r)
		return
	}
	var req map[string]any
	_ = json.Unmarshal([]byte(readBody(r)), &req)
	msgs, _ := req["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	var user string
	for _, m := range msgs {
		if mm, _ := m.(map[string]any); mm["role"] == "user" {
			user, _ = mm["content"].(string)
		}
	}
	send := func(delta string, finish string) {
		fin := "null"
		if finish != "" {
			fin = `"` + finish + `"`
		}
		w.Data(fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"first-model","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, fin))
	}
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	switch {
	case strings.Contains(user, "mistral"):
		// Magistral: content as a list of thinking and text parts.
		send(`{"role":"assistant","content":""}`, "")
		send(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"The user names Mistral."}]}]}`, "")
		send(`{"content":[{"type":"text","text":"Bonjour from "}]}`, "")
		send(`{"content":[{"type":"text","text":"Mistral."}]}`, "")
		send(`{"content":""}`, "stop")
	case strings.Contains(user, "deepseek") && last["role"] != "tool":
		// DeepSeek thinking mode: reasoning_content, then a tool call.
		send(`{"role":"assistant","content":null,"reasoning_content":"Look happy first."}`, "")
		send(`{"tool_calls":[{"index":0,"id":"call_0_ds","type":"function","function":{"name":"generate_express","arguments":"{\"emotion_id\":\"happy\"}"}}]}`, "")
		send(`{}`, "tool_calls")
	case strings.Contains(user, "deepseek"):
		// The follow-up: refused as DeepSeek refuses it when the assistant
		// message that made the call lacks its reasoning_content.
		var kept bool
		for _, m := range msgs {
			if mm, _ := m.(map[string]any); mm["role"] == "assistant" && mm["tool_calls"] != nil {
				kept = mm["reasoning_content"] == "Look happy first."
			}
		}
		if !kept {
			w.Error(http.StatusBadRequest, `{"error":{"message":"Missing reasoning_content field in the assistant message","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`)
			return
		}
		send(`{"reasoning_content":"Now answer."}`, "")
		send(`{"content":"DeepSeek answered."}`, "")
		send(`{"content":""}`, "stop")
	case strings.Contains(user, "refuse"):
		send(`{"role":"assistant","content":null,"refusal":""}`, "")
		send(`{"refusal":"I can't help "}`, "")
		send(`{"refusal":"with that."}`, "")
		send(`{}`, "stop")
	case strings.Contains(user, "qwen"):
		// A local model without a reasoning parser: <think> inline, tags
		// split across chunks.
		for _, p := range []string{"<th", "ink>\nThe user names Qwen.\n</th", "ink>\n\nQwen says ", "hello."} {
			send(`{"content":`+str(p)+`}`, "")
		}
		send(`{}`, "stop")
	default:
		send(`{"content":"Fine."}`, "stop")
	}
	w.Data("[DONE]")
}

// ResponsesRefusal answers in the Responses stream shape: a request whose
// text says "refuse" gets a streamed refusal ("I'm sorry, I can't assist
// with that."), any other an error event with OpenAI's nested error object
// (context_length_exceeded). Serve it as the Handler.
func ResponsesRefusal(w *Writer, r *http.Request, _ int) {
	if r.URL.Path != "/v1/responses" {
		w.NotFound(r)
		return
	}
	body := readBody(r)
	ev := func(typ, rest string) {
		w.Raw(fmt.Sprintf("event: %s\ndata: {\"type\":%q,%s}\n\n", typ, typ, rest))
	}
	ev("response.created", `"sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}`)
	if strings.Contains(body, "refuse") {
		ev("response.output_item.added", `"output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}`)
		ev("response.content_part.added", `"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"refusal","refusal":""}`)
		ev("response.refusal.delta", `"item_id":"msg_1","output_index":0,"content_index":0,"delta":"I'm sorry, I can't "`)
		ev("response.refusal.delta", `"item_id":"msg_1","output_index":0,"content_index":0,"delta":"assist with that."`)
		ev("response.refusal.done", `"item_id":"msg_1","output_index":0,"content_index":0,"refusal":"I'm sorry, I can't assist with that."`)
		ev("response.output_item.done", `"output_index":0,"item":{"id":"msg_1","type":"message","status":"completed"}`)
		ev("response.completed", `"response":{"id":"resp_1","object":"response","status":"completed","usage":{"input_tokens":10,"output_tokens":9,"total_tokens":19}}`)
		return
	}
	ev("error", `"sequence_number":1,"error":{"type":"invalid_request_error","code":"context_length_exceeded","message":"Your input exceeds the context window of this model.","param":"input"}`)
}

// CueThenReply streams a reply in OpenAI's chunk shape: to a request that
// answers no tool call, a generate_express call (a cue, emotion happy)
// with usage; once the cue was answered, "Hello from the model server.
// Nice to meet you!" in three chunks 50 ms apart, with usage. Serve it as
// the Handler.
func CueThenReply(w *Writer, r *http.Request, _ int) {
	if r.URL.Path != "/v1/chat/completions" {
		w.NotFound(r)
		return
	}
	var req map[string]any
	_ = json.Unmarshal([]byte(readBody(r)), &req)
	msgs, _ := req["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "tool" {
		w.Data(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"generate_express","arguments":""}}]},"finish_reason":null}]}`)
		w.Data(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"emotion_id\":\"happy\"}"}}]},"finish_reason":null}]}`)
		w.Data(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		w.Data(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":5,"total_tokens":105}}`)
		w.Data("[DONE]")
		return
	}
	for _, part := range []string{"Hello from the ", "model server. ", "Nice to meet you!"} {
		b, _ := json.Marshal(part)
		w.Data(`{"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":` + string(b) + `},"finish_reason":null}]}`)
		time.Sleep(50 * time.Millisecond)
	}
	w.Data(`{"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	w.Data(`{"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":12,"total_tokens":132}}`)
	w.Data("[DONE]")
}
