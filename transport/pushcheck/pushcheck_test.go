package pushcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport/pushsim"
)

// Test waits: short, and far apart enough that a loaded machine keeps
// the fake on the right side of each.
const (
	testPace     = 100 * time.Millisecond
	testToolWait = 2 * time.Second
)

func testToolWaits() map[string]time.Duration {
	m := map[string]time.Duration{"run_shell": testToolWait}
	for _, t := range clientTools {
		m[t.decl.Function.Name] = testToolWait
	}
	return m
}

// startFake starts pushsim's demo backend on loopback, broken one way
// (or not at all).
func startFake(t *testing.T, b pushsim.Breakage) *pushsim.Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := pushsim.StartSim(ctx, pushsim.SimOptions{
		Addr: "127.0.0.1:0", Key: "k", Break: b,
		Script: pushsim.Demo(pushsim.DemoOptions{Pace: testPace, ToolWaits: testToolWaits(), Break: b}),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func testConfig(srv *pushsim.Server) Config {
	return Config{
		URL:               "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws",
		Key:               "k",
		ChatID:            "yui-check-test",
		Turns:             5, // the fake fails every fourth turn; the fifth follows its error
		ReadyWait:         15 * time.Second,
		TurnWait:          20 * time.Second,
		Grace:             20 * time.Millisecond,
		AnswerDelay:       50 * time.Millisecond,
		ToolWaits:         testToolWaits(),
		ToolWaitTolerance: testToolWait / 2,
	}
}

func run(t *testing.T, cfg Config) Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestFakeBackendPassesEveryRule(t *testing.T) {
	t.Parallel()
	srv := startFake(t, pushsim.BreakNone)
	rep := run(t, testConfig(srv))
	if len(rep.Results) != len(rules) {
		t.Fatalf("%d results for %d rules", len(rep.Results), len(rules))
	}
	for _, r := range rep.Results {
		if r.Status != Pass {
			t.Errorf("%s: %s %s", r.Rule, r.Status, r.Detail)
		}
	}
	if rep.Failed() {
		var buf bytes.Buffer
		rep.WriteText(&buf)
		t.Log(buf.String())
	}
}

// breakRule maps each breakage to the one rule that must catch it.
var breakRule = map[pushsim.Breakage]string{
	pushsim.BreakReadyMaxTurnBytes:     "ready",
	pushsim.BreakWrongKeyCode:          "key.reject",
	pushsim.BreakFrameNotJSON:          "frame.json",
	pushsim.BreakErrorWithoutAccepts:   "frame.types",
	pushsim.BreakRenderShape:           "render.shape",
	pushsim.BreakVocabDefaults:         "cue.vocabulary",
	pushsim.BreakRenderAfterTurnEnd:    "turn.order",
	pushsim.BreakDoubleTurnEnd:         "turn_end.once",
	pushsim.BreakErrorAfterTurnEnd:     "error.then_turn_end",
	pushsim.BreakIgnoreStop:            "stop",
	pushsim.BreakResetKeepsWork:        "reset",
	pushsim.BreakUndeclaredTool:        "tool_call.declared",
	pushsim.BreakToolArgs:              "tool_call.schema",
	pushsim.BreakParallelTools:         "tool_call.one_at_a_time",
	pushsim.BreakToolNoWait:            "tool_call.wait",
	pushsim.BreakToolStatusState:       "tool_status",
	pushsim.BreakDelegationTitle:       "delegations",
	pushsim.BreakReasoningAfterTurnEnd: "reasoning",
	pushsim.BreakUsageStrings:          "usage",
	pushsim.BreakOversizeFrame:         "size.out",
	pushsim.BreakTurnReadLimit:         "size.in",
	pushsim.BreakReplaceCode:           "chat.second_connection",
}

func TestEveryRuleHasABreakage(t *testing.T) {
	caught := map[string]bool{}
	for _, b := range pushsim.Breakages() {
		id, ok := breakRule[b]
		if !ok {
			t.Errorf("breakage %s has no rule", b)
		}
		caught[id] = true
	}
	for _, id := range RuleIDs() {
		if !caught[id] {
			t.Errorf("rule %s catches no breakage", id)
		}
	}
}

func TestEachBreakageCaughtByItsRuleOnly(t *testing.T) {
	// The runs mostly wait on the fakes' pacing, so they run all at once
	// rather than -parallel at a time.
	breaks := pushsim.Breakages()
	reports := make([]Report, len(breaks))
	errs := make([]error, len(breaks))
	var wg sync.WaitGroup
	for i, b := range breaks {
		srv := startFake(t, b)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			reports[i], errs[i] = Run(ctx, testConfig(srv))
		}()
	}
	wg.Wait()
	for i, b := range breaks {
		want := breakRule[b]
		t.Run(string(b), func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			for _, r := range reports[i].Results {
				switch {
				case r.Rule == want && r.Status != Fail:
					t.Errorf("%s: %s %s, want FAIL", r.Rule, r.Status, r.Detail)
				case r.Rule != want && r.Status == Fail:
					t.Errorf("%s also failed: %s", r.Rule, r.Detail)
				case r.Rule == want:
					t.Logf("%s: FAIL %s", r.Rule, r.Detail)
				}
			}
		})
	}
}

