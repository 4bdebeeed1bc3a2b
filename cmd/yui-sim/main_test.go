package main

import (
	"bytes"
	"strings"
	"testing"

	"yui/transport/pushsim"
)

func TestCheckLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:8646": true,
		"[::1]:8646":     true,
		"localhost:1":    true,
		"0.0.0.0:8646":   false,
		":8646":          false,
		"10.0.0.5:8646":  false,
		"example.com:80": false,
		"127.0.0.1":      false,
	} {
		if err := checkLoopback(addr); (err == nil) != ok {
			t.Errorf("checkLoopback(%q) = %v", addr, err)
		}
	}
	if err := run([]string{"--addr", "0.0.0.0:1"}); err == nil {
		t.Error("run accepted a non-loopback address")
	}
}

func TestRecorderRedactsHelloKey(t *testing.T) {
	var buf bytes.Buffer
	rec := recorder(&buf)
	rec(pushsim.Frame{Type: "hello", Raw: []byte(`{"type":"hello","key":"sk-secret","chat_id":"yui-1"}`)})
	rec(pushsim.Frame{Type: "turn", Raw: []byte(`{"type":"turn","turn_id":"1","text":"hi"}`)})
	rec(pushsim.Frame{Type: "", Raw: []byte("not json")})
	out := buf.String()
	if strings.Contains(out, "sk-secret") {
		t.Fatalf("key recorded: %s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"text":"hi"`) || !strings.Contains(lines[2], `"unparsed":"not json"`) {
		t.Fatalf("record = %q", lines)
	}
}
