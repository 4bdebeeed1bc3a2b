package main

import (
	"os"
	"os/exec"
	"path/filepath"
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

// --trace writes a Go execution trace once the run ends; without it
// nothing is traced; a file that cannot be made is an error at start.
func TestStartTrace(t *testing.T) {
	stop, err := startTrace("")
	if err != nil {
		t.Fatal(err)
	}
	stop()
	path := filepath.Join(t.TempDir(), "run.trace")
	stop, err = startTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Fatalf("trace file: %v, %v", fi, err)
	}
	if _, err := startTrace(filepath.Join(t.TempDir(), "no", "such", "dir", "t")); err == nil {
		t.Fatal("a trace into a missing directory started")
	}
}
