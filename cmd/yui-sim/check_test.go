package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"yui/transport/pushsim"
)

// startSim starts the demo backend on loopback, broken one way or not.
func startSim(t *testing.T, b pushsim.Breakage) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := pushsim.StartSim(ctx, pushsim.SimOptions{Addr: "127.0.0.1:0", Key: "k", Break: b,
		Script: pushsim.Demo(pushsim.DemoOptions{Break: b})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
}

func check(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runCheck(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCheckPassesExitZero(t *testing.T) {
	url := startSim(t, pushsim.BreakNone)
	code, out, errOut := check(t, "--url", url, "--key", "k", "--only", "ready, key.reject", "--ready-wait", "10s")
	if code != exitPass {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"PASS   ready", "PASS   key.reject", "closed with 4401", "PASS 2, FAIL 0, SKIP 0 (rules checked: 2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "probe key") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
}

func TestCheckFailExitOneJSON(t *testing.T) {
	url := startSim(t, pushsim.BreakWrongKeyCode)
	code, out, _ := check(t, "--url", url, "--key", "k", "--only", "key.reject", "--json")
	if code != exitFail {
		t.Fatalf("exit %d, want %d\n%s", code, exitFail, out)
	}
	var rep struct {
		Results []struct {
			Rule, Status, Detail, Doc, Spec string
		} `json:"results"`
		Fail int `json:"fail"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	r := rep.Results[0]
	if rep.Fail != 1 || r.Rule != "key.reject" || r.Status != "FAIL" || !strings.Contains(r.Detail, "1008") || !strings.Contains(r.Spec, "4401") {
		t.Fatalf("report = %+v", rep)
	}
}

func TestCheckUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--url", "ws://8.8.8.8:1/ws"},
		{"--url", "http://127.0.0.1:1/ws"},
		{"--url", "ws://127.0.0.1:1/ws", "--only", "nope"},
		{"--url", "ws://127.0.0.1:1/ws", "extra"},
		{"--no-such-flag"},
	} {
		if code, _, errOut := check(t, args...); code != exitUsage {
			t.Errorf("check %q = %d (%s), want %d", args, code, errOut, exitUsage)
		}
	}
}

func TestParseBreak(t *testing.T) {
	if b, err := parseBreak(""); err != nil || b != pushsim.BreakNone {
		t.Errorf("empty: %v %v", b, err)
	}
	if b, err := parseBreak("ignore_stop"); err != nil || b != pushsim.BreakIgnoreStop {
		t.Errorf("ignore_stop: %v %v", b, err)
	}
	if _, err := parseBreak("nope"); err == nil || !strings.Contains(err.Error(), "ignore_stop") {
		t.Errorf("nope: %v", err)
	}
	if err := run([]string{"--addr", "127.0.0.1:0", "--break", "nope"}); err == nil {
		t.Error("run accepted an unknown --break")
	}
}
