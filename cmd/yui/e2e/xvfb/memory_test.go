//go:build e2e

package xvfb

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/request/requesttest"
)

// tell types text into the open composer, sends it and waits until its
// turn ended and the composer is unlocked again.
func tell(a *harness.App, text string) {
	a.T.Helper()
	turns, unlocked := a.Count("turn", nil), a.Count("pet_composer_unlocked", nil)
	a.D.Run(a.T, "xdotool", "type", "--delay", "8", text)
	a.D.Run(a.T, "xdotool", "key", "Return")
	for try := 0; !harness.WaitForOr(3*time.Second, func() bool { return a.Count("turn", nil) > turns }); try++ {
		if try == 3 {
			a.T.Fatalf("the turn %q was never sent", text)
		}
		a.D.Run(a.T, "xdotool", "key", "Return")
	}
	harness.WaitFor(a.T, 20*time.Second, fmt.Sprintf("the composer unlocked after %q", text), func() bool {
		return a.Count("pet_composer_unlocked", nil) > unlocked
	})
}

// startMemoryServer starts requesttest's MemoryModel and returns it with
// its base URL.
func startMemoryServer(t *testing.T) (*requesttest.MemoryModel, string) {
	t.Helper()
	srv := &requesttest.MemoryModel{}
	hs := requesttest.Start(t, srv.Handle)
	return srv, hs.URL + "/v1"
}

