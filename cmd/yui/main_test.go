package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestKeyLeavesTheEnvironment: the one-run key is read once and is gone
// from the environment, so a child process does not inherit it.
func TestKeyLeavesTheEnvironment(t *testing.T) {
	const key = "sk-env-test-9f8e7d6c"
	t.Setenv(keyEnv, key)
	if got := takeKey(); got != key {
		t.Fatalf("takeKey = %q, want %q", got, key)
	}
	if _, ok := os.LookupEnv(keyEnv); ok {
		t.Fatalf("%s still set after takeKey", keyEnv)
	}
	env, err := exec.Command("env").Output()
	if err != nil {
		t.Skipf("no env program: %v", err)
	}
	if strings.Contains(string(env), key) || strings.Contains(string(env), keyEnv+"=") {
		t.Fatalf("a child process inherited the key:\n%s", env)
	}
	if got := takeKey(); got != "" {
		t.Fatalf("second takeKey = %q, want empty", got)
	}
}
