package chatcompletions_test

import (
	"net/http"
	"strings"
	"testing"

	"yui/transport"
	rt "yui/transport/request/requesttest"
)

// The streams below are written in the shape each provider documents for
// its OpenAI-compatible Chat Completions endpoint.

// spoken is the reply text of a turn's renders, sentence by sentence.
func spoken(evs []transport.Event) string {
	var out []string
	for _, s := range speeches(evs) {
		if s.Speech != "" {
			out = append(out, s.Speech)
		}
	}
	return strings.Join(out, " ")
}

// reasoned is the turn's streamed reasoning.
func reasoned(evs []transport.Event) string {
	var b strings.Builder
	for _, r := range rt.Of[*transport.ReasoningEvent](evs) {
		b.WriteString(r.Delta)
	}
	return b.String()
}

// finalReasoning is the reasoning of the turn's closing render.
func finalReasoning(t *testing.T, evs []transport.Event) string {
	t.Helper()
	rs := rt.Of[*transport.RenderEvent](evs)
	if len(rs) == 0 || rs[len(rs)-1].Kind != transport.KindRender || rs[len(rs)-1].Reasoning == nil {
		t.Fatalf("no closing render with reasoning: %s", rt.Dump(evs))
	}
	return *rs[len(rs)-1].Reasoning
}

// Mistral's reasoning models (Magistral, and Mistral Small and Medium with
// reasoning_effort) stream delta.content as a list of parts: thinking
// parts, whose "thinking" is itself a list of text parts, then text parts.
func TestMistralContentParts(t *testing.T) {
	mistral := func(content any, finish any) map[string]any {
		return map[string]any{
			"id": "cmpl-e5cc", "object": "chat.completion.chunk", "created": 1702256327, "model": "magistral-medium-latest",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": content}, "finish_reason": finish}},
		}
	}
	thinking := func(s string) []any {
		return []any{map[string]any{"type": "thinking", "thinking": []any{map[string]any{"type": "text", "text": s}}}}
	}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(mistral("", nil),
			mistral(thinking("The user greets me. "), nil),
			mistral(thinking("I greet back."), nil),
			mistral([]any{map[string]any{"type": "text", "text": "Hello! "}}, nil),
			mistral([]any{map[string]any{"type": "text", "text": "Nice to see you."}}, nil),
			mistral("", "stop"),
			map[string]any{"id": "cmpl-e5cc", "object": "chat.completion.chunk", "created": 1702256327, "model": "magistral-medium-latest",
				"choices": []any{}, "usage": map[string]any{"prompt_tokens": 20, "completion_tokens": 30, "total_tokens": 50}},
			"[DONE]")
	}, func(o *transport.Options) { o.Model = "magistral-medium-latest" })
	evs := e.send(t, say("hi"))
	if got := spoken(evs); got != "Hello! Nice to see you." {
		t.Errorf("spoken %q: %s", got, rt.Dump(evs))
	}
	if got := reasoned(evs); got != "The user greets me. I greet back." {
		t.Errorf("reasoning %q", got)
	}
	if got := finalReasoning(t, evs); got != "The user greets me. I greet back." {
		t.Errorf("final reasoning %q", got)
	}
	if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted || end.Usage == nil || end.Usage.TotalTokens != 50 {
		t.Errorf("turn end %+v", end)
	}
	if strings.Contains(e.logText(), "stream_malformed") {
		t.Errorf("chunk dropped: %s", e.logText())
	}
}

