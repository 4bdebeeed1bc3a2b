//go:build e2e

package xvfb

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
)

// TestSecurityKeysStayOutOfProcessesAndCrashOutput runs yui with a key in
// YUI_KEY and another in its settings file, has the pet speak (each
// sentence is an espeak-ng process where it is installed), then kills it
// with SIGQUIT, which makes the Go runtime print every goroutine's stack:
// neither key is in yui's command line, in any child's command line or
// environment, in the stack dump, in the --verbose mirror on stderr, or in
// the log file.
func TestSecurityKeysStayOutOfProcessesAndCrashOutput(t *testing.T) {
	const envKey = "sk-e2e-ENVKEY-5f4e3d2c1b0a"
	const fileKey = "sk-e2e-FILEKEY-a1b2c3d4e5f6"
	keyForms := func(k string) []string { return []string{k, url.QueryEscape(k), k[len(k)-12:]} }

	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), envKey, "echo")
	cfg := t.TempDir()

	// A first run writes the settings file; the saved preset then gets a
	// key of its own (the YUI_KEY of the second run overrides it, unsaved).
	first := harness.StartYuiIn(t, d, cfg, "", "--chat-api", "push", "--chat-base-url", s.Url)
	first.WaitRecord(30*time.Second, "ws_open", nil)
	first.Proc.Stop()
	path := filepath.Join(cfg, "settings.json")
	var st map[string]any
	data, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(data, &st) != nil {
		t.Fatalf("settings: %v\n%s", err, data)
	}
	st["presets"].([]any)[0].(map[string]any)["key"] = fileKey
	data, _ = json.MarshalIndent(st, "", "  ")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}

	// --audio-out gives the pet an output with no sound card, so the
	// system voice runs.
	a := harness.StartYuiIn(t, d, cfg, envKey, "--chat-api", "push", "--chat-base-url", s.Url, "--verbose",
		"--audio-out", filepath.Join(t.TempDir(), "speech.wav"))
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	pid := a.Proc.Cmd.Process.Pid
	check := func(what string, b []byte) {
		t.Helper()
		for _, k := range [][]string{keyForms(envKey), keyForms(fileKey)} {
			for _, f := range k {
				if bytes.Contains(b, []byte(f)) {
					t.Errorf("%s holds the key (%q)", what, f)
				}
			}
		}
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	check("yui's command line", cmdline)

	// The reply is spoken: every process yui starts meanwhile is checked.
	a.Talk("hello there, tell me a story")
	// Processes are sampled until three seconds after the first child
	// (an espeak-ng lives for one sentence), or 20 s without one.
	seen := map[int]bool{}
	var firstSeen time.Time
	harness.WaitForOr(20*time.Second, func() bool {
		for _, child := range children(pid) {
			if seen[child] {
				continue
			}
			argv, err1 := os.ReadFile("/proc/" + strconv.Itoa(child) + "/cmdline")
			env, err2 := os.ReadFile("/proc/" + strconv.Itoa(child) + "/environ")
			if err1 != nil || err2 != nil {
				continue // it ended already
			}
			seen[child] = true
			if firstSeen.IsZero() {
				firstSeen = time.Now()
			}
			name := strings.SplitN(string(argv), "\x00", 2)[0]
			t.Logf("child %d: %s", child, name)
			check("the command line of "+name, argv)
			check("the environment of "+name, env)
			if bytes.Contains(env, []byte("YUI_KEY=")) {
				t.Errorf("%s inherited YUI_KEY", name)
			}
		}
		return !firstSeen.IsZero() && time.Since(firstSeen) > 3*time.Second
	})
	if len(seen) == 0 {
		t.Log("no child process was seen (no espeak-ng?): only yui itself was checked")
	}
	a.WaitRecord(30*time.Second, "push.turn_end", nil)

	// SIGQUIT: the Go runtime prints every goroutine's stack and exits.
	if err := a.Proc.Cmd.Process.Signal(syscall.SIGQUIT); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- a.Proc.Cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("yui did not exit on SIGQUIT")
	}
	out := a.Proc.Output()
	if !strings.Contains(out, "SIGQUIT") || !strings.Contains(out, "goroutine ") {
		t.Fatalf("no stack dump on SIGQUIT:\n%s", harness.Tail(out, 2000))
	}
	if !strings.Contains(out, "ws_ready") {
		t.Errorf("no --verbose mirror on stderr:\n%s", harness.Tail(out, 2000))
	}
	check("yui's output after SIGQUIT", []byte(out))

	logs, _ := filepath.Glob(filepath.Join(cfg, "logs", "*.log*"))
	if len(logs) == 0 {
		t.Fatal("no log file")
	}
	for _, f := range logs {
		b, _ := os.ReadFile(f)
		check("the log "+filepath.Base(f), b)
	}
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(fileKey)) || bytes.Contains(b, []byte(envKey)) {
		t.Errorf("settings file: the saved key changed, or the one-run key was saved")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("settings file mode %v (%v)", fi.Mode(), err)
	}
}

// children returns the ids of the processes whose parent is pid.
func children(pid int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		rest := string(stat[bytes.LastIndexByte(stat, ')')+1:])
		if f := strings.Fields(rest); len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}