func TestOnlySelectsRules(t *testing.T) {
	t.Parallel()
	srv := startFake(t, pushsim.BreakNone)
	cfg := testConfig(srv)
	cfg.Only = []string{"key.reject", "ready"}
	rep := run(t, cfg)
	if len(rep.Results) != 2 || rep.Results[0].Rule != "ready" || rep.Results[1].Rule != "key.reject" {
		t.Fatalf("results = %+v", rep.Results)
	}
	cfg.Only = []string{"no.such.rule"}
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "no.such.rule") {
		t.Fatalf("unknown rule: err = %v", err)
	}
}

func TestKeylessRunSkipsWrongKey(t *testing.T) {
	t.Parallel()
	srv := startFake(t, pushsim.BreakNone)
	cfg := testConfig(srv)
	cfg.Key = ""
	cfg.Only = []string{"key.reject"}
	rep := run(t, cfg)
	if r := rep.Results[0]; r.Status != Skip || !strings.Contains(r.Detail, "--key") {
		t.Fatalf("key.reject = %+v", r)
	}
}

func TestUnreachableBackendFails(t *testing.T) {
	t.Parallel()
	srv := startFake(t, pushsim.BreakNone)
	cfg := testConfig(srv)
	srv.Close()
	cfg.Only = []string{"ready", "frame.json"}
	rep := run(t, cfg)
	for _, r := range rep.Results {
		if r.Status != Fail || !strings.Contains(r.Detail, "dial") {
			t.Errorf("%s = %s %s", r.Rule, r.Status, r.Detail)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"ws://127.0.0.1:8646/ws":   true,
		"ws://localhost:1/ws":      true,
		"wss://[::1]:1/ws":         true,
		"ws://10.0.0.5:8646/ws":    true,
		"ws://192.168.1.2:8646/ws": true,
		"ws://8.8.8.8:8646/ws":     false,
		"http://127.0.0.1:1/ws":    false,
		"ws:///ws":                 false,
		"::":                       false,
	} {
		if err := checkURL(context.Background(), u, false); (err == nil) != ok {
			t.Errorf("checkURL(%q) = %v", u, err)
		}
	}
	if err := checkURL(context.Background(), "ws://8.8.8.8:1/ws", true); err != nil {
		t.Errorf("allow remote: %v", err)
	}
}

func TestReportFormats(t *testing.T) {
	rep := Report{URL: "ws://127.0.0.1:1/ws", Results: []Result{
		{Rule: "ready", Status: Pass, Detail: "ready first", Doc: docPush, Spec: "Other frames follow the backend's ready."},
		{Rule: "usage", Status: Skip, Detail: "no usage", Doc: docPush, Spec: "usage: Optional."},
		{Rule: "stop", Status: Fail, Detail: "render after stop", Doc: docPush, Spec: "The backend stops generating."},
	}}
	if !rep.Failed() {
		t.Error("Failed() = false with a FAIL")
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PASS   ready", "FAIL   stop", "render after stop", "docs/protocol/push-transport.md: The backend stops generating.", "PASS 1, FAIL 1, SKIP 1 (rules checked: 3)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		URL     string   `json:"url"`
		Results []Result `json:"results"`
		Fail    int      `json:"fail"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Fail != 1 || len(back.Results) != 3 || back.Results[2].Spec == "" {
		t.Fatalf("json = %s (%v)", js.String(), err)
	}
}

func TestSizedTurnIsExact(t *testing.T) {
	for _, size := range []int{4096, TextFrameLimit, 1 << 20} {
		for _, img := range []bool{false, true} {
			b, err := sizedTurn("1", "hi \"there\"", size, img)
			if err != nil || len(b) != size || !json.Valid(b) {
				t.Errorf("sizedTurn(%d, %v) = %d bytes, %v", size, img, len(b), err)
			}
		}
	}
	if _, err := sizedTurn("1", "hi", 10, false); err == nil {
		t.Error("a 10-byte turn built")
	}
}
