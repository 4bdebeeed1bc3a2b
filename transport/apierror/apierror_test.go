package apierror

import (
	"errors"
	"strings"
	"testing"
)

func TestErrorText(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&StatusError{Status: 429, Text: "rate limit reached", HTTP: true}, "429 Too Many Requests: rate limit reached"},
		{&StatusError{Status: 401, Text: "bad key", HTTP: true}, ""},
		{&StatusError{Status: 403, Text: "no", HTTP: true}, ""},
		{&StatusError{Status: 503, Text: "overloaded"}, "503 Service Unavailable: overloaded"},
		{&StatusError{Text: "no status"}, ""},
		{&StatusError{Kind: "response.failed", Status: 500, Text: "x"}, ""},
		{&StatusError{Status: 599, HTTP: true}, "599"},
		{errors.New("dial"), ""},
	}
	for _, c := range cases {
		if got := ErrorText(c.err); got != c.want {
			t.Errorf("ErrorText(%v) = %q, want %q", c.err, got, c.want)
		}
	}
	if got := FormatStatus(500, strings.Repeat("é", 300)); len([]rune(got)) != MaxErrorText || !strings.HasSuffix(got, "éé") {
		t.Errorf("cut: %q", got)
	}
}

func TestServerError(t *testing.T) {
	cases := []struct {
		body   string
		text   string
		status int
		code   string
	}{
		// OpenAI, Groq, DeepSeek, xAI, OpenRouter.
		{`{"error":{"message":"rate limit","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, "rate limit", 0, "rate_limit_exceeded"},
		// llama.cpp.
		{`{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`, "Loading model", 503, "503"},
		// Azure: a code and a status.
		{`{"error":{"code":"content_filter","message":"filtered","status":400}}`, "filtered", 400, "content_filter"},
		// An error type and no code.
		{`{"error":{"message":"bad","type":"invalid_request_error","code":null}}`, "bad", 0, "invalid_request_error"},
		// Ollama.
		{`{"error":"model not found"}`, "model not found", 0, ""},
		// FastAPI.
		{`{"detail":"Not Found"}`, "Not Found", 0, ""},
		// vLLM.
		{`{"object":"error","message":"bad","type":"BadRequestError","param":null,"code":400}`, "bad", 400, "400"},
		// Mistral.
		{`{"object":"error","message":"Invalid model","type":"invalid_model","param":null,"code":"1500"}`, "Invalid model", 0, "1500"},
		// A Responses error event, nested (OpenAI) and flat.
		{`{"type":"error","error":{"type":"invalid_request_error","code":"context_length_exceeded","message":"too long","param":"input"},"sequence_number":2}`, "too long", 0, "context_length_exceeded"},
		{`{"type":"error","code":"ERR_X","message":"flat","param":null,"sequence_number":1}`, "flat", 0, "ERR_X"},
		// A list holding the error (Gemini's compatible endpoint).
		{`[{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}]`, "quota", 429, "429"},
		{"<html>\n Bad gateway\n</html>", "<html> Bad gateway </html>", 0, ""},
	}
	for _, c := range cases {
		se := ServerError([]byte(c.body))
		if se.Text != c.text || se.Status != c.status || se.Code != c.code {
			t.Errorf("ServerError(%s) = %q %d %q, want %q %d %q", c.body, se.Text, se.Status, se.Code, c.text, c.status, c.code)
		}
	}
}

// Any body is read without a panic.
func FuzzServerError(f *testing.F) {
	f.Add([]byte(`[{"error":{"code":429,"message":"quota"}}]`))
	f.Add([]byte(`{"error":"model not found"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = ServerError(b).Error()
	})
}