// Every field servers put reasoning in reaches the reasoning display and
// none of it is spoken.
func TestReasoningFields(t *testing.T) {
	cases := []struct {
		name  string
		delta func(s string) map[string]any
	}{
		// DeepSeek, xAI, older vLLM.
		{"reasoning_content", func(s string) map[string]any { return map[string]any{"content": nil, "reasoning_content": s} }},
		// Groq (reasoning_format parsed), Ollama, OpenRouter, newer vLLM.
		{"reasoning", func(s string) map[string]any { return map[string]any{"content": "", "reasoning": s} }},
		// vLLM in transition: both, one empty.
		{"both", func(s string) map[string]any { return map[string]any{"reasoning_content": s, "reasoning": ""} }},
		// A list of reasoning parts.
		{"parts", func(s string) map[string]any {
			return map[string]any{"content": []any{map[string]any{"type": "reasoning", "text": s}}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t, func(w *rt.Writer, r *http.Request, n int) {
				w.Data(chunk(c.delta("Short "), nil), chunk(c.delta("answer."), nil), text("Yes."), stop(), "[DONE]")
			}, nil)
			evs := e.send(t, say("ok?"))
			if got := reasoned(evs); got != "Short answer." {
				t.Errorf("reasoning %q: %s", got, rt.Dump(evs))
			}
			if got := spoken(evs); got != "Yes." {
				t.Errorf("spoken %q", got)
			}
		})
	}
}

// Qwen and DeepSeek-R1 distills served without a reasoning parser (Ollama's
// raw templates, vLLM, llama.cpp --reasoning-format none) write their
// reasoning inline, between <think> and </think>, tags split anywhere.
func TestInlineThinkTags(t *testing.T) {
	parts := []string{"<th", "ink>\nOkay, the user", " says hi. <", "/thi", "nk>", "\n\nHi there! How", " are you? <b>bold</b>"}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		var vs []any
		for _, p := range parts {
			vs = append(vs, text(p))
		}
		w.Data(append(vs, stop(), "[DONE]")...)
	}, func(o *transport.Options) { o.Model = "qwen3:8b" })
	evs := e.send(t, say("hi"))
	if got := spoken(evs); got != "Hi there! How are you? <b>bold</b>" {
		t.Errorf("spoken %q: %s", got, rt.Dump(evs))
	}
	if got := reasoned(evs); got != "\nOkay, the user says hi. " {
		t.Errorf("reasoning %q", got)
	}
	if strings.Contains(spoken(evs), "think") {
		t.Error("reasoning spoken")
	}
	// The next turn sends the answer without its reasoning.
	e.send(t, say("again"))
	msgs := messages(e.srv.Requests()[1])
	if a := msgs[2]; a["role"] != "assistant" || a["content"] != "Hi there! How are you? <b>bold</b>" {
		t.Errorf("kept answer %v", a)
	}
}

// DeepSeek's thinking mode: the assistant message that made tool calls
// carries its reasoning_content in every later request of the turn, and a
// later turn sends it no more.
func TestDeepSeekReasoningContentInTurn(t *testing.T) {
	ds := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": "b1c2", "object": "chat.completion.chunk", "created": 1738000000, "model": "deepseek-reasoner", "system_fingerprint": "fp_1",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		}
	}
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		switch n {
		case 0:
			w.Data(ds(map[string]any{"role": "assistant", "content": nil, "reasoning_content": ""}, nil),
				ds(map[string]any{"reasoning_content": "I should look "}, nil),
				ds(map[string]any{"reasoning_content": "happy."}, nil),
				ds(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": "call_0_x", "type": "function",
					"function": map[string]any{"name": "generate_express", "arguments": ""}}}}, nil),
				ds(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": `{"emotion_id":"happy"}`}}}}, nil),
				ds(map[string]any{}, "tool_calls"), "[DONE]")
		case 1:
			w.Data(ds(map[string]any{"reasoning_content": "Now answer."}, nil),
				ds(map[string]any{"content": "Glad you asked."}, nil), ds(map[string]any{"content": ""}, "stop"), "[DONE]")
		default:
			w.Data(ds(map[string]any{"content": "Again."}, "stop"), "[DONE]")
		}
	}, func(o *transport.Options) { o.Model = "deepseek-reasoner" })
	evs := e.send(t, say("how are you"))
	if got := spoken(evs); got != "Glad you asked." {
		t.Fatalf("spoken %q: %s", got, rt.Dump(evs))
	}
	if got := reasoned(evs); got != "I should look happy.Now answer." {
		t.Errorf("reasoning %q", got)
	}
	e.send(t, say("again"))
	reqs := e.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	follow := messages(reqs[1])
	var a map[string]any
	for _, m := range follow {
		if m["role"] == "assistant" {
			a = m
		}
	}
	if a == nil || a["reasoning_content"] != "I should look happy." || a["tool_calls"] == nil {
		t.Errorf("follow-up assistant message %v: %s", a, reqs[1].Raw)
	}
	if strings.Contains(string(reqs[2].Raw), "reasoning_content") {
		t.Errorf("next turn still sends reasoning_content: %s", reqs[2].Raw)
	}
	// The next turn still holds the tool exchange of the first.
	var roles []string
	for _, m := range messages(reqs[2]) {
		roles = append(roles, m["role"].(string))
	}
	if got := strings.Join(roles, ","); got != "system,user,assistant,tool,assistant,user" {
		t.Errorf("transcript roles %s", got)
	}
}

