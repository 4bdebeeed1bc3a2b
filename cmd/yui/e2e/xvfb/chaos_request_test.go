//go:build e2e

package xvfb

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/cmd/yui/e2e/harness"
	"yui/transport/request/requesttest"
)

// The real yui against a chaotic model server over both request APIs:
// requests dropped before the answer and mid-stream, 500 and 429 answers,
// and streams that hang. Every turn ends with the outcome and the error
// text docs/protocol/push-transport.md's table gives, the app answers the next turn as
// if nothing happened, no panic, no growth. A hang is ended by the user's
// stop; in the long run (YUI_SOAK=long) one hang on Chat Completions is
// left to the 240 s frame wait.
func TestChaosRequestTransports(t *testing.T) {
	for _, api := range []string{"chat_completions", "responses"} {
		t.Run(api, func(t *testing.T) { chaosRequest(t, api) })
	}
}

func chaosRequest(t *testing.T, api string) {
	turns, waitOut := 14, false
	if soakLong() {
		turns, waitOut = 60, api == "chat_completions"
	}
	began := time.Now()
	d := harness.StartXvfb(t, 1280, 800)
	srv := requesttest.NewChaos(rand.New(rand.NewPCG(20261201, uint64(len(api)))), 2+turns/20)
	hs := requesttest.Start(t, srv.Handle)
	t.Cleanup(srv.Release) // before the server's Close, which waits for the hung handlers
	cfg := t.TempDir()
	wrote := harness.WriteSoakSettings(t, cfg, map[string]any{"chat_api": api, "chat_base_url": hs.URL + "/v1", "model": "m"})
	a := harness.StartYuiIn(t, d, cfg, "", "--stats-every", "1s")
	lt := harness.NewLogTail(cfg)
	lt.Wait(t, 30*time.Second, "session_start", nil)
	a.OpenComposer()
	ty := &typist{t: t, a: a, log: lt}

	var before harness.Stats
	count := map[string]int{}
	waited := false
	for n := 1; n <= turns; n++ {
		id := ty.turn(fmt.Sprintf("chaos turn %d", n))
		var act string
		harness.WaitFor(t, 10*time.Second, "the request of turn "+strconv.Itoa(n), func() bool {
			act = srv.Action(n)
			return act != ""
		})
		count[act]++
		failure := map[string]string{"turn_id": id, "kind": "failure"}
		switch act {
		case requesttest.ChaosOK:
			lt.Wait(t, 20*time.Second, "speech", map[string]string{"turn_id": id, "kind": "reply", "text": fmt.Sprintf("Reply for turn %d.", n)})
		case requesttest.Chaos500, requesttest.Chaos429:
			lt.Wait(t, 20*time.Second, "request_error", map[string]string{"turn_id": id, "status": act})
			lt.Wait(t, 20*time.Second, "speech", failure)
		case requesttest.ChaosDropBefore:
			lt.Wait(t, 20*time.Second, "network_drop", map[string]string{"turn_id": id, "stage": "push_wait"})
			lt.Wait(t, 20*time.Second, "speech", failure)
		case requesttest.ChaosDropMid:
			// The sentence streamed before the drop rendered: the turn
			// counts as delivered, with no failure line.
			lt.Wait(t, 20*time.Second, "network_drop", map[string]string{"turn_id": id, "stage": "push_turn_end"})
		case requesttest.ChaosHang:
			if waitOut && !waited {
				waited = true
				lt.Wait(t, 300*time.Second, "network_stall", map[string]string{"turn_id": id, "stage": "push_wait"})
				lt.Wait(t, 20*time.Second, "speech", failure)
				break
			}
			// The user stops it with the composer's stop button, once
			// the server holds it.
			harness.WaitFor(t, 20*time.Second, "the request to hang", func() bool {
				return srv.Hanging() >= count[requesttest.ChaosHang]
			})
			stops := lt.Count("pet_composer_stop", nil)
			ty.stop()
			harness.WaitFor(t, 10*time.Second, "the stop", func() bool { return lt.Count("pet_composer_stop", nil) > stops })
			a.OpenComposer() // the click gave the focus to the button
			harness.WaitFor(t, 10*time.Second, "the server to see the request aborted", func() bool {
				return srv.Aborted() >= count[requesttest.ChaosHang]-btoi(waited)
			})
		}
		ty.waitUnlocked(n, 30*time.Second)
		if n == 3 {
			before = lt.SettledStats(t)
		}
	}
	after := lt.SettledStats(t)
	recs := lt.All()
	d.Screenshot(t, "after-chaos-"+api)
	harness.KeepLogs(t, cfg)
	if n := harness.CountRecords(recs, "pet_composer_unlocked", nil); n != turns {
		t.Errorf("the composer unlocked %d times for %d turns", n, turns)
	}
	harness.CheckNoPanic(t, recs, a.Proc.Output())
	checkGrowth(t, before, after)
	checkSettingsKept(t, cfg, wrote, nil)

	// The failed turns' error lines, as the message history keeps them:
	// status and server text for 500 and 429.
	a.Proc.Stop()
	hist, err := os.ReadFile(filepath.Join(cfg, "history", "p-soak0001.json"))
	if err != nil {
		t.Fatalf("message history: %v", err)
	}
	for act, line := range map[string]string{requesttest.Chaos500: "500 Internal Server Error: chaos: internal error", requesttest.Chaos429: "429 Too Many Requests: chaos: rate limit reached"} {
		if got := strings.Count(string(hist), line); count[act] > 0 && got != count[act] {
			t.Errorf("the history holds %q %d times, want once per %s turn (%d)", line, got, act, count[act])
		}
	}
	soakReport(t, "soak %s: %d turns: %d ok, %d dropped before the answer, %d dropped mid-stream, %d × 500, %d × 429, %d hung (%d waited out); turns ended %d/%d, goroutines %s, fds %s, rss %s→%s, in %s",
		api, turns, count[requesttest.ChaosOK], count[requesttest.ChaosDropBefore], count[requesttest.ChaosDropMid], count[requesttest.Chaos500], count[requesttest.Chaos429], count[requesttest.ChaosHang], btoi(waited),
		harness.CountRecords(recs, "pet_composer_unlocked", nil), turns, harness.Growth(before.Goroutines, after.Goroutines), harness.Growth(before.Fds, after.Fds),
		harness.Mib(before.Rss), harness.Mib(after.Rss), time.Since(began).Round(time.Second))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