func writeMemoryPreset(t *testing.T, cfg, base string, window int) {
	t.Helper()
	st := map[string]any{"version": 1, "active_preset": "p-memo0001", "log_level": "debug", "presets": []any{map[string]any{
		"id": "p-memo0001", "name": "Yui", "enabled": true, "character": "yui", "chat_api": "chat_completions",
		"chat_base_url": base, "model": "m", "context_window": window, "chat_id": "yui-0000memo",
		"card": "You are Yui, a cheerful desktop companion.",
	}}}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The model keeps a fact with remember; after a restart the next
// request's system prompt carries it, after the card; a repeat is
// already remembered; forget by id and by text drop facts.
func TestMemoryRememberForgetAndRestart(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv, base := startMemoryServer(t)
	cfg := t.TempDir()
	writeMemoryPreset(t, cfg, base, 0)

	a := harness.StartYuiIn(t, d, cfg, "")
	a.OpenComposer()
	tell(a, "remember The user's cat is called Miso")
	if got := srv.Last(t).Result; got != "ok: remembered #1" {
		t.Fatalf("remember answered %q", got)
	}
	if tools := srv.Last(t).Tools; !strings.Contains(strings.Join(tools, ","), "remember,forget") {
		t.Fatalf("tools %v", tools)
	}
	tell(a, "remember the USER'S cat  is called miso")
	if got := srv.Last(t).Result; got != "ok: already remembered #1" {
		t.Fatalf("a repeat answered %q", got)
	}
	a.WaitRecord(10*time.Second, "memory_remember", map[string]string{"already": "true"})
	a.Proc.Stop()
	// The tool's status is in the message window's history like other tools'.
	hist, _ := os.ReadFile(filepath.Join(cfg, "history", "p-memo0001.json"))
	if !strings.Contains(string(hist), `"tool":"remember"`) {
		t.Fatalf("no remember status in the message history: %s", hist)
	}

	fi, err := os.Stat(filepath.Join(cfg, "memory", "p-memo0001.facts.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("facts file: %v %v", fi, err)
	}

	b := harness.StartYuiIn(t, d, cfg, "")
	harness.WaitFor(t, 30*time.Second, "the second run's pet", func() bool { return b.Count("pet_window_shown", nil) == 2 })
	b.OpenComposer()
	tell(b, "hello again")
	sys := srv.Last(t).System
	card, block := strings.Index(sys, "You are Yui"), strings.Index(sys, "What you remember about the user")
	if card != 0 || block < card || !strings.Contains(sys[block:], "The user's cat is called Miso") {
		t.Fatalf("system prompt after the restart: %q", sys)
	}
	if !strings.Contains(sys, "remember tool") {
		t.Fatal("the system prompt does not tell the model when to remember")
	}
	tell(b, "remember Has an exam on Friday")
	if got := srv.Last(t).Result; got != "ok: remembered #2" {
		t.Fatalf("second fact: %q", got)
	}
	tell(b, "forget id 1")
	if got := srv.Last(t).Result; got != "ok: forgot #1" {
		t.Fatalf("forget by id: %q", got)
	}
	tell(b, "forget id 1")
	if got := srv.Last(t).Result; got != "error: no such memory" {
		t.Fatalf("forget twice: %q", got)
	}
	tell(b, "forget text has an exam on friday")
	if got := srv.Last(t).Result; got != "ok: forgot #2" {
		t.Fatalf("forget by text: %q", got)
	}
	tell(b, "what do you remember?")
	if sys := srv.Last(t).System; strings.Contains(sys, "Miso") || strings.Contains(sys, "exam") {
		t.Fatalf("forgotten facts still in the prompt: %q", sys)
	}
	d.Screenshot(t, "memory-after-forget")
}

// 500 facts on context_window 2048: the block holds within a tenth of
// the window, newest first, and the request within the window.
func TestMemoryBudgetWith500Facts(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	srv, base := startMemoryServer(t)
	cfg := t.TempDir()
	writeMemoryPreset(t, cfg, base, 2048)
	var facts []map[string]any
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= 500; i++ {
		facts = append(facts, map[string]any{"id": i, "text": fmt.Sprintf("Fact number %d: the user likes thing %d a lot", i, i),
			"about": "user", "created": t0.Add(time.Duration(i) * time.Minute), "last_used": t0.Add(time.Duration(i) * time.Minute)})
	}
	data, _ := json.Marshal(map[string]any{"version": 1, "next_id": 501, "facts": facts})
	os.MkdirAll(filepath.Join(cfg, "memory"), 0o700)
	if err := os.WriteFile(filepath.Join(cfg, "memory", "p-memo0001.facts.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	a := harness.StartYuiIn(t, d, cfg, "")
	a.OpenComposer()
	tell(a, "hi")
	sys := srv.Last(t).System
	i := strings.Index(sys, "Long-term memory:")
	if i < 0 || !strings.Contains(sys, "Fact number 500:") || strings.Contains(sys, "Fact number 1:") {
		t.Fatalf("system prompt: %q", sys)
	}
	// Everything memory adds after the card, up to the cue paragraph.
	block := sys[i:]
	if end := strings.Index(block, "\n\nTo show an emotion"); end >= 0 {
		block = block[:end]
	}
	if tokens := (len(block) + 3) / 4; tokens > 2048/10 {
		t.Fatalf("memory takes about %d tokens, over a tenth of 2048: %q", tokens, block)
	}
	if est := (len(srv.Last(t).Raw) + 3) / 4; est > 2048 {
		t.Fatalf("the request is about %d tokens, over the window", est)
	}
	tell(a, "remember One more thing")
	if got := srv.Last(t).Result; got != "ok: remembered #501" {
		t.Fatalf("remember past 500: %q", got)
	}
	a.Proc.Stop()
	var f struct {
		Facts []struct {
			ID int `json:"id"`
		} `json:"facts"`
	}
	data, _ = os.ReadFile(filepath.Join(cfg, "memory", "p-memo0001.facts.json"))
	if err := json.Unmarshal(data, &f); err != nil || len(f.Facts) != 500 {
		t.Fatalf("%d facts kept (%v)", len(f.Facts), err)
	}
	for _, x := range f.Facts {
		if x.ID == 1 {
			t.Fatal("the least recently used fact was not the one to go")
		}
	}
}

// Over push the client declares no remember or forget: a push backend
// keeps its own memory.
func TestMemoryNotDeclaredOverPush(t *testing.T) {
	d := harness.StartXvfb(t, 1280, 800)
	s := harness.StartSim(t, harness.FreePort(t), "k1", "echo")
	cfg := t.TempDir()
	harness.WriteSettings(t, cfg, harness.PushPreset("p-memo0002", "Yui", s, "k1"))
	a := harness.StartYuiIn(t, d, cfg, "")
	a.WaitRecord(30*time.Second, "ws_ready", nil)
	var hello []map[string]any
	harness.WaitFor(t, 10*time.Second, "the hello frame", func() bool { hello = s.Frames("hello"); return len(hello) > 0 })
	tools, _ := json.Marshal(hello[0]["tools"])
	if !strings.Contains(string(tools), "rate_relation") {
		t.Fatalf("hello.tools = %s: the check reads the wrong field", tools)
	}
	if strings.Contains(string(tools), `"remember"`) || strings.Contains(string(tools), `"forget"`) {
		t.Fatalf("hello.tools over push declares memory tools: %s", tools)
	}
}