// A model that refuses (OpenAI's delta.refusal) says so in its own words:
// spoken as the reply and logged as a refusal.
func TestRefusalSpoken(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		w.Data(chunk(map[string]any{"role": "assistant", "content": nil, "refusal": ""}, nil),
			chunk(map[string]any{"refusal": "I'm sorry, I can't "}, nil),
			chunk(map[string]any{"refusal": "help with that."}, nil),
			stop(), "[DONE]")
	}, nil)
	evs := e.send(t, say("do something bad"))
	if got := spoken(evs); got != "I'm sorry, I can't help with that." {
		t.Errorf("spoken %q: %s", got, rt.Dump(evs))
	}
	if end := turnEnd(t, evs); end.Outcome != transport.TurnCompleted {
		t.Errorf("outcome %v", end.Outcome)
	}
	if !strings.Contains(e.logText(), `"msg":"refusal"`) || !strings.Contains(e.logText(), "help with that.") {
		t.Errorf("no refusal record: %s", e.logText())
	}
}

// Every error shape providers send puts the server's message and code in
// the log line; the text shown keeps the spec's rules.
func TestProviderErrorShapesLogged(t *testing.T) {
	cases := []struct {
		name, status, body   string
		http                 int
		wantShown, wantInLog string
	}{
		{"openai", "", `{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`, 429,
			"429 Too Many Requests: You exceeded your current quota.", `"code":"insufficient_quota"`},
		{"mistral", "", `{"object":"error","message":"Invalid model: magistral-nano","type":"invalid_model","param":null,"code":"1500"}`, 400,
			"400 Bad Request: Invalid model: magistral-nano", `"code":"1500"`},
		{"ollama", "", `{"error":"model \"qwen9\" not found, try pulling it first"}`, 404,
			`404 Not Found: model "qwen9" not found, try pulling it first`, `not found, try pulling it first`},
		{"azure", "", `{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}`, 404,
			"404 Not Found: The API deployment for this resource does not exist.", `"code":"DeploymentNotFound"`},
		{"groq", "", `{"error":{"message":"Rate limit reached for model","type":"tokens","code":"rate_limit_exceeded"}}`, 429,
			"429 Too Many Requests: Rate limit reached for model", `"code":"rate_limit_exceeded"`},
		{"stream chunk", "stream", `{"error":{"message":"Provider returned error","code":502,"metadata":{"provider_name":"X"}}}`, 0,
			"502 Bad Gateway: Provider returned error", `"code":"502"`},
		{"named error event", "event", `{"message":"upstream timed out","type":"timeout","code":504}`, 0,
			"504 Gateway Timeout: upstream timed out", `"code":"504"`},
		{"stream chunk without status", "stream", `{"id":"x","object":"chat.completion.chunk","choices":[],"error":{"message":"upstream reset","type":"server_error"}}`, 0,
			"", `"code":"server_error"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t, func(w *rt.Writer, r *http.Request, n int) {
				switch c.status {
				case "stream":
					w.Data(text("Let me "), c.body)
					return
				case "event":
					w.Data(text("Let me "))
					w.Raw("event: error\ndata: " + c.body + "\n\n")
					return
				}
				w.Error(c.http, c.body)
			}, nil)
			end := turnEnd(t, e.send(t, say("hi")))
			if end.Outcome != transport.TurnFailed || end.ErrorText != c.wantShown {
				t.Errorf("turn end %+v, want text %q", end, c.wantShown)
			}
			log := e.logText()
			if !strings.Contains(log, `"msg":"request_error"`) || !strings.Contains(log, c.wantInLog) {
				t.Errorf("log %s, want %s", log, c.wantInLog)
			}
		})
	}
}

// With no model set, the transport uses the first model the server lists
// (the probe's GET /models) and says which in the log.
func TestModelFromServerList(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if r.URL.Path == "/v1/models" {
			w.Error(http.StatusOK, `{"object":"list","data":[{"id":"qwen3:8b","object":"model","created":1,"owned_by":"library"},{"id":"llama3.2","object":"model","created":1,"owned_by":"library"}]}`)
			return
		}
		w.Data(text("Hi."), stop(), "[DONE]")
	}, func(o *transport.Options) { o.Model = ""; o.Probe = true })
	e.send(t, say("hi"))
	e.send(t, say("again"))
	var models []any
	for _, r := range e.srv.Requests() {
		if r.Path == "/v1/chat/completions" {
			models = append(models, r.Body["model"])
		}
	}
	if len(models) != 2 || models[0] != "qwen3:8b" || models[1] != "qwen3:8b" {
		t.Errorf("models sent %v", models)
	}
	if m := e.tr.(interface{ Model() string }).Model(); m != "qwen3:8b" {
		t.Errorf("Model() = %q", m)
	}
	if n := strings.Count(e.logText(), `"msg":"model_auto","transport":"chat_completions","model":"qwen3:8b"`); n != 1 {
		t.Errorf("%d model_auto records: %s", n, e.logText())
	}
}

// A set model is sent as it is, whatever the server lists.
func TestSetModelWins(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if r.URL.Path == "/v1/models" {
			w.Error(http.StatusOK, `{"object":"list","data":[{"id":"other"}]}`)
			return
		}
		w.Data(text("Hi."), stop(), "[DONE]")
	}, func(o *transport.Options) { o.Probe = true })
	e.send(t, say("hi"))
	for _, r := range e.srv.Requests() {
		if r.Path == "/v1/chat/completions" && r.Body["model"] != "gpt-4o" {
			t.Errorf("model sent %v", r.Body["model"])
		}
	}
	if strings.Contains(e.logText(), "model_auto") {
		t.Errorf("model picked: %s", e.logText())
	}
}

// A DeepSeek-R1 distill on vLLM or llama.cpp with no reasoning parser: the
// chat template writes the opening <think>, so the stream carries only
// </think>. The tag is never spoken, and once seen, the transport holds
// the start of each later stream until it knows what it is.
func TestTemplateOpenedThink(t *testing.T) {
	e := start(t, func(w *rt.Writer, r *http.Request, n int) {
		if n == 0 {
			w.Data(text("Hmm"), text("</think>"), text("\n\nHi."), stop(), "[DONE]")
			return
		}
		w.Data(text("Okay, the user said hi again. "), text("I will greet back.\n</th"), text("ink>\n\nHello again! "), text("Nice."), stop(), "[DONE]")
	}, func(o *transport.Options) { o.Model = "deepseek-r1-distill-qwen-7b" })
	if got := spoken(e.send(t, say("hi"))); got != "Hmm Hi." {
		t.Errorf("first turn spoken %q", got)
	}
	evs := e.send(t, say("hi again"))
	if got := spoken(evs); got != "Hello again! Nice." {
		t.Errorf("spoken %q: %s", got, rt.Dump(evs))
	}
	if got := reasoned(evs); got != "Okay, the user said hi again. I will greet back.\n" {
		t.Errorf("reasoning %q", got)
	}
	if !strings.Contains(e.logText(), `"msg":"think_implied"`) {
		t.Errorf("no think_implied record: %s", e.logText())
	}
}
