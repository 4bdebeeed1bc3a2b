package request

import (
	"errors"
	"strings"
	"testing"
	"yui/transport/apierror"
)

func TestEstimate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abcd", 1},
		{"abcde", 2},
		{"こんにちは", 5},
		{`{"url":"data:image/png;base64,` + strings.Repeat("A", 100000) + `"}`, 3 + ImageTokens},
		{`"data:image/unterminated`, 1 + ImageTokens},
		{`"data: not an image"`, 5},
	} {
		if got := Estimate([]byte(c.in)); got != c.want {
			t.Errorf("Estimate(%.40q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestCalibrationFollowsUsage(t *testing.T) {
	b := newBudgeter(4096)
	if bg := b.budget(); bg.Room != 4096-1024 || bg.Tokens(1000) != 1000 {
		t.Fatalf("budget %+v", bg)
	}
	b.observe(1000, 1500)
	if got := b.budget().Tokens(1000); got != 1500 {
		t.Errorf("after a report of 1.5x: %d", got)
	}
	b.observe(1000, 800)
	if got := b.budget().Tokens(1000); got != 800 {
		t.Errorf("the scale follows the newest report: %d", got)
	}
	b.observe(10, 5000) // too small to say anything
	b.observe(1000, 0)  // no usage
	if got := b.budget().Tokens(1000); got != 800 {
		t.Errorf("small or empty reports moved the scale: %d", got)
	}
	b.observe(1000, 1e9)
	if got := b.budget().Tokens(1000); got != 4000 {
		t.Errorf("an odd report is clamped: %d", got)
	}
}

func TestTightBudget(t *testing.T) {
	b := newBudgeter(0)
	if bg := b.budget(); bg.Room != 0 || !bg.Fits(1e9) {
		t.Fatalf("no window bounds nothing: %+v", bg)
	}
	if bg := b.tight(10000, 0); !bg.Tight || bg.Room != 5000 {
		t.Errorf("tight %+v, want half of what was sent", bg)
	}
	if bg := b.tight(10000, 2048); bg.Room != 2048-512 {
		t.Errorf("tight %+v, want within the stated context", bg)
	}
	if bg := b.budget(); bg.Room != 2048-512 {
		t.Errorf("the stated context is kept for later requests: %+v", bg)
	}
}

func TestOverflow(t *testing.T) {
	for _, c := range []struct {
		body   string
		status int
		over   bool
		stated int
	}{
		{`{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`, 400, true, 8192},
		{`{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).","type":"BadRequestError","code":400}`, 400, true, 4096},
		{`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}`, 400, true, 4096},
		{`{"error":"prompt too long; exceeded max context length by 12 tokens"}`, 500, true, 0},
		{`{"error":"Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough."}`, 400, true, 4096},
		{`{"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}`, 429, false, 0},
		{`{"error":{"message":"maximum context length is 8192"}}`, 401, false, 0},
	} {
		se := apierror.ServerError([]byte(c.body))
		se.Status, se.HTTP = c.status, true
		over, stated := Overflow(se)
		if over != c.over || stated != c.stated {
			t.Errorf("%s: %v %d, want %v %d", c.body, over, stated, c.over, c.stated)
		}
	}
	if over, _ := Overflow(errors.New("context length")); over {
		t.Error("a plain error is no overflow")
	}
}
