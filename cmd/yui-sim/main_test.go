package main

import "testing"

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
